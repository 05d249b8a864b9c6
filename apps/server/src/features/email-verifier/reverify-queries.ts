import { and, desc, eq, sql } from 'drizzle-orm';
import type { TVerificationStatus } from '@verilead/contracts';
import { selectRows, type TDb } from '../../platform/db/database';
import { verifyListRowChanges, verifyListRuns, verifyListSchedules } from './tables';

// The SQL of lists that stay verified: schedules, runs, the rows a run re-checks and what it changed.

export type TScheduleRow = typeof verifyListSchedules.$inferSelect;
export type TRunRow = typeof verifyListRuns.$inferSelect;

export async function selectSchedule(exec: TDb, listId: string): Promise<TScheduleRow | null> {
  const rows = await exec.select().from(verifyListSchedules).where(eq(verifyListSchedules.listId, listId)).limit(1);
  return rows[0] ?? null;
}

export async function upsertSchedule(exec: TDb, row: typeof verifyListSchedules.$inferInsert): Promise<void> {
  const { listId: _listId, createdAt: _createdAt, ...set } = row;
  await exec
    .insert(verifyListSchedules)
    .values(row)
    .onConflictDoUpdate({ target: verifyListSchedules.listId, set: { ...set, updatedAt: new Date() } });
}

export async function deleteSchedule(exec: TDb, listId: string): Promise<void> {
  await exec.delete(verifyListSchedules).where(eq(verifyListSchedules.listId, listId));
}

export async function updateSchedule(exec: TDb, listId: string, values: Partial<typeof verifyListSchedules.$inferInsert>): Promise<void> {
  await exec
    .update(verifyListSchedules)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(verifyListSchedules.listId, listId));
}

/** Schedules due by `now`, locked; a schedule another worker holds is skipped (it queues that one). */
export async function selectDueSchedulesForUpdate(exec: TDb, now: Date, limit: number): Promise<TScheduleRow[]> {
  const rows = await selectRows<{ list_id: string }>(
    exec,
    // a suspended organisation's or member's schedules wait (nothing is charged to them); restored, they run once
    sql`select s.list_id from verify_list_schedules s
          join organisations o on o.id = s.org_id join users u on u.id = s.user_id
        where s.next_run_at <= ${now.toISOString()}::timestamptz and o.suspended_at is null and u.suspended_at is null
        order by s.next_run_at limit ${limit} for update of s skip locked`,
  );
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.list_id);
  return exec.select().from(verifyListSchedules).where(sql`${verifyListSchedules.listId} in ${ids}`);
}

/** Inserts a run unless the same (list, kind, due time) exists: answers the new run, or null when it did. */
export async function insertRunOnce(exec: TDb, row: typeof verifyListRuns.$inferInsert): Promise<TRunRow | null> {
  const rows = await exec.insert(verifyListRuns).values(row).onConflictDoNothing().returning();
  return rows[0] ?? null;
}

export async function selectRun(exec: TDb, runId: string, lock = false): Promise<TRunRow | null> {
  const q = exec.select().from(verifyListRuns).where(eq(verifyListRuns.id, runId)).limit(1);
  const rows = lock ? await q.for('update') : await q;
  return rows[0] ?? null;
}

export async function updateRun(exec: TDb, runId: string, values: Partial<typeof verifyListRuns.$inferInsert>): Promise<void> {
  await exec.update(verifyListRuns).set(values).where(eq(verifyListRuns.id, runId));
}

export async function selectRuns(exec: TDb, listId: string, limit: number): Promise<TRunRow[]> {
  return exec.select().from(verifyListRuns).where(eq(verifyListRuns.listId, listId)).orderBy(desc(verifyListRuns.createdAt)).limit(limit);
}

/** The rows a run works on: results older than its cutoff (scheduled), or rows never verified after `from_row` (new contacts). */
function runTargets(run: Pick<TRunRow, 'kind' | 'cutoff' | 'fromRow'>) {
  if (run.kind === 'scheduled') return sql`e.kind = 'unique' and e.status is not null and e.verified_at < ${run.cutoff!.toISOString()}::timestamptz`;
  return sql`e.kind = 'unique' and e.status is null and e.recheck_at is null and e.row_number > ${run.fromRow ?? 0}`;
}

export async function countRunTargets(exec: TDb, listId: string, run: Pick<TRunRow, 'kind' | 'cutoff' | 'fromRow'>): Promise<number> {
  const rows = await selectRows<{ n: number }>(exec, sql`select count(*)::int as n from verify_list_emails e where e.list_id = ${listId}::uuid and ${runTargets(run)}`);
  return Number(rows[0]?.n ?? 0);
}

export async function selectRunTargets(exec: TDb, listId: string, run: Pick<TRunRow, 'kind' | 'cutoff' | 'fromRow'>, afterRow: number, limit: number) {
  return selectRows<{ row_number: number; email: string }>(
    exec,
    sql`select e.row_number, e.email from verify_list_emails e
        where e.list_id = ${listId}::uuid and e.row_number > ${afterRow} and ${runTargets(run)}
        order by e.row_number limit ${limit}`,
  );
}

export type TPreviousRow = { row_number: number; status: TVerificationStatus | null; verified_at: string | Date | null; result: Record<string, unknown> | null; billable: boolean };

