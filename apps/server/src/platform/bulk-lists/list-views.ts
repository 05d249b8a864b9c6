import type { TJobActivityType } from '@verilead/contracts';
import type { TDb } from '../db/database';
import { getVisibleScope, type TCallerContext } from '../tenancy/context';
import { selectPausedOwners } from '../tenancy/suspension-queries';
import type { TBulkListRow, TListPageQuery, TListStore } from './list-store';
import { toRunningSourceJob } from './source-chain';
import type { TSourceListRow, TSourceListStore } from './source-list-store';

/** How the list products answer what every one of them is asked: a page of lists, a file name seen before, a running job. */

/** A list page request as the contracts shape it (`page` from 1). */
export type TListPageRequest<TState extends string> = {
  page: number;
  limit: number;
  search?: string;
  state?: TState;
  list_id?: string;
  sort_by: TListPageQuery<TState>['sortBy'];
  sort_order: TListPageQuery<TState>['sortOrder'];
};

/**
 * Why each list in progress (a source list: running, `isRunning`) waits, by id (only those that wait): its organisation
 * or its owner is suspended by an operator, so its jobs are paused (platform/jobs) until they are restored.
 */
export async function readPausedReasons(
  exec: TDb,
  orgId: string,
  rows: readonly { id: string; userId: string; state: string }[],
  isRunning: (state: string) => boolean = (state) => state === 'in_progress',
): Promise<Map<string, string>> {
  const running = rows.filter((r) => isRunning(r.state));
  const owners = await selectPausedOwners(exec, orgId, running.map((r) => r.userId));
  const paused = new Map<string, string>();
  for (const r of running) {
    const reason = owners.get(r.userId);
    if (reason) paused.set(r.id, reason);
  }
  return paused;
}

/** One page of the caller's visible lists, each shown by `toView` (with its pause reason, null unless it waits for a suspended account). */
export async function readListPage<TRow extends TBulkListRow, TInsert, TView>(
  exec: TDb,
  store: TListStore<TRow, TInsert>,
  ctx: TCallerContext,
  q: TListPageRequest<TRow['state']>,
  toView: (row: TRow, pausedReason: string | null) => TView,
): Promise<{ items: TView[]; total: number; page: number; limit: number }> {
  const { rows, total } = await store.selectPage(exec, getVisibleScope(ctx), {
    search: q.search,
    state: q.state,
    listId: q.list_id,
    sortBy: q.sort_by,
    sortOrder: q.sort_order,
    offset: (q.page - 1) * q.limit,
    limit: q.limit,
  });
  const paused = await readPausedReasons(exec, ctx.orgId, rows);
  return { items: rows.map((row) => toView(row, paused.get(row.id) ?? null)), total, page: q.page, limit: q.limit };
}

/** Whether a file of this name was uploaded before, with the lists it made (the upload screen asks before sending). */
export function duplicateFileAnswer(fileName: string, lists: readonly Pick<TBulkListRow, 'id' | 'name' | 'createdAt'>[]) {
  return {
    is_duplicate: lists.length > 0,
    message: lists.length > 0 ? `A file named "${fileName}" was already uploaded. Upload it again?` : 'No file with this name was uploaded before',
    lists: lists.map((l) => ({ id: l.id, name: l.name, created_at: l.createdAt.toISOString() })),
  };
}

/**
 * A running list's job: its file being read (`analysis` says queued or running, null once read), or its work job, which
 * is queued until its plan job has split it into chunks and then runs with its progress. `label` names the list
 * (`The list "x"`), `size` what it holds (`120 addresses`), `done` the count of rows worked (into the metadata). The
 * answer is the activities feature's running-job row (TRunningJobActivity), which platform code does not import.
 */
export function toRunningListJob(
  row: TBulkListRow,
  p: {
    feature: string;
    analysis: 'queued' | 'in_progress' | null;
    analyseKey: string;
    work: TJobActivityType;
    label: string;
    size: string;
    progress: () => number;
    done: Record<string, number>;
  },
) {
  const metadata: Record<string, unknown> = { feature: p.feature, list_id: row.id, file_name: row.fileName };
  const since = row.updatedAt;
  if (p.analysis) return { key: `${p.analyseKey}:${row.id}`, type: 'analyse' as TJobActivityType, status: p.analysis, progress: null as number | null, description: p.label, metadata, since };
  const planned = row.jobId !== null && row.plannedJobId === row.jobId;
  return {
    key: `${p.work}:${row.id}`,
    type: p.work,
    status: planned ? ('in_progress' as const) : ('queued' as const),
    progress: planned ? p.progress() : null,
    description: `${p.label} (${p.size})`,
    metadata: { ...metadata, ...p.done },
    since,
  };
}

/**
 * A page of the caller's visible source-list runs, newest first (only those in `states` when given), each shown by
 * `toView` (with its pause reason, null unless it waits for a suspended account).
 */
export async function readSourceListPage<TRow extends TSourceListRow, TInsert, TView>(
  exec: TDb,
  store: TSourceListStore<TRow, TInsert>,
  ctx: TCallerContext,
  q: { page: number; limit: number; states?: readonly TRow['state'][] },
  toView: (row: TRow, pausedReason: string | null) => TView,
): Promise<{ items: TView[]; total: number; page: number; limit: number }> {
  const { rows, total } = await store.selectPage(exec, getVisibleScope(ctx), { states: q.states, offset: (q.page - 1) * q.limit, limit: q.limit });
  const paused = await readPausedReasons(exec, ctx.orgId, rows, store.isRunning);
  return { items: rows.map((row) => toView(row, paused.get(row.id) ?? null)), total, page: q.page, limit: q.limit };
}

/**
 * A member's source-list runs still queued or going, as the Activities screen shows them (toRunningSourceJob): `show`
 * gives each run's type, whether it is still queued, its progress, description and metadata.
 */
export async function readRunningSourceJobs<TRow extends TSourceListRow, TInsert>(
  exec: TDb,
  store: TSourceListStore<TRow, TInsert>,
  who: { orgId: string; userId: string },
  show: (row: TRow) => Parameters<typeof toRunningSourceJob>[1],
) {
  return (await store.selectRunning(exec, who)).map((row) => toRunningSourceJob(row, show(row)));
}
