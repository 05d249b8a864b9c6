import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { TRole } from '@verilead/contracts';
import { selectRows, type TDb } from '../db/database';
import { memberships, organisations, users } from '../tenancy/tables';
import { apiKeys, sessions } from './tables';

/** Whether the user is suspended, and whether any of their organisations is (no row for an unknown user). */
export async function selectSuspensionFlags(exec: TDb, userId: string): Promise<{ user_suspended: boolean; org_suspended: boolean } | undefined> {
  const rows = await selectRows<{ user_suspended: boolean; org_suspended: boolean }>(
    exec,
    sql`select u.suspended_at is not null as user_suspended, coalesce(bool_or(o.suspended_at is not null), false) as org_suspended
        from users u left join memberships m on m.user_id = u.id left join organisations o on o.id = m.org_id
        where u.id = ${userId} group by u.id`,
  );
  return rows[0];
}

export async function insertSession(exec: TDb, row: { userId: string; tokenHash: string; expiresAt: Date }): Promise<string> {
  const rows = await exec.insert(sessions).values(row).returning({ id: sessions.id });
  return rows[0]!.id;
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

/** The active member an API key (by its hash) acts as, if the key, user, membership and organisation are all usable. */
export async function selectApiKeyCaller(exec: TDb, keyHash: string): Promise<{ userId: string; orgId: string; role: TRole } | undefined> {
  const rows = await exec
    .select({ userId: apiKeys.userId, orgId: memberships.orgId, role: memberships.role })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .innerJoin(memberships, and(eq(memberships.userId, apiKeys.userId), eq(memberships.orgId, apiKeys.orgId)))
    .innerJoin(organisations, eq(organisations.id, memberships.orgId))
    .where(and(eq(apiKeys.keyHash, keyHash), isNull(users.deletedAt), isNull(users.suspendedAt), isNull(organisations.suspendedAt), eq(memberships.status, 'active')))
    .limit(1);
  return rows[0];
}

/** The active member a live session (by its token's hash) belongs to. */
export async function selectSessionCaller(exec: TDb, tokenHash: string): Promise<{ sessionId: string; userId: string; orgId: string; role: string } | undefined> {
  // Raw SQL: this runs on every authenticated request, and the query builder costs more than the query on PGlite.
  const rows = await selectRows<{ sessionId: string; userId: string; orgId: string; role: string }>(
    exec,
    sql`select s.id as "sessionId", s.user_id as "userId", m.org_id as "orgId", m.role as "role"
        from sessions s
        join users u on u.id = s.user_id
        join memberships m on m.user_id = s.user_id
        join organisations o on o.id = m.org_id
        where s.token_hash = ${tokenHash} and s.revoked_at is null and s.expires_at > now()
          and u.deleted_at is null and u.suspended_at is null and o.suspended_at is null and m.status = 'active'
        limit 1`,
  );
  return rows[0];
}

export type TRefusedBearer = { status: string; user_suspended: boolean; org_suspended: boolean };

/** Why an API key (by its hash) was refused: its member's status and suspensions, whatever they are. */
export async function selectRefusedApiKey(exec: TDb, keyHash: string): Promise<TRefusedBearer | undefined> {
  const rows = await selectRows<TRefusedBearer>(
    exec,
    sql`select m.status, u.suspended_at is not null as user_suspended, o.suspended_at is not null as org_suspended
        from api_keys k join users u on u.id = k.user_id
        join memberships m on m.user_id = k.user_id and m.org_id = k.org_id join organisations o on o.id = m.org_id
        where k.key_hash = ${keyHash} and u.deleted_at is null limit 1`,
  );
  return rows[0];
}

/** Why a live session (by its token's hash) was refused: its member's status and suspensions, whatever they are. */
export async function selectRefusedSession(exec: TDb, tokenHash: string): Promise<TRefusedBearer | undefined> {
  const rows = await selectRows<TRefusedBearer>(
    exec,
    sql`select m.status, u.suspended_at is not null as user_suspended, o.suspended_at is not null as org_suspended
        from sessions s join users u on u.id = s.user_id join memberships m on m.user_id = s.user_id join organisations o on o.id = m.org_id
        where s.token_hash = ${tokenHash} and s.revoked_at is null and s.expires_at > now() and u.deleted_at is null limit 1`,
  );
  return rows[0];
}
