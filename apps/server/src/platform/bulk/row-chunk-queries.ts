import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { selectRows, type TDb } from '../db/database';

/**
 * The start row of every chunk of `chunkSize` pending rows of a list, in row order (one window-function pass over the
 * list's pending rows). Shared by the verifier's and the finder's plan jobs, each naming its table and what "pending" is.
 */
export async function selectChunkStarts(
  exec: TDb,
  rows: { table: PgTable; rowNumber: AnyColumn; pending: SQL | undefined },
  chunkSize: number,
): Promise<number[]> {
  const found = await selectRows<{ row_number: number | string }>(
    exec,
    sql`select row_number from (
          select ${rows.rowNumber} as row_number, row_number() over (order by ${rows.rowNumber}) as i
          from ${rows.table}
          where ${rows.pending}
        ) numbered
        where (i - 1) % ${chunkSize} = 0
        order by row_number`,
  );
  return found.map((r) => Number(r.row_number));
}
