import type { TRole } from '@verilead/contracts';
import type { TDb } from '../db/database';
import type { TCallerContext } from '../tenancy/context';
import { AppError } from '../errors/app-error';
import { insertSession, selectApiKeyCaller, selectSessionCaller, selectSuspensionFlags } from './session-queries';
import { generateToken, hashToken } from './tokens';

export { revokeSession, revokeUserSessions } from './session-queries';

export const SESSION_TTL_MS = 30 * 24 * 3600 * 1000;
export const SESSION_TOKEN_PREFIX = 'vls';
export const API_KEY_PREFIX = 'vlk';

export const USER_SUSPENDED_MESSAGE = 'Your account is suspended by Verilead support. Please contact support to restore it.';
export const ORG_SUSPENDED_MESSAGE = 'Your organisation is suspended by Verilead support. Please contact support to restore it.';

/** Why a user may not have a session now (suspended by an operator, or their organisation), or null. */
export async function findSuspension(exec: TDb, userId: string): Promise<string | null> {
  const row = await selectSuspensionFlags(exec, userId);
  if (row?.user_suspended) return USER_SUSPENDED_MESSAGE;
  if (row?.org_suspended) return ORG_SUSPENDED_MESSAGE;
  return null;
}

/**
 * Creates a login session and answers its bearer token (shown once, stored hashed). Every way of signing in ends
 * here, so a user suspended by an operator (or of a suspended organisation) is refused here, with the reason.
 */
export async function createSession(exec: TDb, userId: string): Promise<{ token: string; sessionId: string }> {
  const suspension = await findSuspension(exec, userId);
  if (suspension) throw new AppError('account_suspended', suspension);
  const { token, hash } = generateToken(SESSION_TOKEN_PREFIX);
  const sessionId = await insertSession(exec, { userId, tokenHash: hash, expiresAt: new Date(Date.now() + SESSION_TTL_MS) });
  return { token, sessionId };
}

/** Resolves a bearer token (session token or API key) to the caller, or null when unknown, revoked or inactive. */
export async function resolveBearer(exec: TDb, token: string): Promise<TCallerContext | null> {
  const hash = hashToken(token);
  if (token.startsWith(`${API_KEY_PREFIX}_`)) {
    const row = await selectApiKeyCaller(exec, hash);
    return row ? { userId: row.userId, orgId: row.orgId, role: row.role, sessionId: null, via: 'api_key' } : null;
  }
  const row = await selectSessionCaller(exec, hash);
  return row ? { userId: row.userId, orgId: row.orgId, role: row.role as TRole, sessionId: row.sessionId, via: 'session' } : null;
}
