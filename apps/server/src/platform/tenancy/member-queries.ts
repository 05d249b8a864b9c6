import { eq, sql } from 'drizzle-orm';
import { selectRows, type TDb } from '../db/database';
import { memberships, organisations, users } from './tables';

/** The user with this e-mail and their membership (null when there is no such user). */
export async function selectUserWithMembership(exec: TDb, email: string) {
  const rows = await exec
    .select({ user: users, membership: memberships })
    .from(users)
    .leftJoin(memberships, eq(memberships.userId, users.id))
    .where(eq(users.email, email))
    .limit(1);
  return rows[0] ?? null;
}

/** Seats in use: members that are not removed, the owner excluded. */
export async function countSeatsUsed(exec: TDb, orgId: string): Promise<number> {
  const rows = await selectRows<{ n: number }>(
    exec,
    sql`select count(*)::int as n from memberships m join users u on u.id = m.user_id
        where m.org_id = ${orgId} and m.status <> 'removed' and m.role <> 'owner' and u.deleted_at is null`,
  );
  return rows[0]?.n ?? 0;
}

export async function selectOrgSeatLimit(exec: TDb, orgId: string): Promise<number> {
  const rows = await exec.select({ limit: organisations.userCreateLimit }).from(organisations).where(eq(organisations.id, orgId)).limit(1);
  return rows[0]?.limit ?? 0;
}
