import {
  type TListRemoveCheckData,
  type TProgressStatusData,
  type TVerificationMode,
  type TVerifyList,
  type TVerifyListsData,
  type ZVerifyListsRequest,
} from '@verilead/contracts';
import type { z } from 'zod';
import { cancelListJob, removeBulkList, startListJob } from '../../platform/bulk-lists/lifecycle';
import { readListPage, readPausedReasons } from '../../platform/bulk-lists/list-views';
import type { TDb } from '../../platform/db/database';
import type { TDeps } from '../../platform/deps';
import { AppError, isAppError } from '../../platform/errors/app-error';
import type { TFileStorage } from '../../platform/storage/storage';
import type { TCallerContext } from '../../platform/tenancy/context';
import { recordActivity } from '../activities';
import { assertCreditsAvailable } from '../credits';
import { getVerifierPreferences } from '../settings';
import { countPendingEmails, EMPTY_COUNTERS, type TListRow, verifyListStore } from './queries';
import { toListView } from './list-view';
import { VERIFY_CHUNK_JOB, VERIFY_JOB } from './verify-list-job';
import { requireList } from './list-access';
import { GREYLIST_RECHECK_JOB } from './store-results';

export function listVerifyLists(exec: TDb, ctx: TCallerContext, q: z.output<typeof ZVerifyListsRequest>): Promise<TVerifyListsData> {
  return readListPage(exec, verifyListStore, ctx, q, toListView);
}

export async function getProgressStatus(exec: TDb, ctx: TCallerContext, listId: string): Promise<TProgressStatusData> {
  const row = await requireList(exec, ctx, listId);
  const view = toListView(row, (await readPausedReasons(exec, row.orgId, [row])).get(row.id) ?? null);
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
    paused_reason: view.paused_reason,
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
    throw new AppError('conflict', list.analysisState === 'failed' ? `The file could not be analysed: ${list.analysisError}` : 'The file is still being analysed; please wait');
  }
  if (list.state === 'in_progress') throw new AppError('conflict', 'The list is already being verified');
  const remaining = await countPendingEmails(database.db, list.id);
  if (remaining === 0) throw new AppError('conflict', 'Every address of this list is already verified');
  await assertCreditsAvailable(database.db, ctx, remaining);
  const row = await startListJob(deps, verifyListStore, ctx, list.id, {
    jobName: VERIFY_JOB,
    busyMessage: 'The list is already being verified',
    values: { activity: 'verify', mode: input.mode ?? null },
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
    const started = isAppError(err) && err.code === 'conflict' ? await alreadyStarted() : null;
    if (started) return started;
    throw err;
  }
}

/**
 * Auto-pilot: once a list is analysed, its verification starts by itself when the uploader turned auto-pilot on
 * (same credit check as list/verify; when it cannot start, the reason is kept on the list). Idempotent.
 */
export async function startAutoPilot(deps: Pick<TDeps, 'database' | 'queue'>, listId: string): Promise<void> {
  const list = await verifyListStore.selectById(deps.database.db, listId);
  if (!list || list.analysisState !== 'ready' || list.state !== 'non_verified' || list.jobId || list.uniqueCount === 0) return;
  const prefs = await getVerifierPreferences(deps.database.db, list);
  if (!prefs.autoPilot) return;
  // The uploader's context: credits and limits are theirs (the role plays no part in starting a list).
  const ctx: TCallerContext = { userId: list.userId, orgId: list.orgId, role: 'analyst', sessionId: null, via: 'session' };
  try {
    await startListVerification(deps, ctx, { list_id: listId });
  } catch (err) {
    if (!isAppError(err)) throw err;
    await verifyListStore.update(deps.database.db, listId, { stoppedReason: `Auto-pilot could not start the verification: ${err.message}` });
  }
}

/** POST /email_verify/list/cancel: stops the job; finished results stay billed, the rest is never charged. */
export async function cancelListVerification(deps: TDeps, ctx: TCallerContext, listId: string): Promise<TVerifyList> {
  const row = await cancelListJob(deps, verifyListStore, ctx, listId, {
    refusal: 'Only a list being verified can be cancelled',
    cancel: (current) => (current.state === 'in_progress' ? { from: 'in_progress', values: { state: 'cancelled' as const, activity: null, stoppedReason: 'Cancelled by the user' } } : null),
    // What the cancelled list verified and charged shows in Activities (the list owner's, and the canceller's).
    describe: (current) => {
      const c = { ...EMPTY_COUNTERS, ...current.counters };
      const credits = `${c.billable} credit${c.billable === 1 ? '' : 's'} charged`;
      return {
        type: 'verify',
        description: `Cancelled the verification of "${current.name}": ${c.verified} of ${current.uniqueCount} addresses verified, ${credits}`,
        metadata: { list_id: listId, cancelled: true, verified: c.verified, credits_charged: c.billable },
      };
    },
    recordActivity,
    // Chunks not yet taken are dropped, and so are its greylist re-checks (the waiting rows are never verified nor charged).
    dropJobs: [VERIFY_CHUNK_JOB, GREYLIST_RECHECK_JOB],
  });
  return toListView(row);
}

/** Why a list cannot be removed now (null when it can): its verification or its analysis still runs. */
function removalBlocker(list: TListRow): string | null {
  if (list.state === 'in_progress') return 'The list is being verified; cancel it first';
  if (list.analysisState === 'processing' || list.analysisState === 'pending') return 'The file is still being analysed';
  return null;
}

export async function checkListRemoval(exec: TDb, ctx: TCallerContext, listId: string): Promise<TListRemoveCheckData> {
  const list = await requireList(exec, ctx, listId);
  const reason = removalBlocker(list);
  return { list_id: list.id, can_remove: reason === null, reason };
}

export function removeList(deps: TDeps, storage: TFileStorage, ctx: TCallerContext, listId: string): Promise<{ message: string }> {
  return removeBulkList(deps.database, storage, verifyListStore, ctx, listId, removalBlocker);
}
