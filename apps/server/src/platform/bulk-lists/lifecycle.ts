import type { TJobActivityType } from '@verilead/contracts';
import type { TDatabase, TDb } from '../db/database';
import type { TDeps } from '../deps';
import { AppError } from '../errors/app-error';
import type { TFileStorage } from '../storage/storage';
import { getVisibleScope, type TCallerContext, type TVisibleScope } from '../tenancy/context';
import type { TBulkListRow, TListStore } from './list-store';
import type { TSourceListRow, TSourceListStore } from './source-list-store';

/**
 * A bulk list's lifecycle, written once for every list product: start its plan job, cancel it, stop it when credits
 * run out, finish it once nothing is pending, remove it. The product brings its store (list-store.ts), the values its
 * own columns take at each step, and what it records; the kernel keeps the order of the locks, the single winner of
 * every move and the jobs dropped with it.
 */

type TQueueDeps = Pick<TDeps, 'database' | 'queue'>;

/** A history row of a list job, as the product's activity log records it (the kernel records nothing itself). */
export type TListActivityEntry = { orgId: string; userId: string; type: TJobActivityType; description: string; metadata: Record<string, unknown> };
export type TRecordActivity = (exec: TDb, entry: TListActivityEntry) => Promise<void>;

/** Retries of a list's plan and chunk jobs: a worker that dies mid-chunk leaves the chunk to another. */
export const LIST_JOB_RETRY = { maxAttempts: 20, backoffMs: 2_000 } as const;

/**
 * Starts the list's plan job `jobName` in one transaction with the list's move to `in_progress` (the job noted,
 * any earlier stop reason cleared, and the product's own `values`). A list already in progress, seen under the row lock, is refused with
 * `busyMessage`. Answers the started row.
 */
export async function startListJob<TRow extends TBulkListRow, TInsert>(
  deps: TQueueDeps,
  store: TListStore<TRow, TInsert>,
  ctx: Pick<TCallerContext, 'orgId' | 'userId'>,
  listId: string,
  opts: { jobName: string; busyMessage: string; values: Partial<NoInfer<TInsert>> },
): Promise<TRow> {
  return deps.database.transaction(async (tx) => {
    const current = await store.selectForUpdate(tx, listId);
    if (!current || current.state === 'in_progress') throw new AppError('conflict', opts.busyMessage);
    const jobId = await deps.queue.enqueue(opts.jobName, { listId }, { tx, orgId: ctx.orgId, userId: ctx.userId, ...LIST_JOB_RETRY });
    await store.update(tx, listId, { ...opts.values, state: 'in_progress', jobId, stoppedReason: null });
    return (await store.selectById(tx, listId))!;
  });
}

/**
 * What cancelling needs of a list's store: a file list's (list-store.ts) or a source list's (source-list-store.ts),
 * whose rows carry the job to drop (a source list whose steps each check its state, e.g. an import, carries none).
 */
export type TCancellableStore<TRow extends { id: string; orgId: string; userId: string; state: string; jobId?: string | null }, TInsert> = {
  require(exec: TDb, ctx: TCallerContext, id: string): Promise<TRow>;
  select(exec: TDb, scope: TVisibleScope, id: string): Promise<TRow | null>;
  selectForUpdate(exec: TDb, id: string): Promise<TRow | null>;
  transition(exec: TDb, scope: TVisibleScope, id: string, fromStates: readonly TRow['state'][], values: Partial<TInsert>): Promise<boolean>;
};

/**
 * Queues a job of a source list's run for the run's owner (their organisation's job, charged and shown to them): in
 * `tx` when given, so it exists only if the step that queued it commits (the next chunk, the next phase), or after
 * `delayMs` (a throttled step again). Answers the job id.
 */
export function queueSourceJob(
  queue: TDeps['queue'],
  run: { orgId: string; userId: string },
  name: string,
  payload: Record<string, unknown>,
  opts: { tx?: TDb; delayMs?: number } = {},
): Promise<string> {
  return queue.enqueue(name, payload, { ...opts, orgId: run.orgId, userId: run.userId });
}

/**
 * Starts a source list's run (source-chain.ts) inside the caller's transaction (which may hold the source's lock): its
 * state row inserted with `values`, its first chunk job `firstJob` queued with the row's owner (payload from the new
 * row), and, when `noteJob`, the job noted on the row (the values it gives) for a cancel to drop. Answers the inserted row.
 */
