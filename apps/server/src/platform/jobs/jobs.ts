import type { z } from 'zod';
import type { TJobQueueName } from '../../config';
import type { TDb } from '../db/database';

/** The last error a job paused for a suspended owner keeps (pg-boss-worker.ts; the operator console's queues show it). */
export const JOB_PAUSED_MESSAGE = 'paused: the organisation or member is suspended';

export type TJobContext = {
  jobId: string;
  /** 1 on the first run, 2 on the first retry, … */
  attempt: number;
  maxAttempts: number;
  /** Records progress (0–100, clamped) for `queue.get`. */
  reportProgress(percent: number): Promise<void>;
  /**
   * True once someone asked to cancel this job, or once this worker no longer owns it (it was given up as
   * abandoned): a handler checks it between units of work and stops.
   */
  isCancelled(): Promise<boolean>;
};

export type TJobDefinition<P extends z.ZodType = z.ZodType> = {
  name: string;
  /** The queue (kind of work) it runs on; each queue has its own concurrency and expiry (config.jobs). */
  queue: TJobQueueName;
  payload: P;
  maxAttempts?: number;
  /** Base back-off: retry n waits about backoffMs · 2^(n-1) (with jitter), capped by config.jobs.maxBackoffSeconds. */
  backoffMs?: number;
  /**
   * Bulk work of an organisation's member (a list's chunks, a source chain's steps): while the job's organisation or
   * member is suspended by an operator it is not run (no mail server, platform or charge), but paused: it waits, its
   * attempt not counted, and is looked at again every SUSPENDED_RECHECK_SECONDS until they are restored (an
   * operator's restore makes it due at once). A running one sees `isCancelled()` turn true at the suspension, stops at
   * its next look, and is paused instead of completed, so it must be idempotent and resumable. Any job a charge
   * refuses as suspended (the ledger's `account_suspended`) is paused the same way, kind flagged or not.
   */
  pausesWhileSuspended?: boolean;
  /** Must be idempotent: a job may run again after a crash or a failed attempt. */
  handler(payload: z.output<P>, ctx: TJobContext): Promise<unknown>;
};

/** Declares a typed job. */
export function defineJob<P extends z.ZodType>(def: TJobDefinition<P>): TJobDefinition<P> {
  return def;
}

export type TJobState = 'queued' | 'active' | 'completed' | 'failed' | 'cancelled';

/** A job as `queue.get` answers it (pg-boss's job joined with our job_status row). */
export type TJobInfo = {
  id: string;
  name: string;
  queue: TJobQueueName;
  state: TJobState;
  /** Attempts started so far. */
  attempts: number;
  maxAttempts: number;
  progress: number;
  result: unknown;
  lastError: string | null;
  orgId: string | null;
  userId: string | null;
  /** When it may run (next). */
  runAt: Date;
  createdAt: Date;
  finishedAt: Date | null;
};

export type TEnqueueOptions = {
  /** Enqueue inside the caller's transaction so the job exists only if it commits. */
  tx?: TDb;
  orgId?: string | null;
  userId?: string | null;
  maxAttempts?: number;
  backoffMs?: number;
  /** Delay before the first attempt. */
  delayMs?: number;
};

export type TJobQueue = {
  enqueue(name: string, payload: unknown, opts?: TEnqueueOptions): Promise<string>;
  /** Cancels a queued job at once, or flags an active one so its handler stops; answers the new state. */
  cancel(jobId: string, orgId?: string | null): Promise<TJobState | null>;
  /**
   * Cancels the queued (not yet running) jobs of kind `name` whose payload contains `match` (e.g. every chunk of a
   * list); running ones stop on their own state check. Answers how many were cancelled.
   */
  cancelWhere(name: string, match: Record<string, string | number>): Promise<number>;
  get(jobId: string): Promise<TJobInfo | null>;
  /** Unfinished (queued or active) jobs of a kind. */
  pending(name: string): Promise<number>;
  /** Claims and runs one due job of any queue; false when none was due. `includeDelayed` also takes retries scheduled later. */
  runOnce(opts?: { includeDelayed?: boolean }): Promise<boolean>;
  /** Gives up abandoned jobs (retrying them within their attempt cap), then runs due jobs until none is left (tests, CLI). */
  runUntilIdle(opts?: { includeDelayed?: boolean; maxJobs?: number }): Promise<number>;
  /** Runs `name` on a cron schedule (UTC), one per queue, shared by all workers (pg-boss schedule). */
  schedule(name: string, cron: string, payload?: unknown): Promise<void>;
  /** Housekeeping: abandoned jobs retried or failed, finished jobs archived then deleted, retry delays capped. */
  maintain(): Promise<{ deletedStatusRows: number }>;
  /**
   * An operator's retry of a failed job (pg-boss `retry`: back in its queue with one more attempt allowed), inside
   * `tx` when given (so the operator's record commits with it). False when it is not a failed job of that queue.
   */
  retryFailed(queue: string, jobId: string, tx?: TDb): Promise<boolean>;
  /** An operator's discard of a failed job (pg-boss `deleteJob`, and our status row), inside `tx` when given; false when it is not a failed job of that queue. */
  discardFailed(queue: string, jobId: string, tx?: TDb): Promise<boolean>;
  /** Starts the worker: every queue polled with its own concurrency, plus pg-boss's supervision and schedules. */
  start(): Promise<void>;
  /** Stops taking jobs, waits up to `timeoutMs` (config.jobs.shutdownTimeoutMs) for running handlers, then gives up waiting. */
  stop(opts?: { timeoutMs?: number }): Promise<void>;
};

export type TQueueLogger = { info(obj: object, msg?: string): void; error(obj: object, msg?: string): void };
