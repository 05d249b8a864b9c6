import type { TOperatorLoginData } from '@verilead/contracts';
import type { TDatabase } from '../../platform/db/database';
import { AppError } from '../../platform/errors/app-error';
import { verifyPassword } from '../../platform/auth/passwords';
import { signInLockedError, takeSignInAttempt } from '../../platform/auth/sign-in-limit';
import { openOperatorSession, toOperator } from './operator-auth';
import { selectOperatorByEmail } from './queries';
import { recordOperatorAction } from './record-action';

const LOGIN_FAILED = 'The e-mail or password is not right, or this operator has not set a password yet.';

/**
 * Operator sign-in. Every attempt is recorded in the operator-side log with the address it came from: signed in,
 * failed (the e-mail tried, an operator's or not) or refused while locked. The per-account sign-in limit
 * (platform/auth/sign-in-limit.ts, realm `operator`) answers 429 whatever the password once an e-mail has failed too
 * often, on top of the per-address limit of the route.
 */
export async function loginOperator(deps: { database: TDatabase }, input: { email: string; password: string }, from: { ip: string }): Promise<TOperatorLoginData> {
  const db = deps.database.db;
  const email = input.email.trim().toLowerCase();
  const row = await selectOperatorByEmail(db, email);
  const attempt = await takeSignInAttempt(deps.database, 'operator', email);
  if (!attempt) {
    await recordOperatorAction(db, { operatorId: row?.id ?? null, email }, { action: 'operator.sign_in_locked', orgId: null, targetType: 'operator', targetId: row?.id ?? null, details: { ip: from.ip } });
    throw signInLockedError();
  }
  const valid = await verifyPassword(row?.disabledAt ? null : row?.passwordHash, input.password);
  if (!row || !valid) {
    const reason = !row ? 'unknown_email' : row.disabledAt ? 'disabled' : row.passwordHash ? 'wrong_password' : 'no_password_yet';
    await recordOperatorAction(db, { operatorId: row?.id ?? null, email }, { action: 'operator.sign_in_failed', orgId: null, targetType: 'operator', targetId: row?.id ?? null, details: { ip: from.ip, reason } });
    throw new AppError('invalid_credentials', LOGIN_FAILED);
  }
  return deps.database.transaction(async (tx) => {
    await attempt.succeeded(tx);
    const token = await openOperatorSession(tx, row.id);
    await recordOperatorAction(tx, { operatorId: row.id, email: row.email }, { action: 'operator.signed_in', orgId: null, targetType: 'operator', targetId: row.id, details: { ip: from.ip } });
    return { token, operator: toOperator(row) };
  });
}
