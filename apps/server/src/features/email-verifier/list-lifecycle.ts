import {
  type TListRemoveCheckData,
  type TProgressStatusData,
  type TVerificationMode,
  type TVerifyList,
  type TVerifyListsData,
  type ZVerifyListsRequest,
} from '@verilead/contracts';
import type { z } from 'zod';
import type { TDb } from '../../platform/db/database';
import type { TDeps } from '../../platform/deps';
import { AppError, isAppError } from '../../platform/errors/app-error';
import type { TFileStorage } from '../../platform/storage/storage';
import { getVisibleScope, type TCallerContext } from '../../platform/tenancy/context';
import { recordActivity } from '../activities';
import { assertCreditsAvailable } from '../credits';
import { getVerifierPreferences } from '../settings';
import {
  countPendingEmails,
  EMPTY_COUNTERS,
  deleteList,
  selectList,
  selectListById,
  selectListForUpdate,
  selectLists,
  transitionList,
  updateList,
} from './queries';
import { toListView } from './list-view';
import { VERIFY_CHUNK_JOB, VERIFY_JOB } from './verify-list-job';
import { requireList } from './list-access';
import { GREYLIST_RECHECK_JOB } from './store-results';

export async function listVerifyLists(exec: TDb, ctx: TCallerContext, q: z.output<typeof ZVerifyListsRequest>): Promise<TVerifyListsData> {
  const { rows, total } = await selectLists(exec, {
    ...getVisibleScope(ctx),
    search: q.search,
    state: q.state,
    listId: q.list_id,
    sortBy: q.sort_by,
    sortOrder: q.sort_order,
    offset: (q.page - 1) * q.limit,
    limit: q.limit,
  });
  return { items: rows.map(toListView), total, page: q.page, limit: q.limit };
}

export async function getProgressStatus(exec: TDb, ctx: TCallerContext, listId: string): Promise<TProgressStatusData> {
  const row = await requireList(exec, ctx, listId);
  const view = toListView(row);
  return {
    list_id: view.id,
    state: view.state,
    activity: view.activity,
    analysis: view.analysis,
    progress: view.progress,
    verified: view.counts.verified,
    total: view.counts.unique,
    stats: view.stats,
    greylist: view.greylist,
    stopped_reason: view.stopped_reason,
  };
}

/** POST /email_verify/list/verify: checks credits for the remaining addresses, then starts the durable `verify` job. */
export async function startListVerification(
  deps: Pick<TDeps, 'database' | 'queue'>,
  ctx: TCallerContext,
  input: { list_id: string; mode?: TVerificationMode },
): Promise<TVerifyList> {
  const { database } = deps;
  const list = await requireList(database.db, ctx, input.list_id);
  if (list.analysisState !== 'ready') {
    throw new AppError(409, 'conflict', list.analysisState === 'failed' ? `The file could not be analysed: ${list.analysisError}` : 'The file is still being analysed; please wait');
  }
  if (list.state === 'in_progress') throw new AppError(409, 'conflict', 'The list is already being verified');
  const remaining = await countPendingEmails(database.db, list.id);
  if (remaining === 0) throw new AppError(409, 'conflict', 'Every address of this list is already verified');
  await assertCreditsAvailable(database.db, ctx, remaining);
  const row = await database.transaction(async (tx) => {
    const current = await selectListForUpdate(tx, list.id);
    if (!current || current.state === 'in_progress') throw new AppError(409, 'conflict', 'The list is already being verified');
    const jobId = await deps.queue.enqueue(VERIFY_JOB, { listId: list.id }, { tx, orgId: ctx.orgId, userId: ctx.userId, maxAttempts: 20, backoffMs: 2_000 });
    await updateList(tx, list.id, { state: 'in_progress', activity: 'verify', verifyJobId: jobId, stoppedReason: null, mode: input.mode ?? null });
    return (await selectListById(tx, list.id))!;
  });
  return toListView(row);
}

/**
 * Makes sure an analysed list is being verified: starts it, or — when auto-pilot has already started it, or it has
 * nothing left to verify — answers it as it is. For API callers that upload and verify in one request.
 */
export async function ensureListVerification(deps: Pick<TDeps, 'database' | 'queue'>, ctx: TCallerContext, listId: string): Promise<TVerifyList> {
  const alreadyStarted = async (): Promise<TVerifyList | null> => {
    const list = await requireList(deps.database.db, ctx, listId);
    if (list.state === 'in_progress' || list.state === 'verified') return toListView(list);
    return (await countPendingEmails(deps.database.db, list.id)) === 0 ? toListView(list) : null;
  };
  const current = await alreadyStarted();
  if (current) return current;
  try {
    return await startListVerification(deps, ctx, { list_id: listId });
  } catch (err) {
    // Auto-pilot may have started it between the look and the start.
    const started = isAppError(err) && err.httpStatus === 409 ? await alreadyStarted() : null;
    if (started) return started;
    throw err;
  }
}

