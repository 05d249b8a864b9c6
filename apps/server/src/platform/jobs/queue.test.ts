import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestDb, type TTestDb } from '../../test/test-db';
import { createJobQueue, defineJob, type TJobQueue } from './queue';

describe('job queue', () => {
  let t: TTestDb;
  let queue: TJobQueue;
  const calls: Record<string, number> = {};
  let releaseSlow: () => void = () => undefined;
  let slowStarted: () => void = () => undefined;

  beforeAll(async () => {
    t = await createTestDb();
    const flaky = defineJob({
      name: 'flaky',
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
    queue = createJobQueue({ database: t, definitions: [flaky, progress] });
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

  it('schedules a retry later and gives up after max attempts', async () => {
    const id = await queue.enqueue('flaky', { key: 'b', failTimes: 10 }, { backoffMs: 3_600_000 });
    expect(await queue.runOnce()).toBe(true);
    let job = await queue.get(id);
    expect(job?.state).toBe('queued');
    expect(job?.lastError).toBe('failure 1');
    expect(job!.runAt.getTime()).toBeGreaterThan(job!.updatedAt.getTime() + 3_000_000);
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
    expect(job?.result).toEqual({ stoppedAt: 2 });
  });

  it('does not cancel another organisation\'s job', async () => {
    const org = '00000000-0000-4000-8000-000000000001';
    const id = await queue.enqueue('progress', { steps: 1 }, { orgId: org });
    expect(await queue.cancel(id, '00000000-0000-4000-8000-000000000002')).toBeNull();
    expect(await queue.cancel(id, org)).toBe('cancelled');
  });
});

describe('job queue recovery', () => {
  it('re-runs a job whose worker died mid-run (stale lock) exactly once more', async () => {
    const t = await createTestDb();
    try {
      let runs = 0;
      const def = defineJob({
        name: 'once',
        payload: z.object({}),
        async handler() {
          runs += 1;
          return { runs };
        },
      });
      const queue = createJobQueue({ database: t, definitions: [def], lockTimeoutMs: 60_000 });
      const id = await queue.enqueue('once', {});
      // simulate a worker that claimed the job and died 2 minutes ago
      const { jobs } = await import('./tables');
      const { eq, sql } = await import('drizzle-orm');
      await t.db.update(jobs).set({ state: 'active', attempts: 1, lockedBy: 'dead-worker', lockedAt: sql`now() - interval '2 minutes'` }).where(eq(jobs.id, id));
      expect(await queue.runUntilIdle()).toBe(1);
      const job = await queue.get(id);
      expect(job?.state).toBe('completed');
      expect(job?.attempts).toBe(2);
      expect(runs).toBe(1);
      // a fresh lock held by a live worker is left alone
      const id2 = await queue.enqueue('once', {});
      await t.db.update(jobs).set({ state: 'active', lockedBy: 'live-worker', lockedAt: sql`now()` }).where(eq(jobs.id, id2));
      expect(await queue.runOnce()).toBe(false);
    } finally {
      await t.dispose();
    }
  });
});

describe('job queue worker', () => {
  it('runs jobs in the background with several loops and stops cleanly', async () => {
    const t = await createTestDb();
    try {
      const seen = new Set<number>();
      let inside = 0;
      let maxInside = 0;
      const def = defineJob({
        name: 'work',
        payload: z.object({ n: z.number().int() }),
        async handler(p) {
          inside += 1;
          maxInside = Math.max(maxInside, inside);
          // the first jobs wait (up to 5 s) until three run at once: proves the loops run side by side
          for (let i = 0; i < 250 && maxInside < 3; i += 1) await new Promise((r) => setTimeout(r, 20));
          seen.add(p.n);
          inside -= 1;
        },
      });
      const queue = createJobQueue({ database: t, definitions: [def], pollIntervalMs: 20, concurrency: 3 });
      const ids = await Promise.all(Array.from({ length: 9 }, (_, n) => queue.enqueue('work', { n })));
      queue.start();
      while (seen.size < 9) await new Promise((r) => setTimeout(r, 20));
      await queue.stop();
      expect([...seen].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
      expect(maxInside).toBe(3);
      for (const id of ids) expect((await queue.get(id))?.state).toBe('completed');
    } finally {
      await t.dispose();
    }
  });
});
