import type PgBoss from 'pg-boss';
import type { TJobQueueName, TJobsConfig } from '../../config';
import type { TSqlExecutor } from '../db/database';
import { JOB_SCHEMA } from '../db/job-schema';
import { isAppError } from '../errors/app-error';
import { JOB_PAUSED_MESSAGE, type TJobContext, type TJobDefinition, type TQueueLogger } from './jobs';
import { queryRows, readJobStatus, type TJobData } from './pg-boss-status';

// The worker side of the job system: polling each queue with its own concurrency (and woken at once by a job enqueued in
// any process: pg-boss-queue.ts), running a job under a heartbeat, completing, failing or cancelling it, and the
// bounded shutdown that leaves unfinished jobs to another worker.
// pg-boss's supervisor gives up jobs whose heartbeat stopped (a dead worker) and retries them within their cap.

/** How often a job paused for a suspended organisation or member looks again (it runs within this of the restore). */
export const SUSPENDED_RECHECK_SECONDS = 30;

type TFetched = { id: string; name: string; data: TJobData; retryCount: number; retryLimit: number; expireInSeconds: string | number };

/** A poller's wake-up: `wake` while it sleeps; `pending` when it was woken while fetching (its next sleep is skipped). */
type TWakeSignal = { wake?: () => void; pending?: boolean };

const S = JOB_SCHEMA;

function sleep(ms: number, signal: TWakeSignal): Promise<void> {
  if (signal.pending) {
    signal.pending = false;
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.wake = undefined;
      resolve();
    }
    signal.wake = done;
  });
}

/** Wakes a poller now, or, when it is fetching, as soon as it would sleep (a job committed meanwhile may be missed by that fetch). */
function wakeUp(signal: TWakeSignal): void {
  if (signal.wake) signal.wake();
  else signal.pending = true;
}

export type TJobWorker = {
  /** Runs one waiting job of any queue in use (due ones, or delayed ones too); false when there was none. */
  runOnce(o?: { includeDelayed?: boolean }): Promise<boolean>;
  /** Starts one poller per queue in use. */
  startPolling(): void;
  /** A job of `queue` is due now (enqueued and committed): its poller fetches at once instead of at its next poll. */
  wake(queue: string): void;
  /** Every poller fetches at once (notices may have been missed). */
  wakeAll(): void;
  /** Stops the pollers and gives running handlers `timeoutMs` to finish before abandoning them. */
  stop(timeoutMs: number): Promise<void>;
};

