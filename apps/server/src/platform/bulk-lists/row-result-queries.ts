import { sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { selectRows, type TDb } from '../db/database';

/** One row's result as a list product stores it: its status, the result shown and exported, and whether it was charged. */
export type TRowResult = { rowNumber: number; status: string; result: Record<string, unknown>; billable: boolean };

/**
 * Stores a batch of results on a list's rows in one statement (rows travel as one JSON parameter), only on rows that
 * have none yet, so a retried chunk never stores (nor charges) a row twice. `alsoSet` adds the product's own column
 * assignments. Answers the row numbers this call stored. The row table has `list_id`, `row_number`, `status`,
 * `result` and `billable` columns.
 */
export async function storeRowResults(exec: TDb, rows: { table: PgTable; alsoSet?: SQL }, listId: string, items: readonly TRowResult[]): Promise<Set<number>> {
  if (items.length === 0) return new Set();
  const json = JSON.stringify(items.map((i) => ({ r: i.rowNumber, s: i.status, j: i.result, b: i.billable })));
  const stored = await selectRows<{ row_number: number }>(
    exec,
    sql`update ${rows.table} e
        set status = x.s, result = x.j, billable = x.b${rows.alsoSet ? sql`, ${rows.alsoSet}` : sql``}
        from json_to_recordset(${json}::json) as x(r int, s text, j jsonb, b boolean)
        where e.list_id = ${listId}::uuid and e.row_number = x.r and e.status is null
        returning e.row_number`,
  );
  return new Set(stored.map((r) => r.row_number));
}
