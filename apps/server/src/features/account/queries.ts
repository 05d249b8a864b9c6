import { and, desc, eq, ne, sql } from 'drizzle-orm';
import { invalidateCallers } from '../../platform/cache/ttl-cache';
import type { TDb } from '../../platform/db/database';
import { apiKeys } from '../../platform/auth/tables';
import { memberships, organisations, users } from '../../platform/tenancy/tables';
import { upgradeRequests } from './tables';

export async function selectUserWithOrg(exec: TDb, orgId: string, userId: string) {
  const rows = await exec
    .select({ user: users, membership: memberships, org: organisations })
    .from(users)
    .innerJoin(memberships, eq(memberships.userId, users.id))
    .innerJoin(organisations, eq(organisations.id, memberships.orgId))
    .where(and(eq(users.id, userId), eq(memberships.orgId, orgId)))
    .limit(1);
  return rows[0] ?? null;
}

/** Everything the profile needs in one round trip (PGlite is one session, so round trips count). */
export async function selectProfileRow(exec: TDb, orgId: string, userId: string) {
  const rows = await exec
    .select({
      user: users,
      membership: memberships,
      org: organisations,
      hasApiKey: sql<boolean>`exists (select 1 from ${apiKeys} where ${apiKeys.userId} = ${users.id})`,
      pendingUpgrade: sql<{ id: string; target_plan: string; created_at: string } | null>`(
        select json_build_object('id', u.id, 'target_plan', u.target_plan, 'created_at', u.created_at)
        from ${upgradeRequests} u where u.org_id = ${organisations.id} and u.status = 'requested'
        order by u.created_at desc limit 1)`,
      announcementTs: sql<number>`coalesce((select case when a.message is null then 0 else a.timestamp end from announcements a where a.id = 1), 0)::float8`,
    })
    .from(users)
    .innerJoin(memberships, eq(memberships.userId, users.id))
    .innerJoin(organisations, eq(organisations.id, memberships.orgId))
    .where(and(eq(users.id, userId), eq(memberships.orgId, orgId)))
    .limit(1);
  return rows[0] ?? null;
}

export async function selectUserById(exec: TDb, userId: string) {
  const rows = await exec.select().from(users).where(eq(users.id, userId)).limit(1);
  return rows[0] ?? null;
}

export async function selectUserByEmail(exec: TDb, email: string) {
  const rows = await exec.select().from(users).where(eq(users.email, email)).limit(1);
  return rows[0] ?? null;
}

export async function updateUser(exec: TDb, userId: string, values: Partial<typeof users.$inferInsert>) {
  await exec.update(users).set(values).where(eq(users.id, userId));
}

export async function updateOrg(exec: TDb, orgId: string, values: Partial<typeof organisations.$inferInsert>) {
  await exec.update(organisations).set(values).where(eq(organisations.id, orgId));
}

export async function selectApiKey(exec: TDb, userId: string) {
  const rows = await exec.select().from(apiKeys).where(eq(apiKeys.userId, userId)).limit(1);
  return rows[0] ?? null;
}

export async function upsertApiKey(exec: TDb, values: { userId: string; orgId: string; keyHash: string; prefix: string }) {
  const rows = await exec
    .insert(apiKeys)
    .values(values)
    .onConflictDoUpdate({ target: apiKeys.userId, set: { keyHash: values.keyHash, prefix: values.prefix, orgId: values.orgId, createdAt: new Date() } })
    .returning();
  return rows[0]!;
}

export async function deleteApiKey(exec: TDb, userId: string) {
  await exec.delete(apiKeys).where(eq(apiKeys.userId, userId));
}

export async function insertUpgradeRequest(exec: TDb, values: typeof upgradeRequests.$inferInsert) {
  const rows = await exec.insert(upgradeRequests).values(values).returning();
  return rows[0]!;
}

export async function selectPendingUpgrade(exec: TDb, orgId: string) {
  const rows = await exec
    .select()
    .from(upgradeRequests)
    .where(and(eq(upgradeRequests.orgId, orgId), eq(upgradeRequests.status, 'requested')))
    .orderBy(desc(upgradeRequests.createdAt))
    .limit(1);
  return rows[0] ?? null;
}

export async function countOtherActiveMembers(exec: TDb, orgId: string, userId: string): Promise<number> {
  const rows = await exec
    .select({ n: sql<number>`count(*)::int` })
    .from(memberships)
    .where(and(eq(memberships.orgId, orgId), ne(memberships.userId, userId), eq(memberships.status, 'active')));
  return rows[0]?.n ?? 0;
}

export async function updateMembershipStatus(exec: TDb, orgId: string, userId: string, status: 'active' | 'inactive' | 'removed') {
  await exec.update(memberships).set({ status }).where(and(eq(memberships.orgId, orgId), eq(memberships.userId, userId)));
  invalidateCallers({ orgId, userId });
}
