import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestDb, type TTestDb } from '../../test/test-db';
import { createTestQueue, testJobsConfig } from '../../test/test-queue';
import { selectRows, sql } from '../db/database';
import { defineJob, type TJobDefinition, type TJobQueue } from './jobs';
import { createJobQueue } from './pg-boss-queue';

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
const defs = (...d: unknown[]) => d as TJobDefinition[];

describe('job queue (pg-boss)', () => {
  let t: TTestDb;
  let queue: TJobQueue;
  const calls: Record<string, number> = {};
  let releaseSlow: () => void = () => undefined;
  let slowStarted: () => void = () => undefined;

  beforeAll(async () => {
    t = await createTestDb();
    const flaky = defineJob({
      name: 'flaky',
      queue: 'analysis',
      payload: z.object({ key: z.string(), failTimes: z.number().int() }),
      backoffMs: 0,
      maxAttempts: 3,
      async handler(p, ctx) {
        calls[p.key] = (calls[p.key] ?? 0) + 1;
        if (ctx.attempt <= p.failTimes) throw new Error(`failure ${ctx.attempt}`);
        return { ok: true, attempt: ctx.attempt };
      },
    });
    const progress = defineJob({
      name: 'progress',
      queue: 'exports',
      payload: z.object({ steps: z.number().int().min(1) }),
      async handler(p, ctx) {
        for (let i = 1; i <= p.steps; i += 1) {
          if (await ctx.isCancelled()) return { stoppedAt: i };
          await ctx.reportProgress((i / p.steps) * 100);
          if (i === 1 && p.steps === 4) {
            slowStarted();
            await new Promise<void>((r) => (releaseSlow = r));
          }
        }
        return { done: p.steps };
      },
    });
    queue = createTestQueue(t, defs(flaky, progress));
  });
  afterAll(async () => {
    await queue.stop();
    await t.dispose();
  });

  it('retries with back-off until it succeeds', async () => {
    const id = await queue.enqueue('flaky', { key: 'a', failTimes: 2 });
    await queue.runUntilIdle({ includeDelayed: true });
    const job = await queue.get(id);
    expect(job?.state).toBe('completed');
    expect(job?.attempts).toBe(3);
    expect(calls.a).toBe(3);
    expect(job?.result).toEqual({ ok: true, attempt: 3 });
  });

  it('schedules a retry later, within the back-off cap, and gives up after max attempts', async () => {
    // An hour of base back-off: the cap (15 minutes by default, with jitter) bounds the wait.
    const id = await queue.enqueue('flaky', { key: 'b', failTimes: 10 }, { backoffMs: 3_600_000 });
    expect(await queue.runOnce()).toBe(true);
    let job = await queue.get(id);
    expect(job?.state).toBe('queued');
    expect(job?.lastError).toBe('failure 1');
    const ahead = (await selectRows<{ ahead: number }>(t.db, sql`select extract(epoch from (${job!.runAt.toISOString()}::timestamptz - now()))::float as ahead`))[0]!.ahead;
    expect(ahead).toBeGreaterThan(400);
    expect(ahead).toBeLessThanOrEqual(900);
    // not due yet: a normal run finds nothing
    expect(await queue.runOnce()).toBe(false);
    await queue.runUntilIdle({ includeDelayed: true });
    job = await queue.get(id);
    expect(job?.state).toBe('failed');
    expect(job?.attempts).toBe(3);
    expect(job?.lastError).toBe('failure 3');
  });

  it('rejects a payload that does not match the schema', async () => {
    await expect(queue.enqueue('flaky', { key: 1 })).rejects.toThrow();
    await expect(queue.enqueue('nope', {})).rejects.toThrow('unknown job');
  });

  it('reports progress', async () => {
    const id = await queue.enqueue('progress', { steps: 5 });
    await queue.runUntilIdle();
    const job = await queue.get(id);
    expect(job?.state).toBe('completed');
    expect(job?.progress).toBe(100);
    expect(job?.result).toEqual({ done: 5 });
  });

  it('enqueues inside the caller\'s transaction: a rolled-back job never exists', async () => {
    let id = '';
    await expect(
      t.transaction(async (tx) => {
        id = await queue.enqueue('progress', { steps: 1 }, { tx });
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    expect(id).not.toBe('');
    expect(await queue.get(id)).toBeNull();
    expect(await queue.runOnce()).toBe(false);
    const kept = await t.transaction((tx) => queue.enqueue('progress', { steps: 1 }, { tx }));
    expect((await queue.get(kept))?.state).toBe('queued');
    await queue.runUntilIdle();
    expect((await queue.get(kept))?.state).toBe('completed');
  });

  it('cancels a queued job before it runs', async () => {
    const id = await queue.enqueue('progress', { steps: 2 }, { orgId: null });
    expect(await queue.cancel(id)).toBe('cancelled');
    expect(await queue.runOnce()).toBe(false);
    expect((await queue.get(id))?.state).toBe('cancelled');
  });

  it('cancels an active job, which stops at its next check and keeps its progress', async () => {
    const id = await queue.enqueue('progress', { steps: 4 });
    const started = new Promise<void>((r) => (slowStarted = r));
    const run = queue.runOnce();
    await started;
    expect((await queue.get(id))?.state).toBe('active');
    expect(await queue.cancel(id)).toBe('active');
    releaseSlow();
    await run;
    const job = await queue.get(id);
    expect(job?.state).toBe('cancelled');
    expect(job?.progress).toBe(25);
  });

  it("does not cancel another organisation's job", async () => {
    const org = '00000000-0000-4000-8000-000000000001';
    const id = await queue.enqueue('progress', { steps: 1 }, { orgId: org });
    expect(await queue.cancel(id, '00000000-0000-4000-8000-000000000002')).toBeNull();
    expect(await queue.cancel(id, org)).toBe('cancelled');
  });
});

describe('job queue crash recovery', () => {
  let t: TTestDb;
  beforeAll(async () => {
    t = await createTestDb();
  });
  afterAll(async () => {
    await t.dispose();
  });

  /** A job that hangs on its first run (the worker "dies" mid-job) and counts its runs. */
  function hangingJob(runs: { n: number }, started: () => void) {
    return defineJob({
      name: 'fragile',
      queue: 'exports',
      payload: z.object({}),
      async handler() {
        runs.n += 1;
        if (runs.n === 1) {
          started();
          await new Promise(() => undefined);
        }
        return { runs: runs.n };
      },
    });
  }

  async function crashThenRecover(maxAttempts: number) {
    const runs = { n: 0 };
    let started: () => void = () => undefined;
    const running = new Promise<void>((r) => (started = r));
    const def = hangingJob(runs, () => started());
    const opts = { queues: { exports: { expireSeconds: 1 } } };
    const workerA = createTestQueue(t, defs(def), opts);
    const id = await workerA.enqueue('fragile', {}, { maxAttempts, backoffMs: 0 });
    void workerA.runOnce();
    await running;
    // Worker A dies: it stops without finishing the job, and its heartbeat stops with it.
    await workerA.stop({ timeoutMs: 0 });
    await wait(2_500);
    const workerB = createTestQueue(t, defs(def), opts);
    const ran = await workerB.runUntilIdle({ includeDelayed: true });
    await workerB.stop();
    return { id, runs: runs.n, ran, job: await workerB.get(id) };
  }

  it('never runs a job with maxAttempts 1 twice, even after its worker died mid-job', async () => {
    const r = await crashThenRecover(1);
    expect(r.ran).toBe(0);
    expect(r.runs).toBe(1);
    expect(r.job?.state).toBe('failed');
    expect(r.job?.attempts).toBe(1);
    expect(r.job?.lastError).toMatch(/timeout/);
  });

  it('runs an abandoned job once more on another worker when an attempt is left', async () => {
    const r = await crashThenRecover(2);
    expect(r.ran).toBe(1);
    expect(r.runs).toBe(2);
    expect(r.job?.state).toBe('completed');
    expect(r.job?.attempts).toBe(2);
  });

  it('keeps a long-running job alive with its heartbeat: it is never given up nor run twice', async () => {
    let runs = 0;
    let finish: () => void = () => undefined;
    let started: () => void = () => undefined;
    const running = new Promise<void>((r) => (started = r));
    const def = defineJob({
      name: 'long',
      queue: 'exports',
      payload: z.object({}),
      async handler(_p, ctx) {
        runs += 1;
        started();
        await new Promise<void>((r) => (finish = r));
        return { cancelled: await ctx.isCancelled() };
      },
    });
    const opts = { queues: { exports: { expireSeconds: 1 } } };
    const workerA = createTestQueue(t, defs(def), opts);
    const workerB = createTestQueue(t, defs(def), opts);
    const id = await workerA.enqueue('long', {}, { maxAttempts: 3, backoffMs: 0 });
    const run = workerA.runOnce();
    await running;
    // Three expiry periods pass while A works; B looks for abandoned jobs all along and finds none.
    for (let i = 0; i < 6; i += 1) {
      await wait(500);
      expect(await workerB.runUntilIdle({ includeDelayed: true })).toBe(0);
    }
    finish();
    await run;
    const job = await workerA.get(id);
    expect(runs).toBe(1);
    expect(job?.state).toBe('completed');
    expect(job?.attempts).toBe(1);
    expect(job?.result).toEqual({ cancelled: false });
  });
});

describe('job queue worker', () => {
  it('runs jobs in the background with the queue\'s concurrency and stops within its timeout', async () => {
    const t = await createTestDb();
    try {
      const seen = new Set<number>();
      let inside = 0;
      let maxInside = 0;
      const work = defineJob({
        name: 'work',
        queue: 'analysis',
        payload: z.object({ n: z.number().int() }),
        async handler(p) {
          inside += 1;
          maxInside = Math.max(maxInside, inside);
          // the first jobs wait (up to 5 s) until three run at once: proves the slots run side by side
          for (let i = 0; i < 250 && maxInside < 3; i += 1) await wait(20);
          seen.add(p.n);
          inside -= 1;
        },
      });
      const stuck = defineJob({ name: 'stuck', queue: 'exports', payload: z.object({}), handler: () => new Promise(() => undefined) });
      const queue = createTestQueue(t, defs(work, stuck), { queues: { analysis: { concurrency: 3 } } });
      const ids = await Promise.all(Array.from({ length: 9 }, (_, n) => queue.enqueue('work', { n })));
      const stuckId = await queue.enqueue('stuck', {});
      await queue.start();
      while (seen.size < 9) await wait(20);
      while ((await queue.get(stuckId))?.state !== 'active') await wait(20);
      // A handler that never ends does not hold the shutdown: stop gives up waiting after its timeout.
      await queue.stop({ timeoutMs: 200 });
      expect([...seen].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
      expect(maxInside).toBe(3);
      for (const id of ids) expect((await queue.get(id))?.state).toBe('completed');
      expect((await queue.get(stuckId))?.state).toBe('active');
    } finally {
      await t.dispose();
    }
  });
});

describe('job queue start and stop', () => {
  // CI on PostgreSQL: a test started the queue without awaiting it and closed the app while a start hook was
  // scheduling; the hook's next call ran on the closed pool ("Cannot use a pool after calling end on the pool").
  it('a stop during a start hook waits for that hook and runs no later hook', async () => {
    const t = await createTestDb();
    try {
      const order: string[] = [];
      let entered: () => void = () => undefined;
      const inFirst = new Promise<void>((r) => (entered = r));
      let release: () => void = () => undefined;
      const hold = new Promise<void>((r) => (release = r));
      const noop = defineJob({ name: 'noop', queue: 'analysis', payload: z.object({}), handler: async () => undefined });
      const queue = createJobQueue({
        database: t,
        definitions: defs(noop),
        jobs: testJobsConfig(),
        pollIntervalMs: 50,
        onStart: [
          async () => {
            order.push('first hook starts');
            entered();
            await hold;
            order.push('first hook ends');
          },
          async () => {
            order.push('second hook');
          },
        ],
      });
      const started = queue.start();
      await inFirst;
      const stopped = queue.stop().then(() => order.push('stopped'));
      // the stop is held by the hook under way
      await new Promise((r) => setImmediate(r));
      release();
      await Promise.all([started, stopped]);
      expect(order).toEqual(['first hook starts', 'first hook ends', 'stopped']);
    } finally {
      await t.dispose();
    }
  });
});

describe('job notices', () => {
  // Before: the workers found a new job at their next poll only (every 500 ms per queue, idle or not).
  it('a job enqueued, alone or in a transaction, runs at once although the pollers look only every minute', async () => {
    const t = await createTestDb();
    const ran: string[] = [];
    const waiters = new Map<string, () => void>();
    const echo = defineJob({
      name: 'echo',
      queue: 'analysis',
      payload: z.object({ key: z.string() }),
      async handler(p) {
        ran.push(p.key);
        waiters.get(p.key)?.();
      },
    });
    const queue = createJobQueue({ database: t, definitions: defs(echo), jobs: testJobsConfig(), pollIntervalMs: 60_000 });
    const ranOnce = (key: string) => new Promise<void>((resolve) => waiters.set(key, resolve));
    try {
      await queue.start();
      // A quiet moment before each job: the pollers' look at start (or after the last job) is over, and the next is a
      // minute away (a job found by that look would pass without the notice; one missed would time the test out).
      await wait(300);
      const alone = ranOnce('alone');
      await queue.enqueue('echo', { key: 'alone' });
      await alone;
      await wait(300);
      const inTx = ranOnce('in a transaction');
      await t.transaction(async (tx) => {
        await queue.enqueue('echo', { key: 'in a transaction' }, { tx });
      });
      await inTx;
      expect(ran).toEqual(['alone', 'in a transaction']);
    } finally {
      await queue.stop({ timeoutMs: 1_000 });
      await t.dispose();
    }
  }, 20_000);
});
