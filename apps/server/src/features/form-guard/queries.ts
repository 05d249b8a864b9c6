import { and, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type { TDb } from '../../platform/db/database';
import { formGuardChecks, formGuardCounters } from './tables';

export type TCheckRow = typeof formGuardChecks.$inferSelect;
export type TCheckInsert = typeof formGuardChecks.$inferInsert;

export async function selectCheck(exec: TDb, appId: string, requestId: string): Promise<TCheckRow | null> {
  const rows = await exec
    .select()
    .from(formGuardChecks)
    .where(and(eq(formGuardChecks.appId, appId), eq(formGuardChecks.requestId, requestId)))
    .limit(1);
  return rows[0] ?? null;
}

/** Inserts a check; null when the same (app, request_id) is already stored (a retried or concurrent call). */
export async function insertCheck(exec: TDb, values: TCheckInsert): Promise<TCheckRow | null> {
  const rows = await exec.insert(formGuardChecks).values(values).onConflictDoNothing({ target: [formGuardChecks.appId, formGuardChecks.requestId] }).returning();
  return rows[0] ?? null;
}

export async function setCheckCredits(exec: TDb, id: string, credits: number): Promise<void> {
  await exec.update(formGuardChecks).set({ creditsCharged: credits }).where(eq(formGuardChecks.id, id));
}

export type TCounterKey = { scopeKey: string; window: string; windowStart: number };

/** The current counts of some windows of a guard. */
export async function selectCounts(exec: TDb, appId: string, keys: TCounterKey[]): Promise<number[]> {
  if (keys.length === 0) return [];
  const rows = await exec
    .select()
    .from(formGuardCounters)
    .where(and(eq(formGuardCounters.appId, appId), inArray(formGuardCounters.scopeKey, [...new Set(keys.map((k) => k.scopeKey))])));
  return keys.map((k) => rows.find((r) => r.scopeKey === k.scopeKey && r.window === k.window && r.windowStart === k.windowStart)?.count ?? 0);
}

/** Adds one to a window's counter (inside the charging transaction; the row lock orders concurrent checks) and answers the new count. */
export async function bumpCounter(exec: TDb, appId: string, key: TCounterKey): Promise<number> {
  const rows = await exec
    .insert(formGuardCounters)
    .values({ appId, scopeKey: key.scopeKey, window: key.window, windowStart: key.windowStart, count: 1 })
    .onConflictDoUpdate({
      target: [formGuardCounters.appId, formGuardCounters.scopeKey, formGuardCounters.window, formGuardCounters.windowStart],
      set: { count: sql`${formGuardCounters.count} + 1` },
    })
    .returning({ count: formGuardCounters.count });
  return rows[0]?.count ?? 1;
}

/** Counts per local day (in `timeZone`), app and field type (and refused / billable) of an organisation's checks in [from, to). */
export async function selectUsage(exec: TDb, f: { orgId: string; from: Date; to: Date; timeZone: string; appId?: string; appIds?: string[] }) {
  const conditions = [eq(formGuardChecks.orgId, f.orgId), gte(formGuardChecks.createdAt, f.from), lt(formGuardChecks.createdAt, f.to)];
  if (f.appId) conditions.push(eq(formGuardChecks.appId, f.appId));
  if (f.appIds) conditions.push(f.appIds.length > 0 ? inArray(formGuardChecks.appId, f.appIds) : sql`false`);
  return exec
    .select({
      day: sql<string>`to_char(${formGuardChecks.createdAt} at time zone ${f.timeZone}, 'YYYY-MM-DD')`,
      appId: formGuardChecks.appId,
      type: formGuardChecks.type,
      total: sql<number>`count(*)::int`,
      refused: sql<number>`sum(case when ${formGuardChecks.isAcceptable} = 0 then 1 else 0 end)::int`,
      billable: sql<number>`sum(${formGuardChecks.creditsCharged})::int`,
    })
    .from(formGuardChecks)
    .where(and(...conditions))
    .groupBy(sql`1`, formGuardChecks.appId, formGuardChecks.type);
}
