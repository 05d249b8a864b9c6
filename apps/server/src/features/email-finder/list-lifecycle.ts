import { type TFinderList } from '@verilead/contracts';
import type { TDeps } from '../../platform/deps';
import { AppError } from '../../platform/errors/app-error';
import type { TFileStorage } from '../../platform/storage/storage';
import { getVisibleScope, type TCallerContext } from '../../platform/tenancy/context';
import { recordActivity } from '../activities';
import {
  countPendingRows,
  deleteList,
  EMPTY_FINDER_COUNTERS,
  selectList,
  selectListById,
  selectListForUpdate,
  transitionList,
  updateList,
} from './queries';
import { FIND_CHUNK_JOB, FIND_EMAILS_JOB } from './find-list-job';
import { requireCredits } from './finder-support';
import { requireList } from './list-access';
import { toListView } from './list-view';

/** POST /email_finder/list/find_emails: starts (or resumes) the durable find_emails job. */
export async function startFindEmails(deps: Pick<TDeps, 'database' | 'queue'>, ctx: TCallerContext, listId: string): Promise<TFinderList> {
  const { database } = deps;
  const list = await requireList(database.db, ctx, listId);
  if (list.activity === 'analyse') throw new AppError(409, 'conflict', 'The file is still being read; please wait a moment');
  if (list.state === 'in_progress') throw new AppError(409, 'conflict', 'The list is already being processed');
  const remaining = await countPendingRows(database.db, list.id);
  if (remaining === 0) throw new AppError(409, 'conflict', 'Every row of this list is already processed');
  // Only found addresses are charged, so the job starts with at least one credit and stops cleanly when they run out.
  await requireCredits(database.db, ctx);
  await database.transaction(async (tx) => {
    const current = await selectListForUpdate(tx, list.id);
    if (!current || current.state === 'in_progress') throw new AppError(409, 'conflict', 'The list is already being processed');
    const jobId = await deps.queue.enqueue(FIND_EMAILS_JOB, { listId: list.id }, { tx, orgId: ctx.orgId, userId: ctx.userId, maxAttempts: 20, backoffMs: 2_000 });
    await updateList(tx, list.id, { state: 'in_progress', activity: 'find_emails', jobId, stoppedReason: null });
  });
  return toListView((await selectListById(database.db, list.id))!);
}

/** POST /email_finder/list/cancel: stops the job; what finished stays (and is billed when found), the rest is never charged. */
export async function cancelFindEmails(deps: TDeps, ctx: TCallerContext, listId: string): Promise<TFinderList> {
  const list = await requireList(deps.database.db, ctx, listId);
  const moved = await deps.database.transaction(async (tx) => {
    // The row lock waits for a batch being stored; once cancelled, no further batch is stored or charged (storeListBatch).
    const current = await selectListForUpdate(tx, listId);
    // A list whose file is still being read (the public API's upload-and-find) is cancelled too: its analysis ends, nothing starts.
    const analysing = current?.state === 'not_processed' && current.activity === 'analyse';
    if (!current || (current.state !== 'in_progress' && !analysing)) return false;
    const values = { state: 'cancelled', activity: analysing ? 'analyse' : null, stoppedReason: 'Cancelled by the user' };
    if (!(await transitionList(tx, getVisibleScope(ctx), listId, [current.state], values))) return false;
    const c = { ...EMPTY_FINDER_COUNTERS, ...current.counters };
    const entry = {
      orgId: list.orgId,
      type: 'find_emails' as const,
      description: `Cancelled the search of "${list.name}": ${c.processed} of ${list.searchableCount} people searched, ${c.billable} credit${c.billable === 1 ? '' : 's'} charged`,
      metadata: { list_id: listId, cancelled: true, processed: c.processed, credits_charged: c.billable },
    };
    await recordActivity(tx, { ...entry, userId: list.userId });
    if (ctx.userId !== list.userId) await recordActivity(tx, { ...entry, userId: ctx.userId });
    return true;
  });
  if (!moved) throw new AppError(409, 'conflict', 'Only a list being processed can be cancelled');
  if (list.jobId) await deps.queue.cancel(list.jobId, ctx.orgId);
  // Chunks not yet taken are dropped now; running ones stop at their next batch.
  await deps.queue.cancelWhere(FIND_CHUNK_JOB, { listId });
  return toListView((await selectList(deps.database.db, getVisibleScope(ctx), listId))!);
}

export async function removeFinderList(deps: TDeps, storage: TFileStorage, ctx: TCallerContext, listId: string): Promise<{ message: string }> {
  const list = await requireList(deps.database.db, ctx, listId);
  if (list.state === 'in_progress') throw new AppError(409, 'conflict', 'The list is being processed; cancel it first');
  if (list.activity === 'analyse') throw new AppError(409, 'conflict', 'The file is still being read; please wait a moment');
  await deleteList(deps.database.db, getVisibleScope(ctx), listId);
  await storage.remove(list.storageKey);
  return { message: 'List removed successfully' };
}
