import { z } from 'zod';
import type { TDatabase } from '../../platform/db/database';
import type { AppError } from '../../platform/errors/app-error';
import { storeWhileCreditsLast } from '../../platform/credits/store-while-credits-last';
import type { TJobContext, TJobQueue } from '../../platform/jobs/jobs';
import type { TVerifier } from '../../platform/verifier/verifier';
import { getVerifierPreferences } from '../settings';
import { selectDueRechecks, selectGreylistWait, verifyListStore } from './queries';
import { enqueueRecheck, storeRowOutcomes, type TRowOutcome } from './store-results';
import { finishListIfDone, stopListForCredits } from './verify-list-job';

export const ZRecheckPayload = z.object({ listId: z.uuid(), dueAt: z.iso.datetime() });
export type TRecheckPayload = z.output<typeof ZRecheckPayload>;

const PAGE = 500;
/** A re-check taken before its time (a worker told to take delayed jobs) waits for it up to this long; later ones are queued again. */
const MAX_EARLY_WAIT_MS = 30_000;

/**
 * The greylist re-check of a list: re-verifies only the rows whose greylist wait is over. Row by row, the n-th
 * re-check comes after the schedule's n-th delay; while delays remain, a greylisted address waits again (for the
 * next delay), and the schedule's last re-check gives the engine's final verdict. Results are stored and charged
 * once, like a chunk's. When rows still wait, the next re-check job is queued for the earliest; when none waits and
 * nothing else is pending, the list is verified.
 */
export async function runGreylistRecheck(
  deps: { database: TDatabase; queue: TJobQueue },
  verifier: TVerifier,
  payload: TRecheckPayload,
  job: Pick<TJobContext, 'isCancelled'>,
): Promise<void> {
  const { database } = deps;
  const list = await verifyListStore.selectById(database.db, payload.listId);
  if (!list || list.state !== 'in_progress') return;
  const dueAt = new Date(payload.dueAt);
  const early = dueAt.getTime() - Date.now();
  if (early > MAX_EARLY_WAIT_MS) return enqueueRecheck(deps.queue, undefined, list, dueAt);
  // re-checking before the wait is over would only meet the greylist again
  if (early > 0) await new Promise((resolve) => setTimeout(resolve, early));

  const prefs = await getVerifierPreferences(database.db, { userId: list.userId, orgId: list.orgId });
  const mode = list.mode ?? prefs.mode;
  const schedule = verifier.greylistSchedule(mode);
  const call = { mode, gibberishThreshold: prefs.gibberishThreshold, wbList: prefs.wbList };
  const seen = new Set<number>();
  let creditError: AppError | null = null;

  const isStopped = async () => (await job.isCancelled()) || (await verifyListStore.selectById(database.db, list.id))?.state !== 'in_progress';

  for (;;) {
    if (await isStopped()) return;
    const due = (await selectDueRechecks(database.db, list.id, new Date(Math.max(Date.now(), dueAt.getTime())), PAGE)).filter((r) => !seen.has(r.rowNumber));
    if (due.length === 0) break;
    const outcomes: TRowOutcome[] = [];
    // rows whose next re-check is the schedule's last get the final verdict; the others may wait again
    for (const last of [false, true]) {
      const rows = due.filter((r) => r.rechecks + 1 >= schedule.length === last);
      if (rows.length === 0) continue;
      const byEmail = new Map(rows.map((r) => [r.email, r] as const));
      for await (const result of verifier.verifyMany(rows.map((r) => r.email), { ...call, greylisting: last ? 'last' : 'defer' })) {
        const row = byEmail.get(result.email);
        if (!row) continue;
        byEmail.delete(result.email);
        seen.add(row.rowNumber);
        const rechecks = row.rechecks + 1;
        if (!last && result.reason.code === 'greylisted') {
          outcomes.push({ rowNumber: row.rowNumber, wait: { at: new Date(Date.now() + schedule[rechecks]!), rechecks, expectRechecks: row.rechecks } });
        } else {
          // every earlier attempt of the row was greylisted once: the first one and each re-check before this one
          outcomes.push({ rowNumber: row.rowNumber, result: { ...result, greylist_count: result.greylist_count + rechecks } });
        }
      }
    }
    if (await isStopped()) return;
    creditError = await storeWhileCreditsLast(outcomes, (batch) => storeRowOutcomes(deps, list, batch));
    if (creditError) return stopListForCredits(deps, list.id, creditError);
  }

  const wait = await selectGreylistWait(database.db, list.id);
  if (wait.waiting > 0 && wait.nextAt) await enqueueRecheck(deps.queue, undefined, list, wait.nextAt);
  await finishListIfDone(database, list.id);
}
