import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { selectRows, type TDatabase, type TDb } from '../db/database';
import { jobs } from './tables';

export type TJobContext = {
  jobId: string;
  attempt: number;
  /** Records progress (0–100, clamped) in the jobs table and refreshes the job's lock. */
  reportProgress(percent: number): Promise<void>;
  /** True once someone asked to cancel this job; a handler checks it between units of work. */
  isCancelled(): Promise<boolean>;
};

export type TJobDefinition<P extends z.ZodType = z.ZodType> = {
  name: string;
  payload: P;
  maxAttempts?: number;
  /** Base back-off; attempt n waits backoffMs * 2^(n-1). */
  backoffMs?: number;
  /** Must be idempotent: a job may run again after a crash or a failed attempt. */
  handler(payload: z.output<P>, ctx: TJobContext): Promise<unknown>;
};

/** Declares a typed job. */
export function defineJob<P extends z.ZodType>(def: TJobDefinition<P>): TJobDefinition<P> {
  return def;
}

export type TJobState = 'queued' | 'active' | 'completed' | 'failed' | 'cancelled';

export type TJobRow = typeof jobs.$inferSelect;

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
  get(jobId: string): Promise<TJobRow | null>;
  /** Claims and runs one due job; false when none was due. */
  runOnce(): Promise<boolean>;
  /** Runs due jobs until none is left (tests, CLI). `includeDelayed` also runs retries scheduled later. */
  runUntilIdle(opts?: { includeDelayed?: boolean; maxJobs?: number }): Promise<number>;
  /** Starts polling (worker role). */
  start(): void;
  stop(): Promise<void>;
};

export type TQueueLogger = { info(obj: object, msg?: string): void; error(obj: object, msg?: string): void };

/**
 * A durable queue on the `jobs` table: claims with FOR UPDATE SKIP LOCKED, so any number of workers
 * on PostgreSQL share it; on PGlite the single session serialises everything.
 */
