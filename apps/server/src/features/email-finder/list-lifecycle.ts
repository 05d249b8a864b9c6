import { type TFinderList } from '@verilead/contracts';
import { cancelListJob, removeBulkList, startListJob } from '../../platform/bulk-lists/lifecycle';
import type { TDeps } from '../../platform/deps';
import { AppError } from '../../platform/errors/app-error';
import type { TFileStorage } from '../../platform/storage/storage';
import type { TCallerContext } from '../../platform/tenancy/context';
import { recordActivity } from '../activities';
import { countPendingRows, EMPTY_FINDER_COUNTERS, finderListStore } from './queries';
import { FIND_CHUNK_JOB, FIND_EMAILS_JOB } from './find-list-job';
import { requireCredits } from './finder-support';
import { requireList } from './list-access';
import { toListView } from './list-view';

/** POST /email_finder/list/find_emails: starts (or resumes) the durable find_emails job. */
export async function startFindEmails(deps: Pick<TDeps, 'database' | 'queue'>, ctx: TCallerContext, listId: string): Promise<TFinderList> {
  const { database } = deps;
  const list = await requireList(database.db, ctx, listId);
  if (list.activity === 'analyse') throw new AppError('conflict', 'The file is still being read; please wait a moment');
  if (list.state === 'in_progress') throw new AppError('conflict', 'The list is already being processed');
  const remaining = await countPendingRows(database.db, list.id);
  if (remaining === 0) throw new AppError('conflict', 'Every row of this list is already processed');
  // Only found addresses are charged, so the job starts with at least one credit and stops cleanly when they run out.
  await requireCredits(database.db, ctx);
  const row = await startListJob(deps, finderListStore, ctx, list.id, {
    jobName: FIND_EMAILS_JOB,
    busyMessage: 'The list is already being processed',
    values: { activity: 'find_emails' },
  });
  return toListView(row);
}

/** POST /email_finder/list/cancel: stops the job; what finished stays (and is billed when found), the rest is never charged. */
export async function cancelFindEmails(deps: TDeps, ctx: TCallerContext, listId: string): Promise<TFinderList> {
  const row = await cancelListJob(deps, finderListStore, ctx, listId, {
    refusal: 'Only a list being processed can be cancelled',
    cancel: (current) => {
      // A list whose file is still being read (the public API's upload-and-find) is cancelled too: its analysis ends, nothing starts.
      const analysing = current.state === 'not_processed' && current.activity === 'analyse';
      if (current.state !== 'in_progress' && !analysing) return null;
      return { from: current.state, values: { state: 'cancelled' as const, activity: analysing ? ('analyse' as const) : null, stoppedReason: 'Cancelled by the user' } };
    },
    describe: (current) => {
      const c = { ...EMPTY_FINDER_COUNTERS, ...current.counters };
      return {
        type: 'find_emails',
        description: `Cancelled the search of "${current.name}": ${c.processed} of ${current.searchableCount} people searched, ${c.billable} credit${c.billable === 1 ? '' : 's'} charged`,
        metadata: { list_id: listId, cancelled: true, processed: c.processed, credits_charged: c.billable },
      };
    },
    recordActivity,
    // Chunks not yet taken are dropped now; running ones stop at their next batch.
    dropJobs: [FIND_CHUNK_JOB],
  });
  return toListView(row);
}

export function removeFinderList(deps: TDeps, storage: TFileStorage, ctx: TCallerContext, listId: string): Promise<{ message: string }> {
  return removeBulkList(deps.database, storage, finderListStore, ctx, listId, (list) => {
    if (list.state === 'in_progress') return 'The list is being processed; cancel it first';
    if (list.activity === 'analyse') return 'The file is still being read; please wait a moment';
    return null;
  });
}
