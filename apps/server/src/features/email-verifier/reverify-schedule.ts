import {
  REVERIFY_PERIOD_DAYS,
  type TKeepVerifiedData,
  type TKeepVerifiedQuery,
  type TKeepVerifiedRequest,
  type TReverifyChangesData,
  type TReverifyChangesQuery,
  type TReverifyPeriod,
  type TReverifyRun,
  type TVerificationStatus,
} from '@verilead/contracts';
import { getOrgBalance } from '../../platform/credits/ledger';
import type { TDatabase, TDb } from '../../platform/db/database';
import { AppError, throwNotFound } from '../../platform/errors/app-error';
import type { TJobQueue } from '../../platform/jobs/jobs';
import type { TMaintenanceTask } from '../../platform/jobs/maintenance';
import type { TCallerContext } from '../../platform/tenancy/context';
import { recordActivity } from '../activities';
import { requireList } from './list-access';
import { verifyListStore, type TListRow } from './queries';
import {
  countRunChanges,
  countRunTargets,
  deleteSchedule,
  insertRunOnce,
  selectDueSchedulesForUpdate,
  selectRun,
  selectRunChangesPage,
  selectRuns,
  selectSchedule,
  updateSchedule,
  upsertSchedule,
  type TRunRow,
  type TScheduleRow,
} from './reverify-queries';
import { REVERIFY_RUN_JOB } from './reverify-run-job';

// Lists that stay verified: the schedule a person turns on with its cost per run shown and confirmed, the scheduler
// (a maintenance task on the injected clock) that queues each due run once, and the runs' history with their changes.

type TPeriod = Exclude<TReverifyPeriod, 'off'>;
const DAY_MS = 86_400_000;

/** The next run after `from`: one calendar month (monthly) or three (quarterly) later. */
export function addPeriod(from: Date, period: TPeriod): Date {
  const d = new Date(from);
  d.setUTCMonth(d.getUTCMonth() + (period === 'monthly' ? 1 : 3));
  return d;
}

/** When a schedule turned on (or changed) runs first: a period after the list's last verification, or now if that is past. */
function firstRunAt(list: TListRow, schedule: TScheduleRow | null, period: TPeriod, now: Date): Date {
  const last = schedule?.lastRunAt ?? list.verifiedAt ?? now;
  const next = addPeriod(last, period);
  return next < now ? now : next;
}

function unavailableReason(list: TListRow): string | null {
  if (list.resultsDeletedAt) return 'The results of this list were deleted by data retention.';
  if (list.state === 'in_progress') return 'The list is being verified; it can be kept verified once it is done.';
  if (!list.verifiedAt) return 'Verify the list first: a list can be kept verified once it has results.';
  return null;
}

function toRun(r: TRunRow): TReverifyRun {
  return {
    id: r.id,
    kind: r.kind,
    state: r.state,
    reason: r.reason,
    due_at: r.dueAt.toISOString(),
    started_at: r.startedAt?.toISOString() ?? null,
    finished_at: r.finishedAt?.toISOString() ?? null,
    planned: r.planned,
    rechecked: r.rechecked,
    charged: r.charged,
    changed: r.changed,
    transitions: Object.entries(r.transitions)
      .map(([k, count]) => {
        const [from, to] = k.split('>') as [string, string];
        return { from: from === 'none' ? null : (from as TVerificationStatus), to: to as TVerificationStatus, count };
      })
      .sort((a, b) => b.count - a.count),
  };
}

/** The addresses a run at `at` would re-check: results older than `ageDays` then (the cost per run, 1 credit each at most). */
function estimate(exec: TDb, listId: string, at: Date, ageDays: number): Promise<number> {
  return countRunTargets(exec, listId, { kind: 'scheduled', cutoff: new Date(at.getTime() - ageDays * DAY_MS), fromRow: null });
}

/** The list's schedule, its cost per run (for a choice being made when `schedule` / `age_days` are given), and its runs. */
export async function getKeepVerified(deps: { database: TDatabase; clock: () => Date }, caller: TCallerContext, q: TKeepVerifiedQuery): Promise<TKeepVerifiedData> {
  const db = deps.database.db;
  const list = await requireList(db, caller, q.list_id);
  const schedule = await selectSchedule(db, list.id);
  const now = deps.clock();
  const period: TReverifyPeriod = q.schedule ?? schedule?.period ?? 'off';
  const pricedPeriod: TPeriod = period === 'off' ? 'monthly' : period;
  const ageDays = q.age_days ?? (schedule && schedule.period === pricedPeriod && !q.schedule ? schedule.ageDays : REVERIFY_PERIOD_DAYS[pricedPeriod]);
  const nextRunAt = schedule && !q.schedule && !q.age_days ? schedule.nextRunAt : firstRunAt(list, schedule, pricedPeriod, now);
  const reason = unavailableReason(list);
  return {
    list_id: list.id,
    schedule: period,
    age_days: ageDays,
    cost_per_run: await estimate(db, list.id, nextRunAt, ageDays),
    confirmed_cost_per_run: schedule?.costPerRun ?? null,
    next_run_at: period === 'off' ? null : nextRunAt.toISOString(),
    last_run_at: schedule?.lastRunAt?.toISOString() ?? null,
    skipped_reason: schedule?.skippedReason ?? null,
    credits_balance: await getOrgBalance(db, list.orgId),
    available: reason === null,
    unavailable_reason: reason,
    runs: (await selectRuns(db, list.id, 24)).map(toRun),
  };
}

