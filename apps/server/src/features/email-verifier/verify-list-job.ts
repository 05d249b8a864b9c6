import { EMAIL_VERIFIER_EVENTS } from '@verilead/contracts';
import { storeWhileCreditsLast } from '../../platform/credits/store-while-credits-last';
import { enqueueRowChunks, type TRowChunk } from '../../platform/bulk/row-chunks';
import { finishListIfDone as finishBulkList, planListChunks, stopListJob } from '../../platform/bulk-lists/lifecycle';
import type { TDatabase } from '../../platform/db/database';
import type { AppError } from '../../platform/errors/app-error';
import type { TJobContext, TJobQueue } from '../../platform/jobs/jobs';
import { passCrashPoint } from '../../platform/jobs/crash-points';
import type { TVerifier } from '../../platform/verifier/verifier';
import { recordActivity } from '../activities';
import { recordEvent } from '../events';
import { getVerifierPreferences } from '../settings';
import { clearGreylistWaits, countPendingEmails, EMPTY_COUNTERS, selectPendingChunkStarts, selectPendingEmails, verifyListStore } from './queries';
import { computeProgress, computeStats } from './list-view';
import { GREYLIST_RECHECK_JOB, storeRowOutcomes, type TRowOutcome } from './store-results';

/**
 * Bulk verification in chunks, so any number of worker processes share one list. `verify` (the plan) splits the
 * list's pending rows into chunk jobs of config.jobs.chunkSize rows, once per start; each `verify_chunk` verifies,
 * stores and charges its rows exactly once. Progress and cancel are state on the list, read by every chunk.
 */
export const VERIFY_JOB = 'email_verifier.verify';
export const VERIFY_CHUNK_JOB = 'email_verifier.verify_chunk';

/** The plan: enqueues the chunk jobs of a started list in one transaction (a retried plan enqueues nothing twice). */
export function planVerifyChunks(deps: { database: TDatabase; queue: TJobQueue; chunkSize: number }, listId: string, jobId: string): Promise<number> {
  return planListChunks(deps.database, verifyListStore, listId, jobId, {
    // a new start verifies the rows an earlier run left waiting for a greylist re-check afresh
    beforePlan: clearGreylistWaits,
    enqueueChunks: async (tx, list) => enqueueRowChunks(deps.queue, tx, VERIFY_CHUNK_JOB, list, await selectPendingChunkStarts(tx, listId, deps.chunkSize)),
    finish: () => finishListIfDone(deps.database, listId),
  });
}

const FLUSH_SIZE = 100;
const FLUSH_MS = 1_000;
const PAGE = 500;

/**
 * One chunk job: verifies the unique addresses of rows `fromRow`…`toRow` that have no result yet, through
 * verifyMany, storing and charging every ~100 results in one transaction. A greylisted address is not waited for:
 * its row waits for a re-check on the mode's greylist schedule (greylist-recheck-job.ts) while the chunk goes on. Idempotent and resumable: a retried chunk
 * (its worker died) verifies only what is still pending. When credits run out it stops the whole list and drops the
 * list's queued chunks; when it was the last chunk with work, it finishes the list.
 */