export async function startSourceRun<TRow extends TSourceListRow, TInsert>(
  tx: TDb,
  queue: TDeps['queue'],
  store: TSourceListStore<TRow, TInsert>,
  values: TInsert,
  firstJob: { name: string; payload: (row: TRow) => Record<string, unknown>; noteJob?: (jobId: string) => Partial<NoInfer<TInsert>> },
): Promise<TRow> {
  const row = await store.insert(tx, values);
  const jobId = await queueSourceJob(queue, row, firstJob.name, firstJob.payload(row), { tx });
  if (firstJob.noteJob) await store.update(tx, row.id, firstJob.noteJob(jobId));
  return row;
}

/**
 * Ends a source list's run with `values` (its final state, why): only from one of `from` when given (one winner: a
 * retried or concurrent chunk ends it once), unconditionally otherwise. `onEnded` records the product's history with
 * the ended row, in the same `exec`. Answers whether it ended the run.
 */
export async function endSourceRun<TRow extends TSourceListRow, TInsert>(
  exec: TDb,
  store: TSourceListStore<TRow, TInsert>,
  id: string,
  values: Partial<NoInfer<TInsert>>,
  opts: { from?: readonly TRow['state'][]; onEnded: (exec: TDb, ended: TRow) => Promise<void> },
): Promise<boolean> {
  if (opts.from) {
    if (!(await store.transition(exec, null, id, opts.from, values))) return false;
  } else await store.update(exec, id, values);
  const ended = await store.selectById(exec, id);
  if (ended) await opts.onEnded(exec, ended);
  return ended !== null;
}

/**
 * Cancels a list's job at the user's request. Under the row lock (which waits for a batch being stored, so nothing is
 * stored or charged after the cancel), `cancel` says from which state the list moves and to what, or null when it
 * cannot be cancelled (409 `refusal`); `onCancelled` moves what else goes with it in that transaction; `describe` is
 * the history row, recorded for the owner and, when another member cancelled (unless `ownerOnly`), for them too. Then
 * the job and the product's queued `dropJobs` are dropped (`jobDropMayFail`: a job that cannot be dropped is left to
 * see the state); running chunks stop at their next look at the list. Answers the cancelled row.
 */
export async function cancelListJob<TRow extends { id: string; orgId: string; userId: string; state: string; jobId?: string | null }, TInsert>(
  deps: TQueueDeps,
  store: TCancellableStore<TRow, TInsert>,
  ctx: TCallerContext,
  listId: string,
  opts: {
    refusal: string;
    cancel: (current: TRow) => { from: TRow['state']; values: Partial<NoInfer<TInsert>> } | null;
    onCancelled?: (tx: TDb, current: TRow) => Promise<void>;
    describe: (current: TRow) => Omit<TListActivityEntry, 'orgId' | 'userId'>;
    recordActivity: TRecordActivity;
    ownerOnly?: boolean;
    dropJobs: readonly string[];
    jobDropMayFail?: boolean;
  },
): Promise<TRow> {
  await store.require(deps.database.db, ctx, listId);
  const scope = getVisibleScope(ctx);
  const cancelled = await deps.database.transaction(async (tx) => {
    const current = await store.selectForUpdate(tx, listId);
    const move = current ? opts.cancel(current) : null;
    if (!current || !move || !(await store.transition(tx, scope, listId, [move.from], move.values))) return null;
    await opts.onCancelled?.(tx, current);
    const entry = { ...opts.describe(current), orgId: current.orgId };
    await opts.recordActivity(tx, { ...entry, userId: current.userId });
    if (!opts.ownerOnly && ctx.userId !== current.userId) await opts.recordActivity(tx, { ...entry, userId: ctx.userId });
    return current;
  });
  if (!cancelled) throw new AppError('conflict', opts.refusal);
  if (cancelled.jobId) {
    const drop = deps.queue.cancel(cancelled.jobId, ctx.orgId);
    await (opts.jobDropMayFail ? drop.catch(() => null) : drop);
  }
  for (const name of opts.dropJobs) await deps.queue.cancelWhere(name, { listId });
  return (await store.select(deps.database.db, scope, listId))!;
}

