import { and, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { TMemberStatus, TRole } from '@verilead/contracts';
import { invalidateCallers } from '../../platform/cache/ttl-cache';
import { selectRows, type TDb } from '../../platform/db/database';
import { sqlMemberDaily } from '../../platform/credits/ledger';
import { memberships, organisations, users } from '../../platform/tenancy/tables';
import { orgDefaultSettings, seatRequests, teamMembers, teams } from './tables';

export type TMemberRow = {
  user_id: string;
  name: string;
  email: string;
  role: string;
  status: string;
  has_password: boolean;
  team_id: string | null;
  team_name: string | null;
  daily_cap: number | null;
  daily_used: number;
  daily_next: number | null;
  daily_next_from: string | null;
  daily_cap_today: boolean;
  life_time_limit: number | null;
  life_time_used: number;
  added_on: string | Date;
  last_login_on: string | Date | null;
};

export type TMemberFilter = {
  orgId: string;
  day: SQL;
  role?: string;
  status?: string;
  search?: string;
  teamId?: string;
  userIds?: string[];
};

// The daily SQL of the ledger refers to "memberships"."col", so these queries use the table unaliased.
function memberWhere(f: TMemberFilter): SQL {
  const parts: SQL[] = [sql`memberships.org_id = ${f.orgId}`, sql`u.deleted_at is null`];
  if (f.role) parts.push(sql`memberships.role = ${f.role}`);
  if (f.status) parts.push(sql`memberships.status = ${f.status}`);
  if (f.teamId) parts.push(sql`tm.team_id = ${f.teamId}`);
  if (f.search) {
    const like = `%${f.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    parts.push(sql`(u.name ilike ${like} or u.email ilike ${like})`);
  }
  if (f.userIds) {
    parts.push(
      f.userIds.length === 0
        ? sql`false`
        : sql`memberships.user_id in (${sql.join(
            f.userIds.map((id) => sql`${id}::uuid`),
            sql`, `,
          )})`,
    );
  }
  return sql.join(parts, sql` and `);
}

const MEMBER_FROM = sql`from memberships
        join users u on u.id = memberships.user_id
        left join team_members tm on tm.user_id = memberships.user_id and tm.org_id = memberships.org_id
        left join teams t on t.id = tm.team_id`;

/** Members of an organisation with their team, the daily figures of `day` and the last login; owner first, then newest. */
export async function selectMembers(exec: TDb, f: TMemberFilter, page?: { offset: number; limit: number }): Promise<TMemberRow[]> {
  const { usedOn, capOn } = sqlMemberDaily(f.day);
  const paging = page ? sql`limit ${page.limit} offset ${page.offset}` : sql``;
  return selectRows<TMemberRow>(
    exec,
    sql`select memberships.user_id, u.name, u.email, memberships.role, memberships.status,
               (u.password_hash is not null) as has_password, tm.team_id, t.name as team_name,
               ${capOn} as daily_cap, (${usedOn})::int as daily_used,
               (case when memberships.daily_limit_next_from > ${f.day} then memberships.daily_limit_next end) as daily_next,
               (case when memberships.daily_limit_next_from > ${f.day} then to_char(memberships.daily_limit_next_from, 'YYYY-MM-DD') end) as daily_next_from,
               coalesce(memberships.daily_cap_on = ${f.day}, false) as daily_cap_today,
               memberships.life_time_limit, memberships.life_time_used,
               memberships.created_at as added_on,
               (select max(s.created_at) from sessions s where s.user_id = memberships.user_id) as last_login_on
        ${MEMBER_FROM}
        where ${memberWhere(f)}
        order by (memberships.role = 'owner') desc, memberships.created_at desc, memberships.user_id
        ${paging}`,
  );
}

export async function countMembers(exec: TDb, f: TMemberFilter): Promise<number> {
  const rows = await selectRows<{ n: number }>(exec, sql`select count(*)::int as n ${MEMBER_FROM} where ${memberWhere(f)}`);
  return rows[0]?.n ?? 0;
}

/** Members per role that are not removed. */
export async function countMembersByRole(exec: TDb, orgId: string): Promise<Record<string, number>> {
  const rows = await selectRows<{ role: string; n: number }>(
    exec,
    sql`select m.role, count(*)::int as n from memberships m join users u on u.id = m.user_id
        where m.org_id = ${orgId} and m.status <> 'removed' and u.deleted_at is null group by m.role`,
  );
  return Object.fromEntries(rows.map((r) => [r.role, r.n]));
}

/** Locks the organisation row (serialises seat checks) and answers its seat limit. */
export async function lockOrgSeatLimit(exec: TDb, orgId: string): Promise<number | null> {
  const rows = await selectRows<{ user_create_limit: number }>(exec, sql`select user_create_limit from organisations where id = ${orgId} for update`);
  return rows[0]?.user_create_limit ?? null;
}

/** The membership of `userId` in `orgId` (null when none: another organisation's id). */
export async function selectOrgMembership(exec: TDb, orgId: string, userId: string) {
  const rows = await exec
    .select({ role: memberships.role, status: memberships.status, email: users.email })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.orgId, orgId), eq(memberships.userId, userId), sql`${users.deletedAt} is null`))
    .limit(1);
  return rows[0] ?? null;
}

export async function selectOrgMemberships(exec: TDb, orgId: string, userIds: string[]) {
  if (userIds.length === 0) return [];
  return exec
    .select({ userId: memberships.userId, role: memberships.role, status: memberships.status })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.orgId, orgId), inArray(memberships.userId, userIds), sql`${users.deletedAt} is null`));
}

export async function updateMemberStatus(exec: TDb, orgId: string, userIds: string[], status: TMemberStatus): Promise<string[]> {
  if (userIds.length === 0) return [];
  const rows = await exec
    .update(memberships)
    .set({ status })
    .where(and(eq(memberships.orgId, orgId), inArray(memberships.userId, userIds), ne(memberships.role, 'owner')))
    .returning({ userId: memberships.userId });
  for (const r of rows) invalidateCallers({ orgId, userId: r.userId });
  return rows.map((r) => r.userId);
}

export async function updateMemberRole(exec: TDb, orgId: string, userId: string, role: TRole) {
  await exec.update(memberships).set({ role }).where(and(eq(memberships.orgId, orgId), eq(memberships.userId, userId), ne(memberships.role, 'owner')));
  invalidateCallers({ orgId, userId });
}

export async function updateUserName(exec: TDb, userId: string, name: string) {
  await exec.update(users).set({ name }).where(eq(users.id, userId));
}

/** Brings a daily-limit change whose day has come into the current limit. */
export async function foldDueDailyLimit(exec: TDb, orgId: string, userId: string, day: SQL) {
  await exec.execute(
    sql`update memberships set daily_limit = daily_limit_next, daily_limit_next = null, daily_limit_next_from = null
        where org_id = ${orgId} and user_id = ${userId} and daily_limit_next_from is not null and daily_limit_next_from <= ${day}`,
  );
}

/** Schedules a daily limit for the next day (or cancels the schedule when it equals the current limit). */
export async function scheduleDailyLimit(exec: TDb, orgId: string, userId: string, limit: number | null, day: SQL) {
  await exec.execute(
    sql`update memberships set
          daily_limit_next = case when daily_limit is not distinct from ${limit}::int then null else ${limit}::int end,
          daily_limit_next_from = case when daily_limit is not distinct from ${limit}::int then null else (${day} + 1) end
        where org_id = ${orgId} and user_id = ${userId}`,
  );
  invalidateCallers({ orgId, userId });
}

/** Sets today's remaining allowance at once: today's cap becomes today's usage plus `remaining`. */
export async function setDailyRemaining(exec: TDb, orgId: string, userId: string, remaining: number, day: SQL) {
  const { usedOn } = sqlMemberDaily(day);
  await exec.execute(
    sql`update memberships set daily_cap = ${usedOn} + ${remaining}::int, daily_cap_on = ${day}
        where memberships.org_id = ${orgId} and memberships.user_id = ${userId}`,
  );
  invalidateCallers({ orgId, userId });
}

/** Sets limits in force at once (a new member): daily and life-time. */
export async function setInitialLimits(exec: TDb, orgId: string, userId: string, limits: { daily?: number | null; lifeTime?: number | null }) {
  const set: Partial<typeof memberships.$inferInsert> = {};
  if (limits.daily !== undefined) set.dailyLimit = limits.daily;
  if (limits.lifeTime !== undefined) set.lifeTimeLimit = limits.lifeTime;
  if (Object.keys(set).length === 0) return;
  await exec.update(memberships).set(set).where(and(eq(memberships.orgId, orgId), eq(memberships.userId, userId)));
  invalidateCallers({ orgId, userId });
}

export async function setLifeTimeLimit(exec: TDb, orgId: string, userId: string, limit: number | null) {
  await exec.update(memberships).set({ lifeTimeLimit: limit }).where(and(eq(memberships.orgId, orgId), eq(memberships.userId, userId)));
  invalidateCallers({ orgId, userId });
}

// ---------- teams ----------

export async function selectTeam(exec: TDb, orgId: string, teamId: string) {
  const rows = await selectRows<{ id: string; name: string; member_count: number; created_on: string | Date }>(
    exec,
    sql`select t.id, t.name, t.created_at as created_on,
               (select count(*)::int from team_members tm join memberships m on m.user_id = tm.user_id and m.org_id = tm.org_id
                where tm.team_id = t.id and m.status <> 'removed') as member_count
        from teams t where t.org_id = ${orgId} and t.id = ${teamId} limit 1`,
  );
  return rows[0] ?? null;
}

export async function selectTeams(exec: TDb, orgId: string, f: { search?: string; offset: number; limit: number }) {
  const search = f.search ? sql`and t.name ilike ${`%${f.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}` : sql``;
  const items = await selectRows<{ id: string; name: string; member_count: number; created_on: string | Date }>(
    exec,
    sql`select t.id, t.name, t.created_at as created_on,
               (select count(*)::int from team_members tm join memberships m on m.user_id = tm.user_id and m.org_id = tm.org_id
                where tm.team_id = t.id and m.status <> 'removed') as member_count
        from teams t where t.org_id = ${orgId} ${search}
        order by lower(t.name), t.id limit ${f.limit} offset ${f.offset}`,
  );
  const total = await selectRows<{ n: number }>(exec, sql`select count(*)::int as n from teams t where t.org_id = ${orgId} ${search}`);
  return { items, total: total[0]?.n ?? 0 };
}

export async function selectTeamIdByName(exec: TDb, orgId: string, name: string, exceptId?: string): Promise<string | null> {
  const rows = await selectRows<{ id: string }>(
    exec,
    sql`select id from teams where org_id = ${orgId} and lower(name) = lower(${name}) ${exceptId ? sql`and id <> ${exceptId}` : sql``} limit 1`,
  );
  return rows[0]?.id ?? null;
}

export async function insertTeam(exec: TDb, values: { orgId: string; name: string; createdBy: string }) {
  const rows = await exec.insert(teams).values(values).returning({ id: teams.id });
  return rows[0]!.id;
}

export async function renameTeam(exec: TDb, orgId: string, teamId: string, name: string) {
  await exec.update(teams).set({ name }).where(and(eq(teams.orgId, orgId), eq(teams.id, teamId)));
}

/** Puts members in a team, moving them out of any other team. */
export async function putTeamMembers(exec: TDb, orgId: string, teamId: string, userIds: string[]) {
  if (userIds.length === 0) return;
  await exec.delete(teamMembers).where(and(eq(teamMembers.orgId, orgId), inArray(teamMembers.userId, userIds)));
  await exec.insert(teamMembers).values(userIds.map((userId) => ({ orgId, teamId, userId })));
}

export async function deleteTeamMembers(exec: TDb, orgId: string, userIds: string[], teamId?: string) {
  if (userIds.length === 0) return;
  const conditions = [eq(teamMembers.orgId, orgId), inArray(teamMembers.userId, userIds)];
  if (teamId) conditions.push(eq(teamMembers.teamId, teamId));
  await exec.delete(teamMembers).where(and(...conditions));
}

// ---------- seat requests ----------

export async function insertSeatRequest(exec: TDb, values: { orgId: string; userId: string; seatCount: number; reason: string }) {
  const rows = await exec.insert(seatRequests).values(values).returning();
  return rows[0]!;
}

// ---------- organisation ----------

export async function updateOrganisation(exec: TDb, orgId: string, set: { name?: string; websiteUrl?: string | null; tel?: string | null }) {
  await exec.update(organisations).set(set).where(eq(organisations.id, orgId));
}

export async function selectOrgDefaults(exec: TDb, orgId: string) {
  const rows = await exec.select().from(orgDefaultSettings).where(eq(orgDefaultSettings.orgId, orgId)).limit(1);
  return rows[0] ?? null;
}

export async function upsertOrgDefaults(exec: TDb, orgId: string, section: 'ev' | 'ef' | 'prospect', value: Record<string, unknown>, userId: string) {
  await exec
    .insert(orgDefaultSettings)
    .values({ orgId, [section]: value, updatedBy: userId })
    .onConflictDoUpdate({ target: orgDefaultSettings.orgId, set: { [section]: value, updatedBy: userId, updatedAt: new Date() } });
  invalidateCallers({ orgId });
}