/** The rows of `rowNumbers` still targets of the run, locked, with the result they have now (their previous result). */
export async function selectTargetsForUpdate(exec: TDb, listId: string, run: Pick<TRunRow, 'kind' | 'cutoff' | 'fromRow'>, rowNumbers: number[]): Promise<TPreviousRow[]> {
  if (rowNumbers.length === 0) return [];
  return selectRows<TPreviousRow>(
    exec,
    sql`select e.row_number, e.status, e.verified_at, e.result, e.billable from verify_list_emails e
        where e.list_id = ${listId}::uuid and e.row_number in ${rowNumbers} and ${runTargets(run)}
        order by e.row_number for update`,
  );
}

/** Stores re-checked results on rows (the caller locked them and checked they are still the run's). */
export async function storeRunResults(
  exec: TDb,
  listId: string,
  verifiedAt: Date,
  items: { rowNumber: number; status: string; result: Record<string, unknown>; billable: boolean }[],
): Promise<void> {
  if (items.length === 0) return;
  const json = JSON.stringify(items.map((i) => ({ r: i.rowNumber, s: i.status, j: i.result, b: i.billable })));
  await exec.execute(
    sql`update verify_list_emails e
        set status = x.s, result = x.j, billable = x.b, verified_at = ${verifiedAt.toISOString()}::timestamptz, recheck_at = null
        from json_to_recordset(${json}::json) as x(r int, s text, j jsonb, b boolean)
        where e.list_id = ${listId}::uuid and e.row_number = x.r`,
  );
}

export async function insertRowChanges(exec: TDb, rows: (typeof verifyListRowChanges.$inferInsert)[]): Promise<void> {
  if (rows.length > 0) await exec.insert(verifyListRowChanges).values(rows).onConflictDoNothing();
}

/** A run's transitions: `from>to` → rows (`none` for a row never verified before). */
export async function selectRunTransitions(exec: TDb, runId: string): Promise<Record<string, number>> {
  const rows = await selectRows<{ from: string | null; to: string; n: number }>(
    exec,
    sql`select previous_status as "from", status as "to", count(*)::int as n from verify_list_row_changes
        where run_id = ${runId}::uuid group by previous_status, status`,
  );
  return Object.fromEntries(rows.map((r) => [`${r.from ?? 'none'}>${r.to}`, Number(r.n)]));
}

const changedOnly = sql`c.previous_status is distinct from c.status`;

/** A page of the rows a run re-checked (only those whose status changed unless `all`), with their address. */
export async function selectRunChangesPage(exec: TDb, q: { runId: string; listId: string; all: boolean; afterRow: number; offset: number; limit: number }) {
  const where = and(sql`c.run_id = ${q.runId}::uuid and c.row_number > ${q.afterRow}`, q.all ? undefined : changedOnly);
  const rows = await selectRows<{ row_number: number; email: string; previous_status: TVerificationStatus | null; previous_verified_at: string | Date | null; status: TVerificationStatus; result: Record<string, unknown> | null }>(
    exec,
    sql`select c.row_number, e.email, c.previous_status, c.previous_verified_at, c.status, e.result
        from verify_list_row_changes c join verify_list_emails e on e.list_id = ${q.listId}::uuid and e.row_number = c.row_number
        where ${where} order by c.row_number offset ${q.offset} limit ${q.limit}`,
  );
  return rows;
}

export async function countRunChanges(exec: TDb, runId: string, all: boolean): Promise<number> {
  const rows = await selectRows<{ n: number }>(exec, sql`select count(*)::int as n from verify_list_row_changes c where c.run_id = ${runId}::uuid${all ? sql`` : sql` and ${changedOnly}`}`);
  return Number(rows[0]?.n ?? 0);
}

/** The last row number of a list (new contacts are appended after it). */
export async function selectLastRowNumber(exec: TDb, listId: string): Promise<number> {
  const rows = await selectRows<{ n: number | null }>(exec, sql`select max(row_number)::int as n from verify_list_emails where list_id = ${listId}::uuid`);
  return Number(rows[0]?.n ?? 0);
}

/** The first unique row of a list with each of `keys` (an appended address that repeats one becomes its duplicate). */
export async function selectFirstRowsByKey(exec: TDb, listId: string, keys: string[]): Promise<Map<string, number>> {
  if (keys.length === 0) return new Map();
  const rows = await selectRows<{ dedupe_key: string; n: number }>(
    exec,
    sql`select dedupe_key, min(row_number)::int as n from verify_list_emails where list_id = ${listId}::uuid and kind = 'unique' and dedupe_key in ${keys} group by dedupe_key`,
  );
  return new Map(rows.map((r) => [r.dedupe_key, Number(r.n)]));
}

/** Appends rows (already classified) to a list. */
export async function insertAppendedRows(
  exec: TDb,
  listId: string,
  rows: { rowNumber: number; email: string; dedupeKey: string; kind: 'unique' | 'duplicate' | 'syntax_error'; firstRow: number | null }[],
): Promise<void> {
  if (rows.length === 0) return;
  const json = JSON.stringify(rows.map((r) => ({ r: r.rowNumber, e: r.email, k: r.dedupeKey, t: r.kind, f: r.firstRow })));
  await exec.execute(
    sql`insert into verify_list_emails (list_id, row_number, email, dedupe_key, kind, first_row)
        select ${listId}::uuid, x.r, x.e, x.k, x.t, x.f from json_to_recordset(${json}::json) as x(r int, e text, k text, t text, f int)
        on conflict do nothing`,
  );
}
