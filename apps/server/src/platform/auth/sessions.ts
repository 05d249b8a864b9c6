import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { TRole } from '@verilead/contracts';
import { selectRows, type TDb } from '../db/database';
import { memberships, users } from '../tenancy/tables';
import type { TCallerContext } from '../tenancy/context';
import { apiKeys, sessions } from './tables';
import { generateToken, hashToken } from './tokens';

export const SESSION_TTL_MS = 30 * 24 * 3600 * 1000;
export const SESSION_TOKEN_PREFIX = 'vls';
export const API_KEY_PREFIX = 'vlk';

/** Creates a login session and answers its bearer token (shown once, stored hashed). */
export async function createSession(exec: TDb, userId: string): Promise<{ token: string; sessionId: string }> {
  const { token, hash } = generateToken(SESSION_TOKEN_PREFIX);
  const rows = await exec
    .insert(sessions)
    .values({ userId, tokenHash: hash, expiresAt: new Date(Date.now() + SESSION_TTL_MS) })
    .returning({ id: sessions.id });
  return { token, sessionId: rows[0]!.id };
}

export async function revokeSession(exec: TDb, sessionId: string): Promise<void> {
  await exec.update(sessions).set({ revokedAt: new Date() }).where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

/** Revokes every session of a user, except `keepSessionId` when given. */
export async function revokeUserSessions(exec: TDb, userId: string, keepSessionId?: string | null): Promise<void> {
  const conditions = [eq(sessions.userId, userId), isNull(sessions.revokedAt)];
  if (keepSessionId) conditions.push(ne(sessions.id, keepSessionId));
  await exec.update(sessions).set({ revokedAt: new Date() }).where(and(...conditions));
}

/** Resolves a bearer token (session token or API key) to the caller, or null when unknown, revoked or inactive. */
export async function resolveBearer(exec: TDb, token: string): Promise<TCallerContext | null> {
  const hash = hashToken(token);
  if (token.startsWith(`${API_KEY_PREFIX}_`)) {
    const rows = await exec
      .select({ userId: apiKeys.userId, orgId: memberships.orgId, role: memberships.role })
      .from(apiKeys)
      .innerJoin(users, eq(users.id, apiKeys.userId))
      .innerJoin(memberships, and(eq(memberships.userId, apiKeys.userId), eq(memberships.orgId, apiKeys.orgId)))
      .where(and(eq(apiKeys.keyHash, hash), isNull(users.deletedAt), eq(memberships.status, 'active')))
      .limit(1);
    const row = rows[0];
    return row ? { userId: row.userId, orgId: row.orgId, role: row.role, sessionId: null, via: 'api_key' } : null;
  }
  // Raw SQL: this runs on every authenticated request, and the query builder costs more than the query on PGlite.
  const rows = await selectRows<{ sessionId: string; userId: string; orgId: string; role: string }>(
    exec,
    sql`select s.id as "sessionId", s.user_id as "userId", m.org_id as "orgId", m.role as "role"
        from sessions s
        join users u on u.id = s.user_id
        join memberships m on m.user_id = s.user_id
        where s.token_hash = ${hash} and s.revoked_at is null and s.expires_at > now()
          and u.deleted_at is null and m.status = 'active'
        limit 1`,
  );
  const row = rows[0];
  return row ? { userId: row.userId, orgId: row.orgId, role: row.role as TRole, sessionId: row.sessionId, via: 'session' } : null;
}
