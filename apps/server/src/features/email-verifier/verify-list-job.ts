import { EMAIL_VERIFIER_EVENTS, type TVerificationMode } from '@verilead/contracts';
import { storeWhileCreditsLast } from '../../platform/credits/store-while-credits-last';
import { enqueueRowChunks, type TRowChunk } from '../../platform/bulk/row-chunks';
import type { TDatabase } from '../../platform/db/database';
import type { AppError } from '../../platform/errors/app-error';
import type { TJobContext, TJobQueue } from '../../platform/jobs/jobs';
import type { TVerifier } from '../../platform/verifier/verifier';
import { recordActivity } from '../activities';
import { recordEvent } from '../events';
import { getVerifierPreferences } from '../settings';
import {
  clearGreylistWaits,
  countPendingEmails,
  EMPTY_COUNTERS,
  selectListById,
  selectListForUpdate,
  selectPendingChunkStarts,
  selectPendingEmails,
  transitionList,
  updateList,
} from './queries';
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
export async function planVerifyChunks(deps: { database: TDatabase; queue: TJobQueue; chunkSize: number }, listId: string, jobId: string): Promise<number> {
  const planned = await deps.database.transaction(async (tx) => {
    const list = await selectListForUpdate(tx, listId);
    if (!list || list.state !== 'in_progress' || list.plannedJobId === jobId) return null;
    // a new start verifies the rows an earlier run left waiting for a greylist re-check afresh
    await clearGreylistWaits(tx, listId);
    const enqueued = await enqueueRowChunks(deps.queue, tx, VERIFY_CHUNK_JOB, list, await selectPendingChunkStarts(tx, listId, deps.chunkSize));
    await updateList(tx, listId, { plannedJobId: jobId });
    return enqueued;
  });
  // Nothing was pending (every row already had a result): the list is done now.
  if (planned === 0) await finishListIfDone(deps.database, listId);
  return planned ?? 0;
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
  const list = await selectListById(database.db, listId);
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
    const now = await selectListById(database.db, listId);
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

  const mode = (list.mode as TVerificationMode | null) ?? prefs.mode;
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
        const now = await selectListById(database.db, listId);
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
export async function stopListForCredits(deps: { database: TDatabase; queue: TJobQueue }, listId: string, failure: AppError): Promise<void> {
  // Only the job that moves the list records the stop (several chunks may run out of credits at once).
  await deps.database.transaction(async (tx) => {
    const list = await selectListById(tx, listId);
    if (!list || !(await transitionList(tx, { orgId: list.orgId }, listId, ['in_progress'], { state: 'non_verified', activity: null, stoppedReason: failure.message }))) return;
    await recordActivity(tx, { orgId: list.orgId, userId: list.userId, type: 'failed', description: `Verifying the list "${list.name}" stopped: ${failure.message}`, metadata: { job: 'verify', list_id: listId } });
  });
  await deps.queue.cancelWhere(VERIFY_CHUNK_JOB, { listId });
  await deps.queue.cancelWhere(GREYLIST_RECHECK_JOB, { listId });
}

/** Marks the list verified once nothing is pending (no row waits for a greylist re-check either), and records `email_verifier.bulk.completed` in the same transaction. */
export async function finishListIfDone(database: TDatabase, listId: string): Promise<void> {
  // A cheap first look (the counters move with every stored batch): count the pending rows only once it looks done.
  const look = await selectListById(database.db, listId);
  if (!look || look.state !== 'in_progress' || { ...EMPTY_COUNTERS, ...look.counters }.verified < look.uniqueCount) return;
  const remaining = await countPendingEmails(database.db, listId);
  if (remaining > 0) return;
  await database.transaction(async (tx) => {
    const list = await selectListForUpdate(tx, listId);
    if (!list || list.state !== 'in_progress') return;
    await updateList(tx, listId, { state: 'verified', activity: null, verifiedAt: new Date(), stoppedReason: null });
    const done = (await selectListById(tx, listId))!;
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
  });
}

