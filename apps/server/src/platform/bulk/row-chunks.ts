import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { selectRows, type TDb } from '../db/database';
import type { TJobQueue } from '../jobs/jobs';

/** One chunk job's share of a bulk list: rows `fromRow`…`toRow` (the last chunk is open-ended). */
export const ZRowChunk = z.object({ listId: z.uuid(), fromRow: z.number().int().min(0), toRow: z.number().int().min(0).nullable() });
export type TRowChunk = z.output<typeof ZRowChunk>;

/**
 * Enqueues one `jobName` job per chunk inside the caller's transaction: each chunk runs from one start row to the
 * row before the next start. Answers how many were enqueued. Shared by the verifier's and the finder's plan jobs.
 */
export async function enqueueRowChunks(
  queue: TJobQueue,
  tx: TDb,
  jobName: string,
  list: { id: string; orgId: string; userId: string },
  starts: readonly number[],
): Promise<number> {
  for (let i = 0; i < starts.length; i += 1) {
    const chunk: TRowChunk = { listId: list.id, fromRow: starts[i]!, toRow: i + 1 < starts.length ? starts[i + 1]! - 1 : null };
    await queue.enqueue(jobName, chunk, { tx, orgId: list.orgId, userId: list.userId, maxAttempts: 20, backoffMs: 2_000 });
  }
  return starts.length;
}

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
