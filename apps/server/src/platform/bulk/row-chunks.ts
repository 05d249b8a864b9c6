import { z } from 'zod';
import type { TDb } from '../db/database';
import type { TJobQueue } from '../jobs/jobs';

export { selectChunkStarts } from './row-chunk-queries';

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