export function createJobQueue(opts: {
  database: TDatabase;
  definitions: TJobDefinition[];
  pollIntervalMs?: number;
  /** An active job whose lock is older than this is considered abandoned and re-queued. */
  lockTimeoutMs?: number;
  /** How many jobs this worker runs at the same time (default 1). */
  concurrency?: number;
  logger?: TQueueLogger;
}): TJobQueue {
  const { database } = opts;
  const defs = new Map(opts.definitions.map((d) => [d.name, d]));
  const workerId = `worker-${randomUUID()}`;
  const pollIntervalMs = opts.pollIntervalMs ?? 500;
  const lockTimeoutMs = opts.lockTimeoutMs ?? 10 * 60_000;
  const logger = opts.logger;
  const concurrency = Math.max(1, opts.concurrency ?? 1);
  const timers = new Set<NodeJS.Timeout>();
  const loops = new Set<Promise<void>>();
  let stopped = true;

  async function claim(includeDelayed: boolean): Promise<TJobRow | null> {
    const names = [...defs.keys()];
    if (names.length === 0) return null;
    const due = includeDelayed ? sql`true` : sql`run_at <= now()`;
    const rows = await selectRows<{ id: string }>(
      database.db,
      sql`update jobs set state = 'active', attempts = attempts + 1, locked_at = now(), locked_by = ${workerId}, updated_at = now()
          where id = (
            select id from jobs
            where (state = 'queued' and ${due}
                   or state = 'active' and locked_at < now() - make_interval(secs => ${lockTimeoutMs / 1000}))
              and name in (${sql.join(
                names.map((n) => sql`${n}`),
                sql`, `,
              )})
            order by run_at, created_at
            for update skip locked
            limit 1
          )
          returning id`,
    );
    const id = rows[0]?.id;
    return id ? ((await get(id)) ?? null) : null;
  }

  async function get(jobId: string): Promise<TJobRow | null> {
    const rows = await database.db.select().from(jobs).where(eq(jobs.id, jobId)).limit(1);
    return rows[0] ?? null;
  }

  async function finish(job: TJobRow, state: TJobState, values: Partial<TJobRow>) {
    await database.db
      .update(jobs)
      .set({ ...values, state, lockedAt: null, lockedBy: null, updatedAt: new Date(), finishedAt: state === 'queued' ? null : new Date() })
      .where(and(eq(jobs.id, job.id), eq(jobs.lockedBy, workerId)));
  }

  async function execute(job: TJobRow): Promise<void> {
    const def = defs.get(job.name);
    if (!def) return;
    const ctx: TJobContext = {
      jobId: job.id,
      attempt: job.attempts,
      reportProgress: async (percent) => {
        const p = Math.max(0, Math.min(100, Math.round(percent)));
        await database.db.update(jobs).set({ progress: p, lockedAt: new Date(), updatedAt: new Date() }).where(eq(jobs.id, job.id));
      },
      isCancelled: async () => {
        const rows = await database.db.select({ c: jobs.cancelRequested }).from(jobs).where(eq(jobs.id, job.id)).limit(1);
        return rows[0]?.c ?? true;
      },
    };
    const parsed = def.payload.safeParse(job.payload);
    if (!parsed.success) {
      await finish(job, 'failed', { lastError: `invalid payload: ${parsed.error.message}` });
      logger?.error({ jobId: job.id, name: job.name }, 'job payload invalid');
      return;
    }
    try {
      const result = await def.handler(parsed.data, ctx);
      const cancelled = await ctx.isCancelled();
      await finish(job, cancelled ? 'cancelled' : 'completed', {
        result: (result ?? null) as unknown,
        progress: cancelled ? undefined : 100,
        lastError: null,
      });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (await ctx.isCancelled()) {
        await finish(job, 'cancelled', { lastError: message });
      } else if (job.attempts < job.maxAttempts) {
        const delay = job.backoffMs * 2 ** (job.attempts - 1);
        await database.db
          .update(jobs)
          .set({
            state: 'queued',
            lastError: message,
            lockedAt: null,
            lockedBy: null,
            updatedAt: new Date(),
            runAt: sql`now() + make_interval(secs => ${delay / 1000})`,
          })
          .where(and(eq(jobs.id, job.id), eq(jobs.lockedBy, workerId)));
        logger?.info({ jobId: job.id, name: job.name, attempt: job.attempts, delayMs: delay, err: message }, 'job failed, will retry');
      } else {
        await finish(job, 'failed', { lastError: message });
        logger?.error({ jobId: job.id, name: job.name, attempt: job.attempts, err: message }, 'job failed');
      }
    }
  }

  async function runOnceInternal(includeDelayed: boolean): Promise<boolean> {
    const job = await claim(includeDelayed);
    if (!job) return false;
    await execute(job);
    return true;
  }

  /** One polling loop: drains due jobs, then sleeps pollIntervalMs. `concurrency` loops run side by side. */
  async function poll(): Promise<void> {
    if (stopped) return;
    try {
      while (!stopped && (await runOnceInternal(false))) {
        /* keep draining */
      }
    } catch (err) {
      logger?.error({ err: err instanceof Error ? err.message : String(err) }, 'job poll failed');
    }
    if (stopped) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      track(poll());
    }, pollIntervalMs);
    timers.add(timer);
  }

  function track(loop: Promise<void>) {
    loops.add(loop);
    void loop.finally(() => loops.delete(loop));
  }

  return {
    async enqueue(name, payload, o = {}) {
      const def = defs.get(name);
      if (!def) throw new Error(`unknown job ${name}`);
      const data = def.payload.parse(payload);
      const exec = o.tx ?? database.db;
      const rows = await exec
        .insert(jobs)
        .values({
          name,
          payload: data,
          orgId: o.orgId ?? null,
          userId: o.userId ?? null,
          maxAttempts: o.maxAttempts ?? def.maxAttempts ?? 5,
          backoffMs: o.backoffMs ?? def.backoffMs ?? 1000,
          runAt: o.delayMs ? sql`now() + make_interval(secs => ${o.delayMs / 1000})` : sql`now()`,
        })
        .returning({ id: jobs.id });
      const id = rows[0]?.id;
      if (!id) throw new Error('enqueue failed');
      return id;
    },
    async cancel(jobId, orgId) {
      const scope = orgId === undefined ? sql`true` : orgId === null ? sql`org_id is null` : sql`org_id = ${orgId}`;
      const rows = await selectRows<{ state: TJobState }>(
        database.db,
        sql`update jobs set
              cancel_requested = true,
              state = case when state = 'queued' then 'cancelled' else state end,
              finished_at = case when state = 'queued' then now() else finished_at end,
              updated_at = now()
            where id = ${jobId} and ${scope} and state in ('queued', 'active')
            returning state`,
      );
      if (rows[0]) return rows[0].state;
      const job = await get(jobId);
      if (!job || (orgId !== undefined && job.orgId !== orgId)) return null;
      return job.state as TJobState;
    },
    get,
    runOnce: () => runOnceInternal(false),
    async runUntilIdle(o = {}) {
      let n = 0;
      const max = o.maxJobs ?? 1000;
      while (n < max && (await runOnceInternal(o.includeDelayed ?? false))) n += 1;
      return n;
    },
    start() {
      if (!stopped) return;
      stopped = false;
      for (let i = 0; i < concurrency; i += 1) track(poll());
    },
    async stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await Promise.all([...loops]);
    },
  };
}
