import { and, asc, count, desc, eq, gt, gte, ilike, inArray, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { TFinderStatus } from '@verilead/contracts';
import { selectChunkStarts } from '../../platform/bulk/row-chunks';
import { createListStore, likePattern } from '../../platform/bulk-lists/list-store';
import { storeRowResults, type TRowResult } from '../../platform/bulk-lists/row-result-queries';
import { selectRows, type TDb } from '../../platform/db/database';
import type { TVisibleScope } from '../../platform/tenancy/context';
import { finderDomainPatterns, finderInstant, finderListRows, finderLists, type TFinderCounters } from './tables';

export type TFinderListRow = typeof finderLists.$inferSelect;
export type TFinderListInsert = typeof finderLists.$inferInsert;
export type TFinderRowInsert = typeof finderListRows.$inferInsert;
export type TInstantRow = typeof finderInstant.$inferSelect;

/** The finder's lists on the bulk-list kernel: by id, scoped, locked, moved between states, paged. */
export const finderListStore = createListStore<TFinderListRow, TFinderListInsert>(finderLists);

export const EMPTY_FINDER_COUNTERS: TFinderCounters = { processed: 0, found: 0, not_found: 0, business: 0, role: 0, catch_all: 0, confidence_sum: 0, billable: 0 };

// ---------- instant ----------

export async function insertInstant(exec: TDb, row: typeof finderInstant.$inferInsert): Promise<TInstantRow> {
  return (await exec.insert(finderInstant).values(row).returning())[0]!;
}

export async function selectInstant(exec: TDb, scope: TVisibleScope, id: string): Promise<TInstantRow | null> {
  const rows = await exec.select().from(finderInstant).where(and(eq(finderInstant.id, id), eq(finderInstant.orgId, scope.orgId), scope.userId ? eq(finderInstant.userId, scope.userId) : undefined)).limit(1);
  return rows[0] ?? null;
}

export async function selectInstantById(exec: TDb, id: string): Promise<TInstantRow | null> {
  const rows = await exec.select().from(finderInstant).where(eq(finderInstant.id, id)).limit(1);
  return rows[0] ?? null;
}

/** Completes a search once: answers the row when this call moved it to completed/failed, null when it was already done. */
export async function completeInstant(exec: TDb, id: string, values: Partial<typeof finderInstant.$inferInsert>): Promise<TInstantRow | null> {
  const rows = await exec
    .update(finderInstant)
    .set({ ...values, completedAt: new Date() })
    .where(and(eq(finderInstant.id, id), or(eq(finderInstant.state, 'queued'), eq(finderInstant.state, 'running'))))
    .returning();
  return rows[0] ?? null;
}

/**
 * Whether the organisation already paid for finding `email` with the quick finder (another instant row charged for
 * it). Takes a transaction-scoped lock on (organisation, address) first, so two finds of the same person at once are
 * decided one after the other and charge once.
 */
export async function hasPaidInstantFind(tx: TDb, orgId: string, email: string, exceptId: string): Promise<boolean> {
  const key = `${orgId}:finder_instant:${email.toLowerCase()}`;
  await selectRows(tx, sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0)) is null as locked`);
  const rows = await selectRows<{ one: number }>(
    tx,
    sql`select 1 as one from finder_instant where org_id = ${orgId} and lower(email) = ${email.toLowerCase()} and credits_charged > 0 and id <> ${exceptId} limit 1`,
  );
  return rows.length > 0;
}

export async function updateInstant(exec: TDb, id: string, values: Partial<typeof finderInstant.$inferInsert>): Promise<void> {
  await exec.update(finderInstant).set(values).where(eq(finderInstant.id, id));
}

export type THistoryFilter = { orgId: string; userId?: string; search?: string; status?: TFinderStatus; from?: Date; to?: Date };

function historyWhere(f: THistoryFilter): SQL {
  const conds: (SQL | undefined)[] = [eq(finderInstant.orgId, f.orgId), eq(finderInstant.state, 'completed')];
  if (f.userId) conds.push(eq(finderInstant.userId, f.userId));
  if (f.status) conds.push(eq(finderInstant.status, f.status));
  if (f.from) conds.push(gte(finderInstant.createdAt, f.from));
  if (f.to) conds.push(lte(finderInstant.createdAt, f.to));
  if (f.search) {
    const like = likePattern(f.search);
    conds.push(or(ilike(finderInstant.email, like), ilike(finderInstant.fullName, like), ilike(finderInstant.domain, like)));
  }
  return and(...conds)!;
}

export async function selectHistory(exec: TDb, f: THistoryFilter, offset: number, limit: number): Promise<{ rows: TInstantRow[]; total: number }> {
  const where = historyWhere(f);
  const [rows, totals] = await Promise.all([
    exec.select().from(finderInstant).where(where).orderBy(desc(finderInstant.createdAt), desc(finderInstant.id)).offset(offset).limit(limit),
    exec.select({ n: count() }).from(finderInstant).where(where),
  ]);
  return { rows, total: Number(totals[0]?.n ?? 0) };
}

// ---------- list rows ----------

/** Every row of a list (an analysis that starts over, or fails). */
export async function deleteListRows(exec: TDb, listId: string): Promise<void> {
  await exec.delete(finderListRows).where(eq(finderListRows.listId, listId));
}

export async function insertListRows(exec: TDb, rows: TFinderRowInsert[]): Promise<void> {
  if (rows.length > 0) await exec.insert(finderListRows).values(rows).onConflictDoNothing();
}

/** The first row of each of these people already stored in a list (pending first occurrences), by person key. */
export async function selectFirstRowsOfPeople(exec: TDb, listId: string, personKeys: string[]): Promise<Map<string, number>> {
  if (personKeys.length === 0) return new Map();
  const rows = await exec
    .select({ personKey: finderListRows.personKey, rowNumber: sql<number>`min(${finderListRows.rowNumber})` })
    .from(finderListRows)
    .where(and(eq(finderListRows.listId, listId), isNull(finderListRows.status), inArray(finderListRows.personKey, personKeys)))
    .groupBy(finderListRows.personKey);
  return new Map(rows.map((r) => [r.personKey!, Number(r.rowNumber)]));
}

/** Searchable rows without a result after `afterRow` (and up to `toRow` when given: one chunk's range), in row order. */
export async function selectPendingRows(exec: TDb, listId: string, afterRow: number, limit: number, toRow: number | null = null) {
  return exec
    .select({ rowNumber: finderListRows.rowNumber, firstName: finderListRows.firstName, middleName: finderListRows.middleName, lastName: finderListRows.lastName, domain: finderListRows.domain })
    .from(finderListRows)
    .where(
      and(
        eq(finderListRows.listId, listId),
        gt(finderListRows.rowNumber, afterRow),
        toRow === null ? undefined : lte(finderListRows.rowNumber, toRow),
        isNull(finderListRows.status),
        isNull(finderListRows.skipReason),
      ),
    )
    .orderBy(asc(finderListRows.rowNumber))
    .limit(limit);
}

/** The first row number of every chunk of `chunkSize` pending searchable rows: the chunk plan of a list. */
export async function selectFinderChunkStarts(exec: TDb, listId: string, chunkSize: number): Promise<number[]> {
  return selectChunkStarts(exec, { table: finderListRows, rowNumber: finderListRows.rowNumber, pending: pendingRows(listId) }, chunkSize);
}

/** A list's rows still to search: no result and not skipped. */
function pendingRows(listId: string) {
  return and(eq(finderListRows.listId, listId), isNull(finderListRows.status), isNull(finderListRows.skipReason));
}

export async function countPendingRows(exec: TDb, listId: string): Promise<number> {
  const rows = await exec
    .select({ n: count() })
    .from(finderListRows)
    .where(pendingRows(listId));
  return Number(rows[0]?.n ?? 0);
}

/** Stores results on rows that have none yet; answers the row numbers stored by this call (the others were stored before). */
export function storeFinderResults(exec: TDb, listId: string, items: TRowResult[]): Promise<Set<number>> {
  return storeRowResults(exec, { table: finderListRows }, listId, items);
}

/** The stored results of some rows of a list (the first rows duplicates point at). */
export async function selectRowResults(exec: TDb, listId: string, rowNumbers: number[]) {
  if (rowNumbers.length === 0) return [];
  return exec
    .select({ rowNumber: finderListRows.rowNumber, result: finderListRows.result })
    .from(finderListRows)
    .where(and(eq(finderListRows.listId, listId), inArray(finderListRows.rowNumber, rowNumbers)));
}

export async function selectRowsPage(exec: TDb, listId: string, afterRow: number, limit: number) {
  return exec
    .select()
    .from(finderListRows)
    .where(and(eq(finderListRows.listId, listId), gt(finderListRows.rowNumber, afterRow)))
    .orderBy(asc(finderListRows.rowNumber))
    .limit(limit);
}

// ---------- domain patterns (installation-wide counts, no personal data) ----------

export async function selectDomainPatterns(exec: TDb, domain: string): Promise<Record<string, number>> {
  const rows = await exec.select().from(finderDomainPatterns).where(eq(finderDomainPatterns.domain, domain));
  return Object.fromEntries(rows.map((r) => [r.pattern, r.validCount]));
}

export async function incrementDomainPatterns(exec: TDb, items: { domain: string; pattern: string }[]): Promise<void> {
  for (const i of items) {
    await exec
      .insert(finderDomainPatterns)
      .values({ domain: i.domain, pattern: i.pattern, validCount: 1 })
      .onConflictDoUpdate({
        target: [finderDomainPatterns.domain, finderDomainPatterns.pattern],
        set: { validCount: sql`${finderDomainPatterns.validCount} + 1`, updatedAt: new Date() },
      });
  }
}

/** Result counts of finder lists finished (or last changed) and instant searches made in [from, to), for analytics. */
export async function selectFinderSummary(exec: TDb, f: { orgId: string; userIds?: string[]; from: Date; to: Date }) {
  const none = ['00000000-0000-0000-0000-000000000000'];
  const listUsers = f.userIds ? sql`and ${inArray(finderLists.userId, f.userIds.length ? f.userIds : none)}` : sql``;
  const instantUsers = f.userIds ? sql`and ${inArray(finderInstant.userId, f.userIds.length ? f.userIds : none)}` : sql``;
  const c = (key: string) => sql`coalesce(sum((${finderLists.counters}->>${key})::numeric), 0)::float8`;
  const lists = await selectRows<Record<string, number>>(
    exec,
    sql`select ${c('processed')} as total, ${c('found')} as found, ${c('not_found')} as not_found, ${c('business')} as business, ${c('role')} as role,
               ${c('confidence_sum')} as confidence_sum, ${c('billable')} as billable
        from ${finderLists}
        where ${finderLists.orgId} = ${f.orgId} ${listUsers}
          and coalesce(${finderLists.processedAt}, ${finderLists.updatedAt}) >= ${f.from.toISOString()}
          and coalesce(${finderLists.processedAt}, ${finderLists.updatedAt}) < ${f.to.toISOString()}`,
  );
  const instant = await selectRows<Record<string, number>>(
    exec,
    sql`select count(*)::int as total,
               count(*) filter (where ${finderInstant.status} = 'found')::int as found,
               count(*) filter (where ${finderInstant.status} is not null and ${finderInstant.status} <> 'found')::int as not_found,
               count(*) filter (where ${finderInstant.status} = 'found' and (${finderInstant.result}->>'business') = 'true')::int as business,
               count(*) filter (where ${finderInstant.status} = 'found' and (${finderInstant.result}->>'role') = 'true')::int as role,
               coalesce(sum((${finderInstant.result}->>'confidence_score')::float8) filter (where ${finderInstant.status} = 'found'), 0)::float8 as confidence_sum,
               count(*) filter (where ${finderInstant.creditsCharged} > 0)::int as billable
        from ${finderInstant}
        where ${finderInstant.orgId} = ${f.orgId} ${instantUsers} and ${finderInstant.state} = 'completed'
          and ${finderInstant.createdAt} >= ${f.from.toISOString()} and ${finderInstant.createdAt} < ${f.to.toISOString()}`,
  );
  return { lists: lists[0] ?? {}, instant: instant[0] ?? {} };
}

/** A member's lists with a job queued or running (being read, or searched), each with whether rows were stored yet. */
export async function selectRunningLists(exec: TDb, who: { orgId: string; userId: string }): Promise<(TFinderListRow & { hasRows: boolean })[]> {
  return exec
    .select({ list: finderLists, hasRows: sql<boolean>`exists (select 1 from ${finderListRows} where ${finderListRows.listId} = ${finderLists.id})` })
    .from(finderLists)
    .where(and(eq(finderLists.orgId, who.orgId), eq(finderLists.userId, who.userId), or(eq(finderLists.activity, 'analyse'), eq(finderLists.state, 'in_progress'))))
    .orderBy(desc(finderLists.updatedAt))
    .limit(200)
    .then((rows) => rows.map((r) => ({ ...r.list, hasRows: Boolean(r.hasRows) })));
}
