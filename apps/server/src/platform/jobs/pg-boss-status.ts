import type { TJobQueueName } from '../../config';
import type { TSqlExecutor } from '../db/database';
import type { TJobInfo, TJobState } from './jobs';

// How a job's state is read on pg-boss: our `job_status` row (queue, owner, progress, cancel flag) beside pg-boss's
// own job row (state, attempts, output), merged into one TJobInfo. Shared by the queue (get, cancel) and the
// worker (a failed job whose cancel was asked is cancelled, not failed).

/** What a pg-boss job carries: our job kind and its (validated) payload. */
export type TJobData = { kind: string; payload: unknown };

/** pg-boss's job row, as getJobById answers it. */
export type TBossRow = {
  id: string;
  name: string;
  state: 'created' | 'retry' | 'active' | 'completed' | 'cancelled' | 'failed';
  retryCount: number;
  retryLimit: number;
  startAfter: Date;
  startedOn: Date | null;
  createdOn: Date;
  completedOn: Date | null;
  output: Record<string, unknown> | null;
};

export type TStatusRow = { id: string; queue: TJobQueueName; name: string; org_id: string | null; user_id: string | null; progress: number; cancel_requested: boolean };

/** The rows of one SQL statement run through pg-boss's executor. */
export async function queryRows<T>(sqlDb: TSqlExecutor, text: string, values?: unknown[]): Promise<T[]> {
  return (await sqlDb.executeSql(text, values)).rows as T[];
}

export async function readJobStatus(sqlDb: TSqlExecutor, jobId: string): Promise<TStatusRow | null> {
  const r = await queryRows<TStatusRow>(sqlDb, `select id, queue, name, org_id, user_id, progress, cancel_requested from job_status where id = $1`, [jobId]);
  return r[0] ?? null;
}

function errorMessage(output: Record<string, unknown> | null): string | null {
  if (!output) return null;
  if (typeof output.message === 'string') return output.message;
  const value = output.value as { message?: unknown } | undefined;
  return typeof value?.message === 'string' ? value.message : null;
}

/** One job as the product sees it: a cancel that was asked counts as cancelled however the handler ended. */
export function toJobInfo(s: TStatusRow, j: TBossRow): TJobInfo {
  let state: TJobState;
  if (j.state === 'created' || j.state === 'retry') state = 'queued';
  else if (j.state === 'active') state = 'active';
  else if (j.state === 'cancelled' || s.cancel_requested) state = 'cancelled';
  else state = j.state;
  const output = j.output;
  const finished = j.state === 'completed' || j.state === 'cancelled' || j.state === 'failed';
  return {
    id: j.id,
    name: s.name,
    queue: s.queue,
    state,
    attempts: j.startedOn ? j.retryCount + 1 : 0,
    maxAttempts: j.retryLimit + 1,
    progress: state === 'completed' ? 100 : s.progress,
    result: j.state === 'completed' ? (output?.result ?? null) : null,
    lastError: j.state === 'completed' ? null : errorMessage(output),
    orgId: s.org_id,
    userId: s.user_id,
    runAt: new Date(j.startAfter),
    createdAt: new Date(j.createdOn),
    finishedAt: finished && j.completedOn ? new Date(j.completedOn) : null,
  };
}
