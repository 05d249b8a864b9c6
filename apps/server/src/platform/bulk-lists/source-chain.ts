import type { TJobActivityType } from '@verilead/contracts';
import type { z } from 'zod';
import type { TJobQueueName } from '../../config';
import type { TDatabase, TDb } from '../db/database';
import { defineJob, type TJobContext, type TJobDefinition } from '../jobs/jobs';

/**
 * A bulk list whose rows come from a source that is not an uploaded file: a prospect list's leads (list enrichment),
 * a platform's list members (an integration import). Its state row holds the cursor and the counters; one job per
 * chunk reads the source at the cursor, works the chunk, and in the transaction that stores its progress (under the
 * state row's lock, still due) queues the next chunk or the finish. A chunk no longer due — cancelled, failed, or
 * already done by an earlier run of the same job — stores nothing, so a retried job never stores (nor charges) twice.
 * The product keeps its state table, its source and its row work; the kernel keeps the order: read, work, lock, check,
 * commit.
 */

/** One step of a source chain, for a state row already loaded and found due. */
export type TSourceChunk<TRow, TChunk> = {
  /** Reads the chunk at the row's cursor (outside any transaction: a platform call, a page of leads). */
  read: () => Promise<TChunk>;
  /** Works the chunk outside a transaction, storing as it goes; false stops the chain here (cancelled, out of credits). */
  work?: (chunk: TChunk) => Promise<boolean>;
  /** Runs after the work, before the commit (e.g. the job's progress). */
  afterWork?: (chunk: TChunk) => Promise<void>;
  /** The state row under its lock, inside the commit's transaction. */
  lock: (tx: TDb) => Promise<TRow | null>;
  /** Whether the locked row still wants this chunk (its state, the position it is at). */
  due: (current: TRow) => boolean;
  /** Under the lock, still due: stores the chunk, moves the cursor, queues the next chunk or finishes. */
  commit: (tx: TDb, current: TRow, chunk: TChunk) => Promise<void>;
};

/** Runs one chunk of a source chain (read → work → lock → still due → commit); answers whether it committed. */
export async function advanceSourceChunk<TRow, TChunk>(database: TDatabase, step: TSourceChunk<TRow, TChunk>): Promise<boolean> {
  const chunk = await step.read();
  if (step.work && !(await step.work(chunk))) return false;
  await step.afterWork?.(chunk);
  return database.transaction(async (tx) => {
    const current = await step.lock(tx);
    if (!current || !step.due(current)) return false;
    await step.commit(tx, current, chunk);
    return true;
  });
}

/** A job of a source chain: its name, payload, retries and handler (one chunk, or the finish). */
export type TSourceChainJob<P extends z.ZodType> = {
  name: string;
  payload: P;
  maxAttempts: number;
  backoffMs: number;
  /** A method, so each job of a list keeps its own payload type. */
  run(payload: z.output<P>, ctx: TJobContext): Promise<unknown>;
};

/** A product's source-chain jobs, declared from one definition on the product's queue. */
export function defineSourceChainJobs(def: { queue: TJobQueueName; jobs: readonly TSourceChainJob<z.ZodType>[] }): TJobDefinition[] {
  return def.jobs.map((job) =>
    defineJob({
      name: job.name,
      queue: def.queue,
      payload: job.payload,
      maxAttempts: job.maxAttempts,
      backoffMs: job.backoffMs,
      // a suspended organisation's or member's run waits, with its cursor and counters, until they are restored
      pausesWhileSuspended: true,
      handler: (p, ctx) => job.run(p, ctx),
    }),
  ) as unknown as TJobDefinition[];
}

/** `done` of `of` as a whole percentage (capped at 100), null when the size is not known. */
export function percentDone(done: number, of: number | null): number | null {
  return of && of > 0 ? Math.min(100, Math.floor((done * 100) / of)) : null;
}

/**
 * A running list job as the Activities screen shows it (the activities feature's TRunningJobActivity, which platform
 * code does not import): keyed `<type>:<id>`, queued until its first chunk has run, then in progress with `progress`.
 */
export function toRunningSourceJob(
  row: { id: string; updatedAt: Date },
  p: { type: TJobActivityType; queued: boolean; progress: number | null; description: string; metadata: Record<string, unknown> },
) {
  return {
    key: `${p.type}:${row.id}`,
    type: p.type,
    status: p.queued ? ('queued' as const) : ('in_progress' as const),
    progress: p.queued ? null : p.progress,
    description: p.description,
    metadata: p.metadata,
    since: row.updatedAt,
  };
}
