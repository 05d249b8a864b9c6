import { OPERATOR_LINK_TTL_HOURS, OPERATOR_TOKEN_PREFIX, type TOperator, type TOperatorInvitation, type TOperatorLink, type TOperatorLoginData } from '@verilead/contracts';
import type { TConfig } from '../../config';
import type { TDatabase } from '../../platform/db/database';
import { AppError } from '../../platform/errors/app-error';
import { getPublicBaseUrl } from '../../platform/http/public-url';
import type { TMailer } from '../../platform/mailer/mailer';
import { hashPassword } from '../../platform/auth/passwords';
import { generateToken, hashToken } from '../../platform/auth/tokens';
import type { TOperatorCaller } from './guard';
import {
  consumeOperatorLink,
  insertOperator,
  insertOperatorLink,
  insertOperatorSession,
  revokeOperatorSession,
  selectOperatorByEmail,
  selectOperatorById,
  selectOperators,
  setOperatorPassword,
  type TOperatorRow,
} from './queries';
import { recordOperatorAction } from './record-action';

const OPERATOR_SESSION_TTL_MS = 12 * 3600_000;

export function toOperator(row: TOperatorRow): TOperator {
  return { id: row.id, email: row.email, name: row.name, active: row.passwordHash !== null, disabled: row.disabledAt !== null, created_at: row.createdAt.toISOString() };
}

/**
 * Creates an operator (or, for an operator who never set a password, a new link) and answers the one-time link that
 * sets the password: single use, expires after OPERATOR_LINK_TTL_HOURS. `invitedBy` null: the ops command.
 */
export async function createOperatorLink(
  deps: { database: TDatabase; config: TConfig },
  input: { email: string; name?: string; invitedBy: TOperatorCaller | null },
): Promise<TOperatorLink> {
  return deps.database.transaction(async (tx) => {
    let row = await selectOperatorByEmail(tx, input.email);
    if (row?.passwordHash) throw new AppError('email_already_registered', `${input.email} is an operator already.`);
    if (row?.disabledAt) throw new AppError('conflict', `${input.email} is a disabled operator: enable them first.`);
    row ??= await insertOperator(tx, { email: input.email, name: input.name ?? input.email.split('@')[0]!, invitedBy: input.invitedBy?.operatorId ?? null });
    const { token, hash } = generateToken('vlp', 24);
    const expiresAt = new Date(Date.now() + OPERATOR_LINK_TTL_HOURS * 3600_000);
    await insertOperatorLink(tx, row.id, hash, expiresAt);
    if (input.invitedBy) {
      await recordOperatorAction(tx, input.invitedBy, { action: 'operator.operator_invited', orgId: null, targetType: 'operator', targetId: row.id, details: { email: row.email } });
    }
    return { operator: toOperator(row), url: `${getPublicBaseUrl(deps.config)}/ops/set-password?token=${encodeURIComponent(token)}`, expires_at: expiresAt.toISOString() };
  });
}

/**
 * An operator invites another: the one-time link is mailed to the invitee only, never answered (an operator session
 * alone cannot make an operator and set its password); the answer says where it went.
 */
export async function inviteOperator(
  deps: { database: TDatabase; config: TConfig; mailer: TMailer },
  operator: TOperatorCaller,
  input: { email: string; name?: string },
): Promise<TOperatorInvitation> {
  const link = await createOperatorLink(deps, { ...input, invitedBy: operator });
  await deps.mailer.send({ to: link.operator.email, template: 'operator_invite', vars: { name: link.operator.name, url: link.url } });
  return { operator: link.operator, expires_at: link.expires_at, message: `Invitation sent to ${link.operator.email}.` };
}

/** Sets the password with a one-time link (used once) and signs the operator in (recorded as a sign-in). */
export async function setOperatorPasswordWithLink(deps: { database: TDatabase }, input: { token: string; password: string }, from: { ip: string }): Promise<TOperatorLoginData> {
  const passwordHash = await hashPassword(input.password);
  return deps.database.transaction(async (tx) => {
    const link = await consumeOperatorLink(tx, hashToken(input.token));
    if (!link) throw new AppError('invalid_token', 'This link was used already or has expired. Ask an operator for a new one.');
    const row = await selectOperatorById(tx, link.operatorId);
    // A disabled operator's links were voided; one made since (none is) would still not open the console.
    if (!row || row.disabledAt) throw new AppError('invalid_token', 'This link was used already or has expired. Ask an operator for a new one.');
    await setOperatorPassword(tx, link.operatorId, passwordHash);
    const token = await openOperatorSession(tx, row.id);
    await recordOperatorAction(tx, { operatorId: row.id, email: row.email }, { action: 'operator.signed_in', orgId: null, targetType: 'operator', targetId: row.id, details: { ip: from.ip, with: 'one_time_link' } });
    return { token, operator: toOperator({ ...row, passwordHash }) };
  });
}

/** A new operator session: answers its bearer token (`vlo_…`, kept as its SHA-256). */
export async function openOperatorSession(tx: Parameters<typeof insertOperatorSession>[0], operatorId: string): Promise<string> {
  const { token, hash } = generateToken(OPERATOR_TOKEN_PREFIX);
  await insertOperatorSession(tx, operatorId, hash, new Date(Date.now() + OPERATOR_SESSION_TTL_MS));
  return token;
}

export async function logoutOperator(deps: { database: TDatabase }, operator: TOperatorCaller): Promise<{ message: string }> {
  await revokeOperatorSession(deps.database.db, operator.sessionId);
  return { message: 'Signed out' };
}

export async function listOperators(deps: { database: TDatabase }): Promise<{ items: TOperator[] }> {
  return { items: (await selectOperators(deps.database.db)).map(toOperator) };
}