export async function runVerifyChunk(
  deps: { database: TDatabase; queue: TJobQueue },
  verifier: TVerifier,
  chunk: TRowChunk,
  job: Pick<TJobContext, 'reportProgress' | 'isCancelled'>,
): Promise<void> {
  const { database } = deps;
  const { listId, fromRow, toRow } = chunk;
  const list = await verifyListStore.selectById(database.db, listId);
  if (!list || list.state !== 'in_progress') return;
  const prefs = await getVerifierPreferences(database.db, { userId: list.userId, orgId: list.orgId });
  const rowsByEmail = new Map<string, number>();
  let stop = false;

  async function* pending(): AsyncGenerator<string> {
    let after = fromRow - 1;
    for (;;) {
      const page = await selectPendingEmails(database.db, listId, after, PAGE, toRow);
      if (page.length === 0) return;
      for (const r of page) {
        if (stop) return;
        rowsByEmail.set(r.email, r.rowNumber);
        yield r.email;
      }
      after = page[page.length - 1]!.rowNumber;
    }
  }

  const isStopped = async () => {
    if (await job.isCancelled()) return true;
    const now = await verifyListStore.selectById(database.db, listId);
    return !now || now.state !== 'in_progress';
  };

  let batch: TRowOutcome[] = [];
  let lastFlush = Date.now();
  let creditError: AppError | null = null;

  /** Stores a batch; when credits run out, keeps what can still be paid one by one, then stops the list. */
  const store = async (items: TRowOutcome[]) => {
    const refused = await storeWhileCreditsLast(items, (batch) => storeRowOutcomes(deps, list, batch));
    if (refused) {
      creditError ??= refused;
      stop = true;
    } else {
      // A test's worker may die here (crash-points.ts): these rows stored and charged, the chunk not yet done.
      passCrashPoint('verify_chunk.stored', items.length);
    }
  };

  // One store runs in the background while the engine keeps verifying (at most one in flight).
  let storing: Promise<void> = Promise.resolve();
  let storeError: unknown = null;
  const storeInBackground = (items: TRowOutcome[]) => {
    storing = storing.then(async () => {
      if (stop || storeError) return;
      try {
        await store(items);
      } catch (err) {
        storeError = err;
        stop = true;
      }
    });
  };

  const mode = list.mode ?? prefs.mode;
  const schedule = verifier.greylistSchedule(mode);
  // with a schedule, greylisted addresses wait for a re-check job instead of holding this chunk for minutes
  const greylisting = schedule.length > 0 ? 'defer' : 'last';
  try {
    for await (const result of verifier.verifyMany(pending(), { mode, gibberishThreshold: prefs.gibberishThreshold, wbList: prefs.wbList, greylisting })) {
      const rowNumber = rowsByEmail.get(result.email);
      if (rowNumber === undefined) continue;
      rowsByEmail.delete(result.email);
      if (greylisting === 'defer' && result.reason.code === 'greylisted') {
        batch.push({ rowNumber, wait: { at: new Date(Date.now() + schedule[0]!), rechecks: 0, expectRechecks: 0 } });
      } else batch.push({ rowNumber, result });
      if (batch.length >= FLUSH_SIZE || Date.now() - lastFlush >= FLUSH_MS) {
        await storing;
        if (stop) break;
        if (await isStopped()) {
          // Cancelled: what was stored before the cancel stays billed; the rest is dropped, never charged.
          stop = true;
          break;
        }
        const items = batch;
        batch = [];
        lastFlush = Date.now();
        storeInBackground(items);
        const now = await verifyListStore.selectById(database.db, listId);
        if (now) await job.reportProgress(computeProgress(now));
      }
    }
  } finally {
    await storing;
  }
  if (storeError) throw storeError;
  if (!stop && !(await isStopped())) await store(batch);

  const failure = creditError as AppError | null;
  if (failure) return stopListForCredits(deps, listId, failure);
  await finishListIfDone(database, listId);
}

/** Credits ran out: the list stops with the reason, its queued chunk and re-check jobs are dropped. */
export function stopListForCredits(deps: { database: TDatabase; queue: TJobQueue }, listId: string, failure: AppError): Promise<void> {
  return stopListJob(deps, verifyListStore, listId, {
    values: { state: 'non_verified', activity: null, stoppedReason: failure.message },
    describe: (list) => ({ type: 'failed', description: `Verifying the list "${list.name}" stopped: ${failure.message}`, metadata: { job: 'verify', list_id: listId } }),
    recordActivity,
    dropJobs: [VERIFY_CHUNK_JOB, GREYLIST_RECHECK_JOB],
  });
}

/** Marks the list verified once nothing is pending (no row waits for a greylist re-check either), and records `email_verifier.bulk.completed` in the same transaction. */
export function finishListIfDone(database: TDatabase, listId: string): Promise<void> {
  return finishBulkList(database, verifyListStore, listId, {
    // A cheap first look (the counters move with every stored batch): count the pending rows only once it looks done.
    looksDone: (look) => ({ ...EMPTY_COUNTERS, ...look.counters }.verified >= look.uniqueCount),
    countPending: countPendingEmails,
    values: () => ({ state: 'verified' as const, activity: null, verifiedAt: new Date(), stoppedReason: null }),
    onDone: async (tx, list, done) => {
      await recordActivity(tx, {
        orgId: list.orgId,
        userId: list.userId,
        type: 'verify',
        description: `Verified the list "${list.name}" (${list.uniqueCount} addresses)`,
        metadata: { list_id: listId },
      });
      await recordEvent(tx, {
        orgId: list.orgId,
        userId: list.userId,
        type: EMAIL_VERIFIER_EVENTS.bulkCompleted,
        payload: { list_id: listId, name: list.name, stats: computeStats(done), verified_at: done.verifiedAt?.toISOString() ?? null },
      });
    },
  });
}
