import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { and, asc, count, desc, eq, gt, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { TInstantSource } from '@verilead/contracts';
import { selectChunkStarts } from '../../platform/bulk/row-chunks';
import { createListStore } from '../../platform/bulk-lists/list-store';
import { storeRowResults, type TRowResult } from '../../platform/bulk-lists/row-result-queries';
import { selectRows, type TDb } from '../../platform/db/database';
import type { TVisibleScope } from '../../platform/tenancy/context';
import { instantVerificationRollups, instantVerifications, verifyListEmails, verifyLists, type TListCounters } from './tables';

export type TListRow = typeof verifyLists.$inferSelect;
export type TListInsert = typeof verifyLists.$inferInsert;
export type TListEmailInsert = typeof verifyListEmails.$inferInsert;
export type TListEmailRow = typeof verifyListEmails.$inferSelect;

/** The verifier's lists on the bulk-list kernel: by id, scoped, locked, moved between states, paged. */
export const verifyListStore = createListStore<TListRow, TListInsert>(verifyLists);

export const EMPTY_COUNTERS: TListCounters = {
  verified: 0,
  valid: 0,
  invalid: 0,
  catch_all: 0,
  unknown: 0,
  disposable: 0,
  gibberish: 0,
  free_account: 0,
  role_account: 0,
  billable: 0,
  safe_to_send: 0,
  valid_score_sum: 0,
};

/** The caller's newest list of the same file name and bytes made within the last `withinHours` hours, if any. */
export async function selectRecentListByContent(
  exec: TDb,
  q: { orgId: string; userId: string; fileName: string; sha256: string; withinHours: number },
) {
  const rows = await exec
    .select()
    .from(verifyLists)
    .where(
      and(
        eq(verifyLists.orgId, q.orgId),
        eq(verifyLists.userId, q.userId),
        eq(verifyLists.fileName, q.fileName),
        eq(verifyLists.contentSha256, q.sha256),
        sql`${verifyLists.createdAt} > now() - make_interval(hours => ${q.withinHours})`,
      ),
    )
    .orderBy(desc(verifyLists.createdAt))
    .limit(1);
  return rows[0] ?? null;
}

/** Names of the organisation's lists that start with `prefix` (case-insensitive): the candidates a new name must avoid. */
export async function selectListNamesStartingWith(exec: TDb, scope: TVisibleScope, prefix: string): Promise<string[]> {
  const rows = await exec
    .select({ name: verifyLists.name })
    .from(verifyLists)
    .where(and(eq(verifyLists.orgId, scope.orgId), sql`left(lower(${verifyLists.name}), ${prefix.length}) = lower(${prefix})`));
  return rows.map((r) => r.name);
}

// ---------- list rows ----------

export async function deleteListEmails(exec: TDb, listId: string): Promise<void> {
  await exec.delete(verifyListEmails).where(eq(verifyListEmails.listId, listId));
}

/**
 * Inserts a batch of analysed rows as they are: `unique` or `syntax_error` (duplicates are marked once the whole file
 * is stored, by markListDuplicates). One statement; rows travel as one JSON parameter, the dedupe key only when it
 * differs from the address.
 */
export async function insertListEmails(exec: TDb, listId: string, rows: { rowNumber: number; email: string; dedupeKey: string; syntaxError: boolean }[]): Promise<void> {
  if (rows.length === 0) return;
  const json = JSON.stringify(rows.map((r) => (r.syntaxError ? { r: r.rowNumber, e: r.email, k: r.dedupeKey, s: 1 } : r.dedupeKey === r.email ? { r: r.rowNumber, e: r.email } : { r: r.rowNumber, e: r.email, k: r.dedupeKey })));
  // The list is locked once for the batch (as a foreign key would for each row): a list deleted meanwhile gets no rows.
  await exec.execute(
    sql`with l as (select id from verify_lists where id = ${listId}::uuid for key share)
        insert into verify_list_emails (list_id, row_number, email, dedupe_key, kind)
        select l.id, x.r, x.e, coalesce(x.k, x.e), case when x.s = 1 then 'syntax_error' else 'unique' end
        from l, json_to_recordset(${json}::json) as x(r int, e text, k text, s int)`,
  );
}

/**
 * Marks the repeats among `rows` (row numbers: every row whose key may repeat an earlier one, with the rows those keys
 * were first seen on): of the unique rows among them sharing a key, the first in file order stays unique, the others
 * become duplicates of it (`first_row`). One statement that reads those rows only, through the primary key. Answers how
 * many rows became duplicates.
 */
export async function markListDuplicates(exec: TDb, listId: string, rows: number[]): Promise<number> {
  if (rows.length === 0) return 0;
  const json = JSON.stringify(rows);
  const marked = await selectRows<{ n: number }>(
    exec,
    sql`with candidates as (select distinct (json_array_elements_text(${json}::json))::int as row_number),
        ranked as (
          select e.row_number, min(e.row_number) over (partition by e.dedupe_key) as first_row
          from verify_list_emails e join candidates c on c.row_number = e.row_number
          where e.list_id = ${listId}::uuid and e.kind = 'unique'
        ),
        marked as (
          update verify_list_emails v set kind = 'duplicate', first_row = r.first_row
          from ranked r
          where v.list_id = ${listId}::uuid and v.row_number = r.row_number and r.row_number <> r.first_row
          returning 1
        )
        select count(*)::int as n from marked`,
  );
  return marked[0]?.n ?? 0;
}

/** Pending unique rows after `afterRow` (and up to `toRow` when given: one chunk's range), in row order. */
export async function selectPendingEmails(exec: TDb, listId: string, afterRow: number, limit: number, toRow: number | null = null) {
  return exec
    .select({ rowNumber: verifyListEmails.rowNumber, email: verifyListEmails.email })
    .from(verifyListEmails)
    .where(
      and(
        eq(verifyListEmails.listId, listId),
        eq(verifyListEmails.kind, 'unique'),
        isNull(verifyListEmails.status),
        isNull(verifyListEmails.recheckAt),
        gt(verifyListEmails.rowNumber, afterRow),
        toRow === null ? undefined : lte(verifyListEmails.rowNumber, toRow),
      ),
    )
    .orderBy(asc(verifyListEmails.rowNumber))
    .limit(limit);
}

/** The first row number of every chunk of `chunkSize` pending unique rows (row order): the chunk plan of a list. */
export async function selectPendingChunkStarts(exec: TDb, listId: string, chunkSize: number): Promise<number[]> {
  return selectChunkStarts(exec, { table: verifyListEmails, rowNumber: verifyListEmails.rowNumber, pending: pendingEmails(listId) }, chunkSize);
}

/** A list's rows still to verify: unique addresses without a result. */
function pendingEmails(listId: string) {
  return and(eq(verifyListEmails.listId, listId), eq(verifyListEmails.kind, 'unique'), isNull(verifyListEmails.status));
}

export async function countPendingEmails(exec: TDb, listId: string): Promise<number> {
  const rows = await exec
    .select({ n: count() })
    .from(verifyListEmails)
    .where(pendingEmails(listId));
  return rows[0]?.n ?? 0;
}

/** Stores a batch of results on rows that have none yet (a row is never stored twice); answers the row numbers stored. */
export function storeEmailResults(exec: TDb, listId: string, items: TRowResult[]): Promise<Set<number>> {
  return storeRowResults(exec, { table: verifyListEmails, alsoSet: sql`verified_at = now(), recheck_at = null` }, listId, items);
}

// ---------- greylist re-checks ----------

/**
 * Marks rows (still without a result) as waiting for a greylist re-check at `recheckAt`, with `rechecks` re-checks
 * made so far; only rows whose re-check count is still `expectRechecks` move (a re-check is never counted twice).
 */
export async function markRowsWaiting(
  exec: TDb,
  listId: string,
  items: { rowNumber: number; recheckAt: Date; rechecks: number; expectRechecks: number }[],
): Promise<number> {
  if (items.length === 0) return 0;
  const json = JSON.stringify(items.map((i) => ({ r: i.rowNumber, t: i.recheckAt.toISOString(), n: i.rechecks, e: i.expectRechecks })));
  const rows = await selectRows<{ row_number: number }>(
    exec,
    sql`update verify_list_emails e
        set recheck_at = x.t, greylist_rechecks = x.n
        from json_to_recordset(${json}::json) as x(r int, t timestamptz, n int, e int)
        where e.list_id = ${listId}::uuid and e.row_number = x.r and e.status is null and e.greylist_rechecks = x.e
        returning e.row_number`,
  );
  return rows.length;
}

/** Rows waiting for a greylist re-check due by `dueBy`, soonest first. */
export async function selectDueRechecks(exec: TDb, listId: string, dueBy: Date, limit: number) {
  return exec
    .select({ rowNumber: verifyListEmails.rowNumber, email: verifyListEmails.email, rechecks: verifyListEmails.greylistRechecks })
    .from(verifyListEmails)
    .where(and(eq(verifyListEmails.listId, listId), isNull(verifyListEmails.status), lte(verifyListEmails.recheckAt, dueBy)))
    .orderBy(asc(verifyListEmails.recheckAt), asc(verifyListEmails.rowNumber))
    .limit(limit);
}

/** How many rows of a list wait for a greylist re-check, and when the next is due. */
export async function selectGreylistWait(exec: TDb, listId: string): Promise<{ waiting: number; nextAt: Date | null }> {
  const rows = await selectRows<{ waiting: number; next_at: string | Date | null }>(
    exec,
    sql`select count(*)::int as waiting, min(recheck_at) as next_at from verify_list_emails
        where list_id = ${listId}::uuid and status is null and recheck_at is not null`,
  );
  const r = rows[0];
  return { waiting: Number(r?.waiting ?? 0), nextAt: r?.next_at ? new Date(r.next_at) : null };
}

/** Forgets every greylist wait of a list (a new start verifies those rows afresh). */
export async function clearGreylistWaits(exec: TDb, listId: string): Promise<void> {
  await exec
    .update(verifyListEmails)
    .set({ recheckAt: null, greylistRechecks: 0 })
    .where(and(eq(verifyListEmails.listId, listId), isNull(verifyListEmails.status), sql`${verifyListEmails.recheckAt} is not null`));
  await exec.update(verifyLists).set({ greylistWaiting: 0, greylistRecheckAt: null }).where(eq(verifyLists.id, listId));
}

/** The organisation a list belongs to (null when there is no such list). */
export async function selectListOrg(exec: TDb, listId: string): Promise<string | null> {
  const rows = await exec.select({ orgId: verifyLists.orgId }).from(verifyLists).where(eq(verifyLists.id, listId)).limit(1);
  return rows[0]?.orgId ?? null;
}

/** A page of a list's rows in file order, with each duplicate's unique row result (for exports). */
export async function selectListRowsPage(exec: TDb, listId: string, afterRow: number, limit: number) {
  return selectRows<{
    row_number: number;
    email: string;
    kind: string;
    status: string | null;
    result: Record<string, unknown> | null;
  }>(
    exec,
    sql`select e.row_number, e.email, e.kind,
               coalesce(e.status, u.status) as status,
               coalesce(e.result, u.result) as result
        from verify_list_emails e
        left join verify_list_emails u on e.kind = 'duplicate' and u.list_id = e.list_id and u.row_number = e.first_row
        where e.list_id = ${listId} and e.row_number > ${afterRow}
        order by e.row_number
        limit ${limit}`,
  );
}

// ---------- instant ----------

export async function insertInstant(exec: TDb, row: typeof instantVerifications.$inferInsert) {
  const rows = await exec.insert(instantVerifications).values(row).returning();
  return rows[0]!;
}

export async function selectRecentInstant(exec: TDb, f: TVisibleScope & { userId: string; limit: number; source?: TInstantSource }) {
  return exec
    .select()
    .from(instantVerifications)
    .where(
      and(
        eq(instantVerifications.orgId, f.orgId),
        eq(instantVerifications.userId, f.userId),
        f.source ? eq(instantVerifications.source, f.source) : undefined,
      ),
    )
    .orderBy(desc(instantVerifications.createdAt), desc(instantVerifications.id))
    .limit(f.limit);
}

/** Result counts of lists finished (or last changed) and instant verifications made in [from, to), for analytics. */
export async function selectVerificationSummary(exec: TDb, f: { orgId: string; userIds?: string[]; from: Date; to: Date }) {
  const listUsers = f.userIds ? sql`and ${inArray(verifyLists.userId, f.userIds.length ? f.userIds : ['00000000-0000-0000-0000-000000000000'])}` : sql``;
  const instantUsers = f.userIds
    ? sql`and ${inArray(instantVerifications.userId, f.userIds.length ? f.userIds : ['00000000-0000-0000-0000-000000000000'])}`
    : sql``;
  const c = (key: string) => sql`coalesce(sum((${verifyLists.counters}->>${key})::numeric), 0)::float8`;
  const lists = await selectRows<Record<string, number>>(
    exec,
    sql`select count(*)::int as lists, ${c('verified')} as verified, ${c('valid')} as valid, ${c('invalid')} as invalid, ${c('catch_all')} as catch_all,
               ${c('unknown')} as unknown, ${c('disposable')} as disposable, ${c('gibberish')} as gibberish, ${c('free_account')} as free_account,
               ${c('role_account')} as role_account, ${c('billable')} as billable, ${c('safe_to_send')} as safe_to_send, ${c('valid_score_sum')} as valid_score_sum,
               coalesce(sum(${verifyLists.duplicateCount}), 0)::int as duplicate, coalesce(sum(${verifyLists.syntaxErrorCount}), 0)::int as syntax_error
        from ${verifyLists}
        where ${verifyLists.orgId} = ${f.orgId} ${listUsers}
          and coalesce(${verifyLists.verifiedAt}, ${verifyLists.updatedAt}) >= ${f.from.toISOString()}
          and coalesce(${verifyLists.verifiedAt}, ${verifyLists.updatedAt}) < ${f.to.toISOString()}`,
  );
  const flag = (key: string) => sql`count(*) filter (where (${instantVerifications.result}->>${key}) = 'true')::int`;
  const instant = await selectRows<Record<string, number>>(
    exec,
    sql`select count(*)::int as verified,
               count(*) filter (where ${instantVerifications.status} = 'valid')::int as valid,
               count(*) filter (where ${instantVerifications.status} = 'invalid')::int as invalid,
               count(*) filter (where ${instantVerifications.status} = 'catch_all')::int as catch_all,
               count(*) filter (where ${instantVerifications.status} = 'unknown')::int as unknown,
               ${flag('disposable')} as disposable, ${flag('gibberish')} as gibberish, ${flag('free_account')} as free_account, ${flag('role_account')} as role_account,
               count(*) filter (where ${instantVerifications.billable})::int as billable,
               count(*) filter (where (${instantVerifications.result}->>'safe_to_send') = 'yes')::int as safe_to_send,
               coalesce(sum((${instantVerifications.result}->>'deliverability_score')::float8) filter (where ${instantVerifications.status} = 'valid'), 0)::float8 as valid_score_sum,
               coalesce(sum(${instantVerifications.creditsCharged}), 0)::int as credits
        from ${instantVerifications}
        where ${instantVerifications.orgId} = ${f.orgId} ${instantUsers}
          and ${instantVerifications.createdAt} >= ${f.from.toISOString()} and ${instantVerifications.createdAt} < ${f.to.toISOString()}`,
  );
  // Instant results older than the organisation's result retention live on as quarter-hour aggregates (data retention).
  const r = instantVerificationRollups;
  const rollupUsers = f.userIds ? sql`and ${inArray(r.userId, f.userIds.length ? f.userIds : ['00000000-0000-0000-0000-000000000000'])}` : sql``;
  const s = (col: AnyPgColumn) => sql`coalesce(sum(${col}), 0)::float8`;
  const rolled = await selectRows<Record<string, number>>(
    exec,
    sql`select ${s(r.verified)} as verified, ${s(r.valid)} as valid, ${s(r.invalid)} as invalid, ${s(r.catchAll)} as catch_all, ${s(r.unknown)} as unknown,
               ${s(r.disposable)} as disposable, ${s(r.gibberish)} as gibberish, ${s(r.freeAccount)} as free_account, ${s(r.roleAccount)} as role_account,
               ${s(r.billable)} as billable, ${s(r.safeToSend)} as safe_to_send, ${s(r.validScoreSum)} as valid_score_sum, ${s(r.credits)} as credits
        from ${r}
        where ${r.orgId} = ${f.orgId} ${rollupUsers} and ${r.bucket} >= ${f.from.toISOString()} and ${r.bucket} < ${f.to.toISOString()}`,
  );
  const kept = instant[0] ?? {};
  const sum: Record<string, number> = { ...kept };
  for (const [k, v] of Object.entries(rolled[0] ?? {})) sum[k] = Number(kept[k] ?? 0) + Number(v ?? 0);
  return { lists: lists[0] ?? {}, instant: sum };
}

/** A member's lists with a job queued or running: analysis pending or processing, or a verification in progress. */
export async function selectRunningLists(exec: TDb, who: { orgId: string; userId: string }): Promise<TListRow[]> {
  return verifyListStore.selectRunning(exec, who, or(inArray(verifyLists.analysisState, ['pending', 'processing']), eq(verifyLists.state, 'in_progress')));
}
