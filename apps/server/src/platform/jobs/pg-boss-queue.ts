import { randomUUID } from 'node:crypto';
import PgBoss from 'pg-boss';
import { JOB_QUEUE_NAMES, type TJobsConfig } from '../../config';
import { sqlExecutorFor, type TDatabase, type TSqlExecutor } from '../db/database';
import { JOB_SCHEMA } from '../db/job-schema';
import type { TJobDefinition, TJobInfo, TJobQueue, TQueueLogger } from './jobs';
import { queryRows, readJobStatus, toJobInfo, type TBossRow, type TJobData } from './pg-boss-status';
import { createJobWorker } from './pg-boss-worker';

const S = JOB_SCHEMA;

/**
 * The channel a job due now is announced on (its queue's name), in the transaction that enqueues it: PostgreSQL delivers
 * the notice at commit, to the workers of every process, which fetch at once. Polling stays for the jobs that become
 * due later (a delay, a retry's back-off, a schedule) and for notices missed while a LISTEN connection was down.
 */
export const JOBS_CHANNEL = 'verilead_jobs';

/** Rows a pg-boss command changed (it answers `{ affected }`, which pg-boss 10's type declarations leave out as void). */
const affectedBy = (answer: unknown): number => Number((answer as { affected?: number } | undefined)?.affected ?? 0);

