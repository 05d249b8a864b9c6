import { addChargedAppUsage } from '../../platform/credits/app-usage';
import { chargeCredits, getOrgBalance, isOutOfCredits } from '../../platform/credits/ledger';
import type { TDatabase, TDb } from '../../platform/db/database';
import type { TJobContext, TJobQueue } from '../../platform/jobs/jobs';
import type { TVerifier } from '../../platform/verifier/verifier';
import type { TVerificationResult } from '@verilead/contracts';
import { recordActivity } from '../activities';
import { getVerifierPreferences } from '../settings';
import { addCatchAllScores } from './catch-all-evidence';
import { isBillable } from './list-view';
import { EMPTY_COUNTERS, verifyListStore, type TListRow } from './queries';
import {
  countRunTargets,
  insertRowChanges,
  selectRun,
  selectRunTargets,
  selectRunTransitions,
  selectTargetsForUpdate,
  storeRunResults,
  updateRun,
  updateSchedule,
  type TRunRow,
} from './reverify-queries';
import { addToCounters, toStoredResult } from './store-results';

/**
 * A run of a list that stays verified (job `email_verifier.reverify_run`, one per run, any worker): a scheduled run
 * re-checks the unique rows whose result is older than the run's cutoff, a `new_contacts` run verifies the rows a
 * platform sync appended. Before any work the run is priced (1 credit per address at most) and skipped, with its
 * reason on the list and in Activities, when the organisation cannot pay it all; then pages of rows are verified and
 * each page stored, charged and counted in one transaction, only on rows still due (a retried job re-checks only what
 * is left; a row is charged once per run). When it ends, the composition root's `afterRun` (a platform list's
 * write-back) is queued in the same transaction.
 */
export const REVERIFY_RUN_JOB = 'email_verifier.reverify_run';

/** What a finished run tells the features above (the integrations' write-back of its changes). */
export type TFinishedRun = Pick<TRunRow, 'id' | 'listId' | 'orgId' | 'userId' | 'kind' | 'changed' | 'rechecked'>;
export type TReverifyHooks = { afterRun?: (tx: TDb, run: TFinishedRun) => Promise<void> };
export type TReverifyDeps = { database: TDatabase; queue: TJobQueue; clock: () => Date };

const PAGE = 100;

export async function runReverify(deps: TReverifyDeps, verifier: TVerifier, hooks: TReverifyHooks, runId: string, job: Pick<TJobContext, 'isCancelled'>): Promise<void> {
  const { database } = deps;
  const first = await selectRun(database.db, runId);
  if (!first || !['queued', 'running'].includes(first.state)) return;
  const list = await verifyListStore.selectById(database.db, first.listId);
  if (!list) return;
  const run = first.state === 'queued' ? await startRun(deps, first, list) : first;
  if (!run || run.state !== 'running') return;

  const prefs = await getVerifierPreferences(database.db, { userId: list.userId, orgId: list.orgId });
  const mode = list.mode ?? prefs.mode;
  let after = 0;
  for (;;) {
    if (await job.isCancelled()) return;
    const rows = await selectRunTargets(database.db, list.id, run, after, PAGE);
    if (rows.length === 0) break;
    after = rows[rows.length - 1]!.row_number;
    const byEmail = new Map(rows.map((r) => [r.email, r.row_number]));
    const results: { rowNumber: number; result: TVerificationResult }[] = [];
    for await (const result of verifier.verifyMany(
      rows.map((r) => r.email),
      { mode, gibberishThreshold: prefs.gibberishThreshold, wbList: prefs.wbList, greylisting: 'last' },
    )) {
      const rowNumber = byEmail.get(result.email);
      if (rowNumber !== undefined) results.push({ rowNumber, result });
    }
    const scored = await addCatchAllScores(database.db, list.orgId, results.map((r) => r.result));
    try {
      const going = await storeRunPage(deps, run, results.map((r, i) => ({ rowNumber: r.rowNumber, result: scored[i]! })));
      if (!going) return;
    } catch (err) {
      if (!isOutOfCredits(err)) throw err;
      await endRun(deps, run, { state: 'stopped', reason: `Stopped: ${err.message}` }, {});
      return;
    }
  }
  await endRun(deps, run, { state: 'completed', reason: null }, hooks);
}

/** Prices a queued run and starts it, or skips it with the reason (not enough credits, the list busy). */
async function startRun(deps: TReverifyDeps, run: TRunRow, list: TListRow): Promise<TRunRow | null> {
  const planned = await countRunTargets(deps.database.db, list.id, run);
  let skipped: string | null = null;
  const started = await deps.database.transaction(async (tx) => {
    const current = await selectRun(tx, run.id, true);
    if (!current || current.state !== 'queued') return current;
    const balance = await getOrgBalance(tx, run.orgId);
    if (list.state === 'in_progress' && run.kind === 'scheduled') skipped = 'Skipped: the list was being verified when the run was due';
    else if (balance < planned) skipped = `Skipped: not enough credits (this run needs up to ${planned} credits, the organisation has ${balance})`;
    if (!skipped) {
      await updateRun(tx, run.id, { state: 'running', planned, startedAt: deps.clock() });
      return { ...current, state: 'running' as const, planned };
    }
    return current;
  });
  if (skipped) {
    await endRun(deps, run, { state: 'skipped', reason: skipped, planned }, {});
    return null;
  }
  return started;
}

