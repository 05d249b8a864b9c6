import type { TVerificationResult } from '@verilead/contracts';
import { addChargedAppUsage } from '../../platform/credits/app-usage';
import { chargeCredits } from '../../platform/credits/ledger';
import type { TDatabase, TDb } from '../../platform/db/database';
import type { TJobQueue } from '../../platform/jobs/jobs';
import { EMPTY_COUNTERS, markRowsWaiting, selectGreylistWait, storeEmailResults, type TListRow, verifyListStore } from './queries';
import { isBillable } from './list-view';
import { addCatchAllScores } from './catch-all-evidence';
import type { TListCounters } from './tables';

/** The greylist re-check job: re-verifies a list's rows whose greylist wait is over (see greylist-recheck-job.ts). */
export const GREYLIST_RECHECK_JOB = 'email_verifier.greylist_recheck';

/**
 * What a bulk verification hands to the store: a final result (stored and charged once), or a greylisted row that
 * waits for a re-check at `wait.at` (no result, no charge yet).
 */
export type TRowOutcome =
  | { rowNumber: number; result: TVerificationResult; wait?: undefined }
  | { rowNumber: number; result?: undefined; wait: { at: Date; rechecks: number; expectRechecks: number } };

/** Adds a result to a list's counters (`sign` -1 takes a row's previous result out of them, for a re-check). */
export function addToCounters(c: TListCounters, r: Pick<TVerificationResult, 'status' | 'disposable' | 'gibberish' | 'free_account' | 'role_account' | 'safe_to_send' | 'deliverability_score'>, billable: boolean, sign: 1 | -1 = 1): void {
  c.verified += sign;
  c[r.status] += sign;
  if (r.disposable) c.disposable += sign;
  if (r.gibberish) c.gibberish += sign;
  if (r.free_account) c.free_account += sign;
  if (r.role_account) c.role_account += sign;
  if (billable) c.billable += sign;
  if (r.safe_to_send === 'yes') c.safe_to_send += sign;
  if (r.status === 'valid') c.valid_score_sum += sign * r.deliverability_score;
}

/** What a bulk row keeps of a result (everything but the transcript). */
export function toStoredResult(r: TVerificationResult): Record<string, unknown> {
  const { transcript: _transcript, ...rest } = r;
  return rest;
}

/**
 * Stores a batch in one transaction: results with their charges and counters (a row that already has a result is
 * skipped and never charged again), greylisted rows as waiting, and the list's waiting count and next re-check time.
 * When the earliest re-check moves earlier (or is the first), a re-check job is queued for it in the same
 * transaction. Throws the ledger's 402/403 when credits run out (nothing of the batch is kept then).
 */
export async function storeRowOutcomes(deps: { database: TDatabase; queue: TJobQueue }, list: TListRow, outcomes: TRowOutcome[]): Promise<void> {
  // Catch-all verdicts get their score (stored with the row's result) from the list's organisation's evidence, read
  // before the transaction so it holds no lock while reading.
  const scored = await addCatchAllScores(deps.database.db, list.orgId, outcomes.flatMap((o) => (o.result ? [o.result] : [])));
  let next = 0;
  const batch = outcomes.map((o): TRowOutcome => (o.result ? { rowNumber: o.rowNumber, result: scored[next++]! } : o));
  await deps.database.transaction(async (tx) => {
    const current = await verifyListStore.selectForUpdate(tx, list.id);
    // A cancelled (or stopped) list stores and charges nothing more: what it charged was told at the cancel.
    if (!current || current.state !== 'in_progress') return;
    const counters = { ...EMPTY_COUNTERS, ...current.counters };
    const finals = batch.flatMap((o) => (o.result ? [{ rowNumber: o.rowNumber, result: o.result, billable: isBillable(o.result) }] : []));
    const waits = batch.flatMap((o) => (o.wait ? [{ rowNumber: o.rowNumber, recheckAt: o.wait.at, rechecks: o.wait.rechecks, expectRechecks: o.wait.expectRechecks }] : []));
    const stored = await storeEmailResults(
      tx,
      list.id,
      finals.map((p) => ({ rowNumber: p.rowNumber, status: p.result.status, billable: p.billable, result: toStoredResult(p.result) })),
    );
    let charged = 0;
    for (const p of finals) {
      if (!stored.has(p.rowNumber)) continue;
      if (p.billable) {
        charged += 1;
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
    // A list uploaded with an app's token counts its charges in the app's usage, in this same transaction.
    await addChargedAppUsage(tx, current.appId, charged);
    await markRowsWaiting(tx, list.id, waits);
    if (waits.length === 0 && current.greylistWaiting === 0) {
      await verifyListStore.update(tx, list.id, { counters });
      return;
    }
    const wait = await selectGreylistWait(tx, list.id);
    await verifyListStore.update(tx, list.id, { counters, greylistWaiting: wait.waiting, greylistRecheckAt: wait.nextAt });
    const before = current.greylistWaiting > 0 ? current.greylistRecheckAt : null;
    if (wait.nextAt && waits.length > 0 && (!before || wait.nextAt < before)) await enqueueRecheck(deps.queue, tx, list, wait.nextAt);
  });
}

/** Queues the re-check of a list's rows due by `dueAt`, to start then (inside the caller's transaction when given). */
export async function enqueueRecheck(queue: TJobQueue, tx: TDb | undefined, list: Pick<TListRow, 'id' | 'orgId' | 'userId'>, dueAt: Date): Promise<void> {
  await queue.enqueue(
    GREYLIST_RECHECK_JOB,
    { listId: list.id, dueAt: dueAt.toISOString() },
    { tx, orgId: list.orgId, userId: list.userId, maxAttempts: 20, backoffMs: 2_000, delayMs: Math.max(0, dueAt.getTime() - Date.now()) },
  );
}
