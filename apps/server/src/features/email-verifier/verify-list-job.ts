import { EMAIL_VERIFIER_EVENTS, type TVerificationMode, type TVerificationResult } from '@verilead/contracts';
import { chargeCredits } from '../../platform/credits/ledger';
import { storeWhileCreditsLast } from '../../platform/credits/store-while-credits-last';
import { enqueueRowChunks, type TRowChunk } from '../../platform/bulk/row-chunks';
import type { TDatabase } from '../../platform/db/database';
import type { AppError } from '../../platform/errors/app-error';
import type { TJobContext, TJobQueue } from '../../platform/jobs/jobs';
import type { TVerifier } from '../../platform/verifier/verifier';
import { recordActivity } from '../activities/service';
import { recordEvent } from '../events/service';
import { getVerifierPreferences } from '../settings/service';
import {
  countPendingEmails,
  EMPTY_COUNTERS,
  selectChunkStarts,
  selectListById,
  selectListForUpdate,
  selectPendingEmails,
  storeEmailResults,
  updateList,
  type TListRow,
} from './queries';
import { computeProgress, computeStats, isBillable } from './list-view';
import type { TListCounters } from './tables';

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
    const enqueued = await enqueueRowChunks(deps.queue, tx, VERIFY_CHUNK_JOB, list, await selectChunkStarts(tx, listId, deps.chunkSize));
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

function addToCounters(c: TListCounters, r: TVerificationResult, billable: boolean): void {
  c.verified += 1;
  c[r.status] += 1;
  if (r.disposable) c.disposable += 1;
  if (r.gibberish) c.gibberish += 1;
  if (r.free_account) c.free_account += 1;
  if (r.role_account) c.role_account += 1;
  if (billable) c.billable += 1;
  if (r.safe_to_send === 'yes') c.safe_to_send += 1;
  if (r.status === 'valid') c.valid_score_sum += r.deliverability_score;
}

/** What a bulk row keeps of a result (everything but the transcript). */
function toStoredResult(r: TVerificationResult): Record<string, unknown> {
  const { transcript: _transcript, ...rest } = r;
  return rest;
}

type TPending = { rowNumber: number; result: TVerificationResult };

/**
 * Stores results with their charges in one transaction: a row that already has a result is skipped and never
 * charged again. Throws the ledger's 402/403 when credits run out (nothing of the batch is kept then).
 */
async function storeBatch(database: TDatabase, list: TListRow, batch: TPending[]): Promise<void> {
  await database.transaction(async (tx) => {
    const current = await selectListForUpdate(tx, list.id);
    // A cancelled (or stopped) list stores and charges nothing more: what it charged was told at the cancel.
    if (!current || current.state !== 'in_progress') return;
    const counters = { ...EMPTY_COUNTERS, ...current.counters };
    const prepared = batch.map(({ rowNumber, result }) => ({ rowNumber, result, status: result.status, billable: isBillable(result) }));
    const stored = await storeEmailResults(
      tx,
      list.id,
      prepared.map((p) => ({ rowNumber: p.rowNumber, status: p.status, billable: p.billable, result: toStoredResult(p.result) })),
    );
    for (const p of prepared) {
      if (!stored.has(p.rowNumber)) continue;
      if (p.billable) {
        await chargeCredits(tx, {
          orgId: list.orgId,
          userId: list.userId,
          amount: 1,
          reason: 'Bulk verification',
          sourceAgent: 'bulk_verify',
          objectType: 'verify_list_email',
          objectId: `${list.id}:${p.rowNumber}`,
        });
      }
      addToCounters(counters, p.result, p.billable);
    }
    await updateList(tx, list.id, { counters });
  });
}

/**
 * One chunk job: verifies the unique addresses of rows `fromRow`…`toRow` that have no result yet, through
 * verifyMany, storing and charging every ~100 results in one transaction. Idempotent and resumable: a retried chunk
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

  let batch: TPending[] = [];
  let lastFlush = Date.now();
  let creditError: AppError | null = null;

  /** Stores a batch; when credits run out, keeps what can still be paid one by one, then stops the list. */
  const store = async (items: TPending[]) => {
    const refused = await storeWhileCreditsLast(items, (batch) => storeBatch(database, list, batch));
    if (refused) {
      creditError ??= refused;
      stop = true;
    }
  };

  // One store runs in the background while the engine keeps verifying (at most one in flight).
  let storing: Promise<void> = Promise.resolve();
  let storeError: unknown = null;
  const storeInBackground = (items: TPending[]) => {
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
  try {
    for await (const result of verifier.verifyMany(pending(), { mode, gibberishThreshold: prefs.gibberishThreshold, wbList: prefs.wbList })) {
      const rowNumber = rowsByEmail.get(result.email);
      if (rowNumber === undefined) continue;
      rowsByEmail.delete(result.email);
      batch.push({ rowNumber, result });
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
  if (failure) {
    await updateList(database.db, listId, { state: 'non_verified', activity: null, stoppedReason: failure.message });
    await deps.queue.cancelWhere(VERIFY_CHUNK_JOB, { listId });
    return;
  }
  await finishListIfDone(database, listId);
}

/** Marks the list verified once nothing is pending, and records `email_verifier.bulk.completed` in the same transaction. */
async function finishListIfDone(database: TDatabase, listId: string): Promise<void> {
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