/**
 * Auto-pilot: once a list is analysed, its verification starts by itself when the uploader turned auto-pilot on
 * (same credit check as list/verify; when it cannot start, the reason is kept on the list). Idempotent.
 */
export async function startAutoPilot(deps: Pick<TDeps, 'database' | 'queue'>, listId: string): Promise<void> {
  const list = await selectListById(deps.database.db, listId);
  if (!list || list.analysisState !== 'ready' || list.state !== 'non_verified' || list.verifyJobId || list.uniqueCount === 0) return;
  const prefs = await getVerifierPreferences(deps.database.db, list);
  if (!prefs.autoPilot) return;
  // The uploader's context: credits and limits are theirs (the role plays no part in starting a list).
  const ctx: TCallerContext = { userId: list.userId, orgId: list.orgId, role: 'analyst', sessionId: null, via: 'session' };
  try {
    await startListVerification(deps, ctx, { list_id: listId });
  } catch (err) {
    if (!isAppError(err)) throw err;
    await updateList(deps.database.db, listId, { stoppedReason: `Auto-pilot could not start the verification: ${err.message}` });
  }
}

/** POST /email_verify/list/cancel: stops the job; finished results stay billed, the rest is never charged. */
export async function cancelListVerification(deps: TDeps, ctx: TCallerContext, listId: string): Promise<TVerifyList> {
  const list = await requireList(deps.database.db, ctx, listId);
  if (list.state !== 'in_progress') throw new AppError(409, 'conflict', 'Only a list being verified can be cancelled');
  const moved = await deps.database.transaction(async (tx) => {
    // The row lock waits for a batch being stored; once cancelled, no further batch is stored or charged (storeBatch).
    const current = await selectListForUpdate(tx, listId);
    if (!current || current.state !== 'in_progress') return false;
    if (!(await transitionList(tx, getVisibleScope(ctx), listId, ['in_progress'], { state: 'cancelled', activity: null, stoppedReason: 'Cancelled by the user' }))) return false;
    // What the cancelled list verified and charged shows in Activities (the list owner's, and the canceller's).
    const c = { ...EMPTY_COUNTERS, ...current.counters };
    const credits = `${c.billable} credit${c.billable === 1 ? '' : 's'} charged`;
    const entry = {
      orgId: list.orgId,
      type: 'verify' as const,
      description: `Cancelled the verification of "${list.name}": ${c.verified} of ${list.uniqueCount} addresses verified, ${credits}`,
      metadata: { list_id: listId, cancelled: true, verified: c.verified, credits_charged: c.billable },
    };
    await recordActivity(tx, { ...entry, userId: list.userId });
    if (ctx.userId !== list.userId) await recordActivity(tx, { ...entry, userId: ctx.userId });
    return true;
  });
  if (!moved) throw new AppError(409, 'conflict', 'Only a list being verified can be cancelled');
  if (list.verifyJobId) await deps.queue.cancel(list.verifyJobId, ctx.orgId);
  // Chunks not yet taken are dropped now; running ones stop at their next look at the list (about a second).
  await deps.queue.cancelWhere(VERIFY_CHUNK_JOB, { listId });
  // and so are its greylist re-checks: the waiting rows are never verified nor charged
  await deps.queue.cancelWhere(GREYLIST_RECHECK_JOB, { listId });
  return toListView((await selectList(deps.database.db, getVisibleScope(ctx), listId))!);
}

export async function checkListRemoval(exec: TDb, ctx: TCallerContext, listId: string): Promise<TListRemoveCheckData> {
  const list = await requireList(exec, ctx, listId);
  const busy = list.state === 'in_progress' || list.analysisState === 'processing' || list.analysisState === 'pending';
  return {
    list_id: list.id,
    can_remove: !busy,
    reason: busy ? (list.state === 'in_progress' ? 'The list is being verified; cancel it first' : 'The file is still being analysed') : null,
  };
}

export async function removeList(deps: TDeps, storage: TFileStorage, ctx: TCallerContext, listId: string): Promise<{ message: string }> {
  const check = await checkListRemoval(deps.database.db, ctx, listId);
  if (!check.can_remove) throw new AppError(409, 'conflict', check.reason ?? 'The list cannot be removed now');
  const list = await requireList(deps.database.db, ctx, listId);
  await deps.database.transaction((tx) => deleteList(tx, getVisibleScope(ctx), listId));
  await storage.remove(list.storageKey);
  return { message: 'List removed successfully' };
}