export function createJobWorker(opts: {
  boss: PgBoss;
  sqlDb: TSqlExecutor;
  defs: ReadonlyMap<string, TJobDefinition>;
  /** Queues that have at least one job kind in this process. */
  queues: readonly TJobQueueName[];
  settings: TJobsConfig;
  pollIntervalMs: number;
  logger?: TQueueLogger;
}): TJobWorker {
  const { boss, sqlDb, defs, settings, pollIntervalMs, logger } = opts;
  let polling = false;
  const pollers = new Map<TJobQueueName, TWakeSignal & { loop?: Promise<void> }>();
  const inFlight = new Set<{ done: Promise<void>; abandon(): void }>();

  /** Refreshes the job's heartbeat; false once this attempt no longer owns it (given up, cancelled or re-run). */
  async function heartbeat(queue: TJobQueueName, jobId: string, retryCount: number): Promise<boolean> {
    const r = await queryRows(sqlDb, `update ${S}.job set started_on = now() where name = $1 and id = $2 and state = 'active' and retry_count = $3 returning 1 as ok`, [
      queue,
      jobId,
      retryCount,
    ]);
    return r.length > 0;
  }

  /** Whether the job's organisation or member is suspended now (a job of nobody's is never). */
  async function ownerSuspended(jobId: string): Promise<boolean> {
    const r = await queryRows<{ suspended: boolean }>(
      sqlDb,
      `select exists (select 1 from job_status s left join organisations o on o.id = s.org_id left join users u on u.id = s.user_id
                       where s.id = $1 and (o.suspended_at is not null or u.suspended_at is not null)) as suspended`,
      [jobId],
    );
    return r[0]?.suspended === true;
  }

  /**
   * Pauses a job whose owner is suspended: back to waiting (pg-boss's retry, with one more attempt allowed so the
   * pause never counts as one) and looked at again after SUSPENDED_RECHECK_SECONDS. It keeps its id, so a cancel of
   * its list still finds it.
   */
  async function pauseForSuspension(queue: TJobQueueName, job: TFetched): Promise<void> {
    await sqlDb.executeSql(`update ${S}.job set retry_limit = retry_limit + 1 where name = $1 and id = $2 and state = 'active'`, [queue, job.id]);
    await boss.fail(queue, job.id, { message: JOB_PAUSED_MESSAGE });
    await sqlDb.executeSql(`update ${S}.job set start_after = now() + make_interval(secs => $3) where name = $1 and id = $2 and state = 'retry'`, [
      queue,
      job.id,
      SUSPENDED_RECHECK_SECONDS,
    ]);
    logger?.info({ jobId: job.id, name: job.data?.kind }, 'job paused: its organisation or member is suspended');
  }

  async function execute(queue: TJobQueueName, job: TFetched): Promise<void> {
    const def = defs.get(job.data?.kind);
    const expireMs = Number(job.expireInSeconds) * 1000;
    let owned = true;
    let abandoned = false;
    // The heartbeat: expiry is the silence after which a job counts as abandoned, not a limit on its run time.
    const beat = setInterval(() => {
      if (abandoned) return;
      heartbeat(queue, job.id, job.retryCount)
        .then((ok) => {
          if (!ok) owned = false;
        })
        .catch((err: unknown) => logger?.error({ jobId: job.id, err: err instanceof Error ? err.message : String(err) }, 'job heartbeat failed'));
    }, Math.max(250, Math.floor(expireMs / 4)));
    const entry = {
      done: Promise.resolve(),
      abandon() {
        abandoned = true;
        clearInterval(beat);
      },
    };
    const run = async () => {
      if (!def) {
        await boss.fail(queue, job.id, { message: `unknown job ${String(job.data?.kind)}` });
        return;
      }
      const ctx: TJobContext = {
        jobId: job.id,
        attempt: job.retryCount + 1,
        maxAttempts: job.retryLimit + 1,
        reportProgress: async (percent) => {
          const p = Math.max(0, Math.min(100, Math.round(percent)));
          await sqlDb.executeSql(`update job_status set progress = $2 where id = $1`, [job.id, p]);
        },
        isCancelled: async () => {
          if (!owned || abandoned) return true;
          const r = await queryRows<{ cancel_requested: boolean | null; owned: boolean }>(
            sqlDb,
            `select (select cancel_requested from job_status where id = $2) as cancel_requested,
                    exists (select 1 from ${S}.job where name = $1 and id = $2 and state = 'active' and retry_count = $3) as owned`,
            [queue, job.id, job.retryCount],
          );
          if (!r[0]?.owned) owned = false;
          if (!owned || r[0]?.cancel_requested === true) return true;
          // bulk work stops at its next look once its owner is suspended (no more mail servers asked); it is paused below
          return def.pausesWhileSuspended === true && (await ownerSuspended(job.id));
        },
      };
      const parsed = def.payload.safeParse(job.data.payload);
      if (!parsed.success) {
        // A payload that cannot be read fails for good: no retry would read it better.
        await sqlDb.executeSql(`update ${S}.job set retry_limit = retry_count where name = $1 and id = $2`, [queue, job.id]);
        await boss.fail(queue, job.id, { message: `invalid payload: ${parsed.error.message}` });
        logger?.error({ jobId: job.id, name: def.name }, 'job payload invalid');
        return;
      }
      if (def.pausesWhileSuspended && (await ownerSuspended(job.id))) {
        clearInterval(beat);
        await pauseForSuspension(queue, job);
        return;
      }
      let result: unknown;
      let failure: unknown = null;
      try {
        result = await def.handler(parsed.data, ctx);
      } catch (err) {
        failure = err ?? new Error('job failed');
      }
      clearInterval(beat);
      // Never finish an attempt this worker no longer owns (it was given up and may run elsewhere).
      if (!(await heartbeat(queue, job.id, job.retryCount))) {
        logger?.info({ jobId: job.id, name: def.name }, 'job no longer owned by this worker; its outcome is dropped');
        return;
      }
      // Bulk work that stopped because its owner was suspended (or whose owner was suspended as it ended) is paused, not
      // completed: it runs again once they are restored, and does only what is still pending (handlers are idempotent).
      if (def.pausesWhileSuspended && (await ownerSuspended(job.id))) {
        await pauseForSuspension(queue, job);
        return;
      }
      if (failure === null) {
        await boss.complete(queue, job.id, { result: result ?? null });
        return;
      }
      const message = failure instanceof Error ? failure.message : String(failure);
      const status = await readJobStatus(sqlDb, job.id);
      if (status?.cancel_requested) {
        await boss.cancel(queue, job.id);
        return;
      }
      // A charge refused because the owner was suspended meanwhile (the ledger's account_suspended): nothing of the
      // refused step was kept; the job waits for the restore instead of failing.
      if (isAppError(failure) && failure.code === 'account_suspended') {
        await pauseForSuspension(queue, job);
        return;
      }
      await boss.fail(queue, job.id, failure instanceof Error ? failure : { message });
      // pg-boss's back-off doubles without a ceiling; keep the next attempt within maxBackoffSeconds (with jitter).
      await sqlDb.executeSql(
        `update ${S}.job set start_after = least(start_after, now() + make_interval(secs => $3 * (0.5 + random() / 2)))
          where name = $1 and id = $2 and state = 'retry'`,
        [queue, job.id, settings.maxBackoffSeconds],
      );
      const willRetry = job.retryCount < job.retryLimit;
      if (willRetry) logger?.info({ jobId: job.id, name: def.name, attempt: ctx.attempt, err: message }, 'job failed, will retry');
      else logger?.error({ jobId: job.id, name: def.name, attempt: ctx.attempt, err: message }, 'job failed');
    };
    entry.done = run()
      .catch((err: unknown) => logger?.error({ jobId: job.id, err: err instanceof Error ? err.message : String(err) }, 'job bookkeeping failed'))
      .finally(() => clearInterval(beat));
    inFlight.add(entry);
    try {
      await entry.done;
    } finally {
      inFlight.delete(entry);
    }
  }

  async function fetchOne(queue: TJobQueueName, includeDelayed: boolean, batchSize = 1): Promise<TFetched[]> {
    return (await boss.fetch(queue, { batchSize, includeMetadata: true, ignoreStartAfter: includeDelayed })) as unknown as TFetched[];
  }

  async function runOnce(o: { includeDelayed?: boolean } = {}): Promise<boolean> {
    for (const queue of opts.queues) {
      const [job] = await fetchOne(queue, o.includeDelayed ?? false);
      if (job) {
        await execute(queue, job);
        return true;
      }
    }
    return false;
  }

  /** One poller per queue: keeps up to `concurrency` of its jobs running, fetching as slots free up. */
  async function poll(queue: TJobQueueName, signal: TWakeSignal): Promise<void> {
    const concurrency = Math.max(1, settings.queues[queue].concurrency);
    let active = 0;
    while (polling) {
      const free = concurrency - active;
      let fetched: TFetched[] = [];
      if (free > 0) {
        try {
          fetched = await fetchOne(queue, false, free);
        } catch (err) {
          logger?.error({ queue, err: err instanceof Error ? err.message : String(err) }, 'job fetch failed');
        }
      }
      for (const job of fetched) {
        active += 1;
        void execute(queue, job).finally(() => {
          active -= 1;
          wakeUp(signal);
        });
      }
      if (!polling) break;
      // A full batch may mean more are waiting: fetch again at once while slots are free.
      if (fetched.length > 0 && fetched.length === free && active < concurrency) continue;
      await sleep(pollIntervalMs, signal);
    }
  }

  return {
    runOnce,
    startPolling() {
      polling = true;
      for (const q of opts.queues) {
        const signal: TWakeSignal & { loop?: Promise<void> } = {};
        signal.loop = poll(q, signal).catch((err: unknown) => logger?.error({ queue: q, err: err instanceof Error ? err.message : String(err) }, 'job poller stopped'));
        pollers.set(q, signal);
      }
    },
    wake(queue) {
      const signal = pollers.get(queue as TJobQueueName);
      if (signal) wakeUp(signal);
    },
    wakeAll() {
      for (const signal of pollers.values()) wakeUp(signal);
    },
    async stop(timeoutMs) {
      polling = false;
      for (const p of pollers.values()) p.wake?.();
      await Promise.all([...pollers.values()].map((p) => p.loop));
      pollers.clear();
      // Bounded shutdown: running handlers get `timeoutMs` to finish; then this worker stops waiting and stops their
      // heartbeats, so pg-boss gives their jobs up after their expiry and retries them (within the attempt cap).
      if (inFlight.size > 0) {
        let timer: NodeJS.Timeout | undefined;
        const waited = await Promise.race([
          Promise.all([...inFlight].map((e) => e.done)).then(() => true),
          new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs))),
        ]);
        clearTimeout(timer);
        if (!waited) {
          logger?.error({ jobs: inFlight.size }, 'jobs still running at shutdown: left for another worker');
          for (const e of inFlight) e.abandon();
        }
      }
    },
  };
}