/**
 * The job system on pg-boss, on both engines: pg-boss's SQL runs through `database.jobSql` (PostgreSQL: its own
 * pool; PGlite: the single session behind the database mutex), a job enqueued with `tx` is inserted in the
 * caller's transaction (pg-boss's per-call `db`). One pg-boss queue per kind of work; this worker polls each
 * with its own concurrency (and is woken at once by the notice of a job enqueued: JOBS_CHANNEL), keeps running jobs
 * alive with a heartbeat and completes or fails them (pg-boss-worker.ts); pg-boss's supervisor gives up jobs whose
 * heartbeat stopped (a dead worker) and retries them within their attempt cap. This file builds pg-boss and answers
 * the queue's calls: enqueue, cancel, read, schedule and maintain.
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
  const pollIntervalMs = opts.pollIntervalMs ?? 2_000;
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
  const worker = createJobWorker({ boss, sqlDb, defs, queues: queuesInUse, settings, pollIntervalMs, logger });
  let running = false;
  let bossStarted = false;
  /** The start under way, awaited by stop(). */
  let starting: Promise<void> | null = null;
  /** Stops listening for due jobs (set while the worker runs). */
  let stopListening: (() => Promise<void>) | null = null;

  async function get(jobId: string): Promise<TJobInfo | null> {
    const s = await readJobStatus(sqlDb, jobId);
    if (!s) return null;
    const j = (await boss.getJobById(s.queue, jobId, { includeArchive: true })) as unknown as TBossRow | null;
    return j ? toJobInfo(s, j) : null;
  }

  /** Whether a job of this queue has failed (after its last attempt): its row locked until the caller's transaction ends. */
  async function lockFailed(exec: TSqlExecutor, queueName: string, jobId: string): Promise<boolean> {
    if (!(JOB_QUEUE_NAMES as readonly string[]).includes(queueName) || !/^[0-9a-f-]{36}$/i.test(jobId)) return false;
    const r = await queryRows(exec, `select 1 as ok from ${S}.job where name = $1 and id = $2 and state = 'failed' for update`, [queueName, jobId]);
    return r.length > 0;
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
    if (!o.delayMs) await exec.executeSql(`select pg_notify($1, $2)`, [JOBS_CHANNEL, def.queue]);
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
      const s = await readJobStatus(sqlDb, jobId);
      if (!s || (orgId !== undefined && s.org_id !== orgId)) return null;
      await sqlDb.executeSql(`update job_status set cancel_requested = true where id = $1`, [jobId]);
      // A job not yet running is cancelled at once; a running one stops at its handler's next check.
      await sqlDb.executeSql(`update ${S}.job set state = 'cancelled', completed_on = now() where name = $1 and id = $2 and state < 'active'`, [s.queue, jobId]);
      return (await get(jobId))?.state ?? null;
    },
    async cancelWhere(name, match) {
      const def = defs.get(name);
      if (!def) throw new Error(`unknown job ${name}`);
      const r = await queryRows(
        sqlDb,
        `update ${S}.job set state = 'cancelled', completed_on = now()
          where name = $1 and state < 'active' and data->>'kind' = $2 and data->'payload' @> $3::jsonb
          returning 1 as ok`,
        [def.queue, name, JSON.stringify(match)],
      );
      return r.length;
    },
    get,
    async pending(name) {
      const r = await queryRows<{ n: number | string }>(
        sqlDb,
        `select count(*) as n from job_status s join ${S}.job j on j.name = s.queue and j.id = s.id where s.name = $1 and j.state < 'completed'`,
        [name],
      );
      return Number(r[0]?.n ?? 0);
    },
    runOnce: worker.runOnce,
    async runUntilIdle(o = {}) {
      await boss.expire();
      let n = 0;
      const max = o.maxJobs ?? 1000;
      while (n < max && (await worker.runOnce({ includeDelayed: o.includeDelayed }))) n += 1;
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
      const deleted = await queryRows(
        sqlDb,
        `delete from job_status s where s.created_at < now() - interval '1 hour'
           and not exists (select 1 from ${S}.job j where j.name = s.queue and j.id = s.id)
           and not exists (select 1 from ${S}.archive a where a.name = s.queue and a.id = s.id)
         returning 1 as ok`,
      );
      return { deletedStatusRows: deleted.length };
    },
    async retryFailed(queueName, jobId, tx) {
      const exec = tx ? sqlExecutorFor(tx) : sqlDb;
      if (!(await lockFailed(exec, queueName, jobId))) return false;
      return affectedBy(await boss.retry(queueName, jobId, { db: exec })) > 0;
    },
    async discardFailed(queueName, jobId, tx) {
      const run = async (exec: TSqlExecutor): Promise<boolean> => {
        // locked as failed first: pg-boss's deleteJob deletes a job in any state
        if (!(await lockFailed(exec, queueName, jobId))) return false;
        const affected = affectedBy(await boss.deleteJob(queueName, jobId, { db: exec }));
        await exec.executeSql(`delete from job_status where id = $1 and queue = $2`, [jobId, queueName]);
        return affected > 0;
      };
      return tx ? run(sqlExecutorFor(tx)) : database.transaction((t) => run(sqlExecutorFor(t)));
    },
    async start() {
      if (running) return;
      running = true;
      const run = (async () => {
        if (!bossStarted) {
          await boss.start();
          bossStarted = true;
          if (!running) return;
        }
        // Jobs enqueued from now on, in this process or another, wake their poller; a LISTEN connection opened again
        // after a loss wakes them all (notices sent meanwhile were missed). Listening before the pollers' first look,
        // no job falls between the two. Without notices the pollers still find every job, later.
        stopListening = await database
          .listen(JOBS_CHANNEL, (queueName) => worker.wake(queueName), () => worker.wakeAll())
          .catch((err: unknown) => {
            logger?.error({ err: err instanceof Error ? err.message : String(err) }, 'job notices unavailable: jobs are found by polling');
            return null;
          });
        if (!running) return;
        worker.startPolling();
        // A stop() that came meanwhile ends the hooks here: none runs on a queue that is stopping.
        for (const hook of opts.onStart ?? []) if (running) await hook(queue);
      })();
      starting = run;
      try {
        await run;
      } finally {
        if (starting === run) starting = null;
      }
    },
    async stop(o = {}) {
      const timeoutMs = o.timeoutMs ?? settings.shutdownTimeoutMs;
      running = false;
      // A start still under way (pg-boss starting, a hook scheduling) finishes first: stopping under it would leave
      // its calls running on a closed pool. Its failure is start()'s own to report.
      await starting?.catch(() => undefined);
      await stopListening?.();
      stopListening = null;
      await worker.stop(timeoutMs);
      if (bossStarted) {
        bossStarted = false;
        await boss.stop({ graceful: false, close: false, wait: true });
      }
    },
  };
  return queue;
}