/**
 * Credits ran out in a chunk: the list moves from `in_progress` to `values` and records why; only the job that moves
 * it records the stop (several chunks may run out at once). The product's queued `dropJobs` are dropped.
 */
export async function stopListJob<TRow extends TBulkListRow, TInsert>(
  deps: TQueueDeps,
  store: TListStore<TRow, TInsert>,
  listId: string,
  opts: { values: Partial<NoInfer<TInsert>>; describe: (list: TRow) => Omit<TListActivityEntry, 'orgId' | 'userId'>; recordActivity: TRecordActivity; dropJobs: readonly string[] },
): Promise<void> {
  await deps.database.transaction(async (tx) => {
    const list = await store.selectById(tx, listId);
    if (!list || !(await store.transition(tx, { orgId: list.orgId }, listId, ['in_progress'], opts.values))) return;
    await opts.recordActivity(tx, { ...opts.describe(list), orgId: list.orgId, userId: list.userId });
  });
  for (const name of opts.dropJobs) await deps.queue.cancelWhere(name, { listId });
}

/**
 * Marks a list done once none of its rows is pending: under the row lock, still `in_progress`, it takes `values`, and
 * `onDone` records the product's history and event in the same transaction (with the row before and after).
 * `looksDone` is a cheap first look at the row (counters move with every stored batch) before pending rows are counted.
 */
export async function finishListIfDone<TRow extends TBulkListRow, TInsert>(
  database: TDatabase,
  store: TListStore<TRow, TInsert>,
  listId: string,
  opts: {
    looksDone?: (list: TRow) => boolean;
    countPending: (exec: TDb, listId: string) => Promise<number>;
    values: () => Partial<NoInfer<TInsert>>;
    onDone: (tx: TDb, list: TRow, done: TRow) => Promise<void>;
  },
): Promise<void> {
  if (opts.looksDone) {
    const look = await store.selectById(database.db, listId);
    if (!look || look.state !== 'in_progress' || !opts.looksDone(look)) return;
  }
  if ((await opts.countPending(database.db, listId)) > 0) return;
  await database.transaction(async (tx) => {
    const list = await store.selectForUpdate(tx, listId);
    if (!list || list.state !== 'in_progress') return;
    await store.update(tx, listId, opts.values());
    await opts.onDone(tx, list, (await store.selectById(tx, listId))!);
  });
}

/**
 * The plan job of a started list: in one transaction, enqueues its chunk jobs (`chunkStarts` gives each chunk's first
 * row) and notes the plan job, so a retried plan enqueues nothing twice. `beforePlan` runs first in that transaction.
 * A list with nothing pending is finished at once (`finish`). Answers how many chunks were enqueued.
 */
export async function planListChunks<TRow extends TBulkListRow, TInsert>(
  database: TDatabase,
  store: TListStore<TRow, TInsert>,
  listId: string,
  jobId: string,
  opts: {
    enqueueChunks: (tx: TDb, list: TRow) => Promise<number>;
    beforePlan?: (tx: TDb, listId: string) => Promise<void>;
    finish: () => Promise<void>;
  },
): Promise<number> {
  const planned = await database.transaction(async (tx) => {
    const list = await store.selectForUpdate(tx, listId);
    if (!list || list.state !== 'in_progress' || list.plannedJobId === jobId) return null;
    await opts.beforePlan?.(tx, listId);
    const enqueued = await opts.enqueueChunks(tx, list);
    await store.update(tx, listId, { plannedJobId: jobId });
    return enqueued;
  });
  // Nothing was pending (every row already had a result): the list is done now.
  if (planned === 0) await opts.finish();
  return planned ?? 0;
}

/**
 * Removes a list and its file; `busyReason` (null when the list can go) refuses a list whose job still runs (409).
 */
export async function removeBulkList<TRow extends TBulkListRow, TInsert>(
  database: TDatabase,
  storage: TFileStorage,
  store: TListStore<TRow, TInsert>,
  ctx: TCallerContext,
  listId: string,
  busyReason: (list: TRow) => string | null,
): Promise<{ message: string }> {
  const list = await store.require(database.db, ctx, listId);
  const reason = busyReason(list);
  if (reason) throw new AppError('conflict', reason);
  await store.delete(database.db, getVisibleScope(ctx), listId);
  await storage.remove(list.storageKey);
  return { message: 'List removed successfully' };
}
