import { randomUUID } from 'node:crypto';
import PgBoss from 'pg-boss';
import { JOB_QUEUE_NAMES, type TJobQueueName, type TJobsConfig } from '../../config';
import { sqlExecutorFor, type TDatabase, type TSqlExecutor } from '../db/database';
import { JOB_SCHEMA } from './install';
import type { TJobContext, TJobDefinition, TJobInfo, TJobQueue, TJobState, TQueueLogger } from './jobs';

/** What a pg-boss job carries: our job kind and its (validated) payload. */
type TJobData = { kind: string; payload: unknown };

type TFetched = { id: string; name: string; data: TJobData; retryCount: number; retryLimit: number; expireInSeconds: string | number };

type TBossRow = {
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

type TStatusRow = { id: string; queue: TJobQueueName; name: string; org_id: string | null; user_id: string | null; progress: number; cancel_requested: boolean };

const S = JOB_SCHEMA;

function errorMessage(output: Record<string, unknown> | null): string | null {
  if (!output) return null;
  if (typeof output.message === 'string') return output.message;
  const value = output.value as { message?: unknown } | undefined;
  return typeof value?.message === 'string' ? value.message : null;
}

function sleep(ms: number, signal: { wake?: () => void }): Promise<void> {
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

/**
 * The job system on pg-boss, on both engines: pg-boss's SQL runs through `database.jobSql` (PostgreSQL: its own
 * pool; PGlite: the single session behind the database mutex), a job enqueued with `tx` is inserted in the
 * caller's transaction (pg-boss's per-call `db`). One pg-boss queue per kind of work; this worker polls each
 * with its own concurrency, keeps running jobs alive with a heartbeat and completes or fails them; pg-boss's
 * supervisor gives up jobs whose heartbeat stopped (a dead worker) and retries them within their attempt cap.
 */
export function createJobQueue(opts: {
  database: TDatabase;
  definitions: TJobDefinition[];
  jobs: TJobsConfig;
  pollIntervalMs?: number;
  logger?: TQueueLogger;
  /** Run by start(), once pg-boss runs: schedules, bootstrap jobs. */
  onStart?: ((queue: TJobQueue) => Promise<void>)[];
}): TJobQueue {
  const { database, jobs: settings } = opts;
  const logger = opts.logger;
  const pollIntervalMs = opts.pollIntervalMs ?? 500;
  const defs = new Map<string, TJobDefinition>();
  for (const d of opts.definitions) defs.set(d.name, d);
  const sqlDb: TSqlExecutor = database.jobSql;
  const boss = new PgBoss({
    db: sqlDb,
    schema: S,
    supervise: true,
    schedule: true,
    maintenanceIntervalSeconds: settings.superviseIntervalSeconds,
    archiveCompletedAfterSeconds: settings.retentionHours * 3600,
    archiveFailedAfterSeconds: Math.max(settings.retentionHours * 3600, 7 * 86_400),
    // Archived jobs go two days later: the webhook dispatcher alone finishes a job a second.
    deleteAfterDays: 2,
  });
  boss.on('error', (err: unknown) => logger?.error({ err: err instanceof Error ? err.message : String(err) }, 'job system error'));

  /** Queues that have at least one job kind in this process. */
  const queuesInUse = JOB_QUEUE_NAMES.filter((q) => [...defs.values()].some((d) => d.queue === q));
  let running = false;
  let bossStarted = false;
  const pollers = new Map<TJobQueueName, { wake?: () => void; loop?: Promise<void> }>();
  const inFlight = new Set<{ done: Promise<void>; abandon(): void }>();

  async function rows<T>(text: string, values?: unknown[]): Promise<T[]> {
    return (await sqlDb.executeSql(text, values)).rows as T[];
  }

  async function statusOf(jobId: string): Promise<TStatusRow | null> {
    const r = await rows<TStatusRow>(`select id, queue, name, org_id, user_id, progress, cancel_requested from job_status where id = $1`, [jobId]);
    return r[0] ?? null;
  }

  function toInfo(s: TStatusRow, j: TBossRow): TJobInfo {
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

  async function get(jobId: string): Promise<TJobInfo | null> {
    const s = await statusOf(jobId);
    if (!s) return null;
    const j = (await boss.getJobById(s.queue, jobId, { includeArchive: true })) as unknown as TBossRow | null;
    return j ? toInfo(s, j) : null;
  }

  /** Refreshes the job's heartbeat; false once this attempt no longer owns it (given up, cancelled or re-run). */
  async function heartbeat(queue: TJobQueueName, jobId: string, retryCount: number): Promise<boolean> {
    const r = await rows(`update ${S}.job set started_on = now() where name = $1 and id = $2 and state = 'active' and retry_count = $3 returning 1 as ok`, [
      queue,
      jobId,
      retryCount,
    ]);
    return r.length > 0;
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
          const r = await rows<{ cancel_requested: boolean | null; owned: boolean }>(
            `select (select cancel_requested from job_status where id = $2) as cancel_requested,
                    exists (select 1 from ${S}.job where name = $1 and id = $2 and state = 'active' and retry_count = $3) as owned`,
            [queue, job.id, job.retryCount],
          );
          if (!r[0]?.owned) owned = false;
          return !owned || r[0]?.cancel_requested === true;
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
      if (failure === null) {
        await boss.complete(queue, job.id, { result: result ?? null });
        return;
      }
      const message = failure instanceof Error ? failure.message : String(failure);
      const status = await statusOf(job.id);
      if (status?.cancel_requested) {
        await boss.cancel(queue, job.id);
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
    for (const queue of queuesInUse) {
      const [job] = await fetchOne(queue, o.includeDelayed ?? false);
      if (job) {
        await execute(queue, job);
        return true;
      }
    }
    return false;
  }

  /** One poller per queue: keeps up to `concurrency` of its jobs running, fetching as slots free up. */
  async function poll(queue: TJobQueueName, signal: { wake?: () => void }): Promise<void> {
    const concurrency = Math.max(1, settings.queues[queue].concurrency);
    let active = 0;
    while (running) {
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
          signal.wake?.();
        });
      }
      if (!running) break;
      // A full batch may mean more are waiting: fetch again at once while slots are free.
      if (fetched.length > 0 && fetched.length === free && active < concurrency) continue;
      await sleep(pollIntervalMs, signal);
    }
  }

  async function enqueueWith(exec: TSqlExecutor, def: TJobDefinition, payload: unknown, o: Parameters<TJobQueue['enqueue']>[2] = {}): Promise<string> {
    const id = randomUUID();
    const maxAttempts = Math.max(1, o.maxAttempts ?? def.maxAttempts ?? 5);
    const backoffMs = o.backoffMs ?? def.backoffMs ?? 1000;
    await exec.executeSql(`insert into job_status (id, queue, name, org_id, user_id) values ($1, $2, $3, $4, $5)`, [id, def.queue, def.name, o.orgId ?? null, o.userId ?? null]);
    const sent = await boss.send(def.queue, { kind: def.name, payload } satisfies TJobData, {
      id,
      db: exec,
      retryLimit: maxAttempts - 1,
      retryDelay: Math.max(1, Math.ceil(backoffMs / 1000)),
      retryBackoff: true,
      expireInSeconds: settings.queues[def.queue].expireSeconds,
      ...(o.delayMs ? { startAfter: Math.max(1, Math.ceil(o.delayMs / 1000)) } : {}),
    } as PgBoss.SendOptions);
    if (!sent) throw new Error('enqueue failed');
    return sent;
  }

  const queue: TJobQueue = {
    async enqueue(name, payload, o = {}) {
      const def = defs.get(name);
      if (!def) throw new Error(`unknown job ${name}`);
      const data = def.payload.parse(payload);
      if (o.tx) return enqueueWith(sqlExecutorFor(o.tx), def, data, o);
      // Our status row and pg-boss's job in one transaction.
      return database.transaction((tx) => enqueueWith(sqlExecutorFor(tx), def, data, o));
    },
    async cancel(jobId, orgId) {
      const s = await statusOf(jobId);
      if (!s || (orgId !== undefined && s.org_id !== orgId)) return null;
      await sqlDb.executeSql(`update job_status set cancel_requested = true where id = $1`, [jobId]);
      // A job not yet running is cancelled at once; a running one stops at its handler's next check.
      await sqlDb.executeSql(`update ${S}.job set state = 'cancelled', completed_on = now() where name = $1 and id = $2 and state < 'active'`, [s.queue, jobId]);
      return (await get(jobId))?.state ?? null;
    },
    async cancelWhere(name, match) {
      const def = defs.get(name);
      if (!def) throw new Error(`unknown job ${name}`);
      const r = await rows(
        `update ${S}.job set state = 'cancelled', completed_on = now()
          where name = $1 and state < 'active' and data->>'kind' = $2 and data->'payload' @> $3::jsonb
          returning 1 as ok`,
        [def.queue, name, JSON.stringify(match)],
      );
      return r.length;
    },
    get,
    async pending(name) {
      const r = await rows<{ n: number | string }>(
        `select count(*) as n from job_status s join ${S}.job j on j.name = s.queue and j.id = s.id where s.name = $1 and j.state < 'completed'`,
        [name],
      );
      return Number(r[0]?.n ?? 0);
    },
    runOnce,
    async runUntilIdle(o = {}) {
      await boss.expire();
      let n = 0;
      const max = o.maxJobs ?? 1000;
      while (n < max && (await runOnce({ includeDelayed: o.includeDelayed }))) n += 1;
      return n;
    },
    async schedule(name, cron, payload = {}) {
      const def = defs.get(name);
      if (!def) throw new Error(`unknown job ${name}`);
      await boss.schedule(def.queue, cron, { kind: name, payload: def.payload.parse(payload) } satisfies TJobData, {
        tz: 'UTC',
        retryLimit: Math.max(1, def.maxAttempts ?? 1) - 1,
        expireInSeconds: settings.queues[def.queue].expireSeconds,
      });
    },
    async maintain() {
      await boss.expire();
      await boss.archive();
      // `drop` (delete archived jobs older than deleteAfterDays) is missing from pg-boss 10's type declarations.
      await (boss as unknown as { drop(): Promise<void> }).drop();
      // pg-boss's own expiry retries with an uncapped back-off: bring far retries within the cap.
      await sqlDb.executeSql(
        `update ${S}.job set start_after = now() + make_interval(secs => $1::int) where state = 'retry' and start_after > now() + make_interval(secs => $1::int)`,
        [settings.maxBackoffSeconds],
      );
      const deleted = await rows(
        `delete from job_status s where s.created_at < now() - interval '1 hour'
           and not exists (select 1 from ${S}.job j where j.name = s.queue and j.id = s.id)
           and not exists (select 1 from ${S}.archive a where a.name = s.queue and a.id = s.id)
         returning 1 as ok`,
      );
      return { deletedStatusRows: deleted.length };
    },
    async start() {
      if (running) return;
      running = true;
      if (!bossStarted) {
        await boss.start();
        bossStarted = true;
        if (!running) {
          // stop() came while pg-boss was starting: finish stopping here.
          bossStarted = false;
          await boss.stop({ graceful: false, close: false, wait: true });
          return;
        }
      }
      for (const q of queuesInUse) {
        const signal: { wake?: () => void; loop?: Promise<void> } = {};
        signal.loop = poll(q, signal).catch((err: unknown) => logger?.error({ queue: q, err: err instanceof Error ? err.message : String(err) }, 'job poller stopped'));
        pollers.set(q, signal);
      }
      for (const hook of opts.onStart ?? []) await hook(queue);
    },
    async stop(o = {}) {
      const timeoutMs = o.timeoutMs ?? settings.shutdownTimeoutMs;
      running = false;
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
      if (bossStarted) {
        bossStarted = false;
        await boss.stop({ graceful: false, close: false, wait: true });
      }
    },
  };
  return queue;
}