/**
 * Turns a list's schedule on, changes it, or turns it off. Turning it on needs the cost per run the person was shown:
 * when the estimate is now higher than `accepted_cost_per_run`, 409 with the new figure (nothing saved).
 */
export async function setKeepVerified(deps: { database: TDatabase; clock: () => Date }, caller: TCallerContext, body: TKeepVerifiedRequest): Promise<TKeepVerifiedData> {
  const { database } = deps;
  const list = await requireList(database.db, caller, body.list_id);
  if (body.schedule === 'off') {
    await database.transaction(async (tx) => {
      await deleteSchedule(tx, list.id);
      await recordActivity(tx, { orgId: list.orgId, userId: caller.userId, type: 'verify', description: `Stopped keeping the list "${list.name}" verified`, metadata: { list_id: list.id } });
    });
    return getKeepVerified(deps, caller, { list_id: list.id });
  }
  const reason = unavailableReason(list);
  if (reason) throw new AppError('conflict', reason);
  const period = body.schedule;
  const ageDays = body.age_days ?? REVERIFY_PERIOD_DAYS[period];
  await database.transaction(async (tx) => {
    const locked = (await verifyListStore.selectForUpdate(tx, list.id)) ?? list;
    const current = await selectSchedule(tx, list.id);
    const nextRunAt = firstRunAt(locked, current, period, deps.clock());
    const cost = await estimate(tx, list.id, nextRunAt, ageDays);
    if (cost > (body.accepted_cost_per_run ?? 0)) {
      throw new AppError('conflict', `A run now costs up to ${cost} credits, not ${body.accepted_cost_per_run ?? 0}: confirm the new cost to turn the schedule on`, {
        additional_info: { cost_per_run: cost },
      });
    }
    await upsertSchedule(tx, { listId: list.id, orgId: list.orgId, userId: caller.userId, period, ageDays, nextRunAt, costPerRun: cost, lastRunAt: current?.lastRunAt ?? null, skippedReason: null });
    await recordActivity(tx, {
      orgId: list.orgId,
      userId: caller.userId,
      type: 'verify',
      description: `Keeping the list "${list.name}" verified ${period}: results older than ${ageDays} days re-checked, up to ${cost} credits per run`,
      metadata: { list_id: list.id, period, age_days: ageDays, cost_per_run: cost },
    });
  });
  return getKeepVerified(deps, caller, { list_id: list.id });
}

/** A page of the rows a run re-checked (by default only those whose status changed). */
export async function listRunChanges(database: TDatabase, caller: TCallerContext, q: TReverifyChangesQuery): Promise<TReverifyChangesData> {
  const list = await requireList(database.db, caller, q.list_id);
  const run = q.run_id ? await selectRun(database.db, q.run_id) : ((await selectRuns(database.db, list.id, 1))[0] ?? null);
  if (q.run_id && (!run || run.listId !== list.id)) throwNotFound('Run');
  if (!run) return { total: 0, page: q.page, per_page: q.per_page, rows: [] };
  const all = q.all === 'true';
  const rows = await selectRunChangesPage(database.db, { runId: run.id, listId: list.id, all, afterRow: 0, offset: (q.page - 1) * q.per_page, limit: q.per_page });
  return {
    total: await countRunChanges(database.db, run.id, all),
    page: q.page,
    per_page: q.per_page,
    rows: rows.map((r) => ({
      row_number: r.row_number,
      email: r.email,
      previous_status: r.previous_status,
      previous_verified_at: r.previous_verified_at ? new Date(r.previous_verified_at).toISOString() : null,
      status: r.status,
    })),
  };
}

/**
 * Queues every run due by `now`, once: each due schedule is locked (another worker's are skipped), its run inserted
 * under the unique (list, kind, due time) with its job in the same transaction, and its next run moved on.
 */
export async function queueDueReverifyRuns(deps: { database: TDatabase; queue: TJobQueue }, now: Date): Promise<{ queued: number }> {
  let queued = 0;
  for (;;) {
    const batch = await deps.database.transaction(async (tx) => {
      const due = await selectDueSchedulesForUpdate(tx, now, 100);
      for (const s of due) {
        const run = await insertRunOnce(tx, {
          listId: s.listId,
          orgId: s.orgId,
          userId: s.userId,
          kind: 'scheduled',
          dueAt: s.nextRunAt,
          cutoff: new Date(s.nextRunAt.getTime() - s.ageDays * DAY_MS),
        });
        if (run) {
          await deps.queue.enqueue(REVERIFY_RUN_JOB, { runId: run.id }, { tx, orgId: s.orgId, userId: s.userId, maxAttempts: 5, backoffMs: 5_000 });
          queued += 1;
        }
        let next = addPeriod(s.nextRunAt, s.period);
        while (next <= now) next = addPeriod(next, s.period);
        await updateSchedule(tx, s.listId, { nextRunAt: next });
      }
      return due.length;
    });
    if (batch < 100) return { queued };
  }
}

/** The maintenance task (JOB_MAINTENANCE_CRON, worker processes): the due runs at the clock's time. */
export function createReverifyMaintenance(deps: { database: TDatabase; queue: TJobQueue; clock: () => Date }): TMaintenanceTask {
  return { name: 'listReverify', run: () => queueDueReverifyRuns(deps, deps.clock()) };
}
