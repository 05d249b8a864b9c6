import { JOB_QUEUE_NAMES } from '../../config';
import type { TOpsFailedJob, TOpsJobAction, TOpsQueueFigures } from '@verilead/contracts';
import type { TDeps } from '../../platform/deps';
import { AppError } from '../../platform/errors/app-error';
import { recordOperatorAction, type TOperatorCaller } from '../ops-console';
import { selectFailedJob, selectFailedJobs, selectQueueFigures, type TFailedJobRow } from './queries';

/** An error's text as operators see it: e-mail addresses masked (no customer contact data), one line, 500 characters at most. */
export function maskJobError(text: string | null): string {
  const masked = (text ?? 'No error was recorded')
    .replace(/[^\s@<>"'(),;:]+@[^\s@<>"'(),;:]+\.[a-z0-9-]+/gi, '[address]')
    .replace(/\s+/g, ' ')
    .trim();
  return masked.length > 500 ? `${masked.slice(0, 500)}…` : masked;
}

const toFailedJob = (r: TFailedJobRow): TOpsFailedJob => ({
  id: r.id,
  queue: r.queue,
  kind: r.kind ?? 'unknown',
  org_id: r.org_id,
  org_name: r.org_name,
  attempts: r.attempts,
  error: maskJobError(r.error),
  created_at: r.created_at,
  failed_at: r.failed_at,
});

/** Every queue (idle ones too, in the configured order) with its depth, oldest waiting job, running and finished counts. */
export async function listQueueFigures(deps: Pick<TDeps, 'database'>): Promise<{ queues: TOpsQueueFigures[] }> {
  const rows = new Map((await selectQueueFigures(deps.database)).map((r) => [r.queue, r]));
  const zero = { waiting: 0, delayed: 0, oldest_waiting_seconds: null, running: 0, completed: 0, failed: 0, completed_last_hour: 0, failed_last_hour: 0 };
  const names = [...JOB_QUEUE_NAMES, ...[...rows.keys()].filter((q) => !(JOB_QUEUE_NAMES as readonly string[]).includes(q)).sort()];
  return {
    queues: names.map((queue) => {
      const r = rows.get(queue);
      return { queue, ...zero, ...r, oldest_waiting_seconds: r?.oldest_waiting_seconds == null ? null : Math.max(0, Math.round(r.oldest_waiting_seconds)) };
    }),
  };
}

export async function listFailedJobs(deps: Pick<TDeps, 'database'>, q: { page: number; limit: number; queue?: string }) {
  const { rows, total } = await selectFailedJobs(deps.database.db, { queue: q.queue, limit: q.limit, offset: (q.page - 1) * q.limit });
  return { items: rows.map(toFailedJob), total, page: q.page, limit: q.limit };
}

const GONE = 'This job is not a failed job any more (it was retried or discarded meanwhile). Refresh the list.';

/**
 * Retries or discards a failed job through pg-boss (its `retry` / `deleteJob`, run in our transaction) and records the
 * action in the operator log, and in the organisation's audit log when the job belongs to one, in that same
 * transaction: the record exists exactly when the change does.
 */
export async function actOnFailedJob(deps: Pick<TDeps, 'database' | 'queue'>, operator: TOperatorCaller, input: TOpsJobAction, action: 'retry' | 'discard') {
  const job = await selectFailedJob(deps.database.db, input.queue, input.id);
  if (!job) throw new AppError('not_found', 'No failed job with this id in this queue.');
  await deps.database.transaction(async (tx) => {
    const done = action === 'retry' ? await deps.queue.retryFailed(input.queue, input.id, tx) : await deps.queue.discardFailed(input.queue, input.id, tx);
    if (!done) throw new AppError('conflict', GONE);
    await recordOperatorAction(tx, operator, {
      action: action === 'retry' ? 'operator.job_retried' : 'operator.job_discarded',
      orgId: job.org_id,
      targetType: 'job',
      targetId: job.id,
      details: { queue: job.queue, kind: job.kind, attempts: job.attempts },
    });
  });
  return { id: job.id, queue: job.queue, action: action === 'retry' ? ('retried' as const) : ('discarded' as const) };
}