/**
 * Stores one page of a run in one transaction: the rows still due are locked, their new results stored with the
 * previous one kept in `verify_list_row_changes`, each billable result charged once (the ledger entry names the run),
 * the list's counters moved from the old result to the new. Answers false when the run was stopped meanwhile.
 */
async function storeRunPage(deps: TReverifyDeps, run: TRunRow, page: { rowNumber: number; result: TVerificationResult }[]): Promise<boolean> {
  const at = deps.clock();
  return deps.database.transaction(async (tx) => {
    const list = await verifyListStore.selectForUpdate(tx, run.listId);
    const current = await selectRun(tx, run.id, true);
    if (!list || !current || current.state !== 'running') return false;
    const due = new Map((await selectTargetsForUpdate(tx, run.listId, run, page.map((p) => p.rowNumber))).map((r) => [r.row_number, r]));
    const counters = { ...EMPTY_COUNTERS, ...list.counters };
    const stored: { rowNumber: number; status: string; result: Record<string, unknown>; billable: boolean }[] = [];
    let charged = 0;
    let changed = 0;
    for (const { rowNumber, result } of page) {
      const previous = due.get(rowNumber);
      if (!previous) continue; // re-checked already (a retried job), or no longer the run's
      const billable = isBillable(result);
      if (billable) {
        charged += 1;
        await chargeCredits(tx, {
          orgId: run.orgId,
          userId: run.userId,
          amount: 1,
          reason: run.kind === 'scheduled' ? 'List re-verification' : 'New contact verification',
          sourceAgent: 'bulk_verify',
          objectType: 'verify_list_email',
          objectId: `${run.listId}:${rowNumber}:${run.id}`,
        });
      }
      if (previous.status && previous.result) addToCounters(counters, previous.result as unknown as TVerificationResult, previous.billable, -1);
      addToCounters(counters, result, billable);
      if (previous.status !== result.status) changed += 1;
      stored.push({ rowNumber, status: result.status, result: toStoredResult(result), billable });
    }
    await storeRunResults(tx, run.listId, at, stored);
    await insertRowChanges(
      tx,
      stored.map((s) => {
        const previous = due.get(s.rowNumber)!;
        return {
          runId: run.id,
          orgId: run.orgId,
          listId: run.listId,
          rowNumber: s.rowNumber,
          previousStatus: previous.status,
          previousVerifiedAt: previous.verified_at ? new Date(previous.verified_at) : null,
          status: s.status as TVerificationResult['status'],
        };
      }),
    );
    await addChargedAppUsage(tx, list.appId, charged);
    await verifyListStore.update(tx, run.listId, { counters });
    await updateRun(tx, run.id, { rechecked: current.rechecked + stored.length, charged: current.charged + charged, changed: current.changed + changed });
    return true;
  });
}

/** Ends a run (completed, skipped or stopped): its transitions, the schedule's last run or skip reason, an activity, and `afterRun`. */
async function endRun(deps: TReverifyDeps, run: TRunRow, end: { state: 'completed' | 'skipped' | 'stopped'; reason: string | null; planned?: number }, hooks: TReverifyHooks): Promise<void> {
  await deps.database.transaction(async (tx) => {
    const current = await selectRun(tx, run.id, true);
    if (!current || current.state === end.state || ['completed', 'skipped', 'stopped'].includes(current.state)) return;
    const list = await verifyListStore.selectById(tx, run.listId);
    const transitions = await selectRunTransitions(tx, run.id);
    await updateRun(tx, run.id, { state: end.state, reason: end.reason, transitions, finishedAt: deps.clock(), ...(end.planned !== undefined ? { planned: end.planned } : {}) });
    if (run.kind === 'scheduled') {
      await updateSchedule(tx, run.listId, end.state === 'completed' ? { lastRunAt: deps.clock(), skippedReason: null } : { skippedReason: end.reason });
    }
    const name = list?.name ?? 'list';
    const what = run.kind === 'scheduled' ? `Re-verifying the list "${name}"` : `Verifying new contacts of the list "${name}"`;
    if (end.state === 'completed') {
      const description =
        run.kind === 'scheduled'
          ? `Re-verified the list "${name}": ${current.rechecked} addresses re-checked, ${current.changed} changed`
          : `Verified ${current.rechecked} new contacts of the list "${name}"`;
      await recordActivity(tx, { orgId: run.orgId, userId: run.userId, type: 'verify', description, metadata: { list_id: run.listId, run_id: run.id, changed: current.changed } });
      if (current.rechecked > 0) await hooks.afterRun?.(tx, { ...run, changed: current.changed, rechecked: current.rechecked });
    } else {
      await recordActivity(tx, {
        orgId: run.orgId,
        userId: run.userId,
        type: 'failed',
        description: `${what} did not run: ${end.reason ?? ''}`,
        metadata: { job: 'reverify', list_id: run.listId, run_id: run.id },
      });
    }
  });
}
