import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestDb, type TTestDb } from '../../test/test-db';
import { createTestQueue } from '../../test/test-queue';
import { selectRows, sql } from '../db/database';
import { defineJob, type TJobDefinition, type TJobQueue } from './jobs';

/** An operator's retry and discard of a failed job (pg-boss retry / deleteJob), in the caller's transaction. */
describe('failed jobs: retry and discard', () => {
  let t: TTestDb;
  let queue: TJobQueue;
  const runs: Record<string, number> = {};
  let healthy = false;

  beforeAll(async () => {
    t = await createTestDb();
    const once = defineJob({
      name: 'fails_until_fixed',
      queue: 'exports',
      payload: z.object({ key: z.string() }),
      maxAttempts: 1,
      async handler(p) {
        runs[p.key] = (runs[p.key] ?? 0) + 1;
        if (!healthy) throw new Error('the export store is down');
        return { ok: true };
      },
    });
    queue = createTestQueue(t, [once] as TJobDefinition[]);
  });
  afterAll(async () => {
    await queue?.stop();
    await t?.dispose();
  });

  it('a failed job retried runs again and completes; retrying it again is refused', async () => {
    const id = await queue.enqueue('fails_until_fixed', { key: 'a' });
    await queue.runUntilIdle();
    expect((await queue.get(id))?.state).toBe('failed');
    healthy = true;
    expect(await queue.retryFailed('exports', id)).toBe(true);
    expect(await queue.retryFailed('exports', id)).toBe(false); // not failed any more
    await queue.runUntilIdle();
    expect((await queue.get(id))?.state).toBe('completed');
    expect(runs.a).toBe(2);
    healthy = false;
  });

  it('a failed job discarded is gone with its status row; the wrong queue, a running or unknown job is refused', async () => {
    const id = await queue.enqueue('fails_until_fixed', { key: 'b' });
    expect(await queue.discardFailed('exports', id)).toBe(false); // queued, not failed
    await queue.runUntilIdle();
    expect(await queue.discardFailed('mail', id)).toBe(false);
    expect(await queue.discardFailed('exports', '00000000-0000-4000-8000-000000000000')).toBe(false);
    expect(await queue.discardFailed('exports', id)).toBe(true);
    expect(await queue.get(id)).toBeNull();
    expect(await selectRows(t.db, sql`select id from job_status where id = ${id}`)).toEqual([]);
    await queue.runUntilIdle();
    expect(runs.b).toBe(1);
  });

  it("a retry inside a transaction that rolls back leaves the job failed (the operator's record and the change go together)", async () => {
    const id = await queue.enqueue('fails_until_fixed', { key: 'c' });
    await queue.runUntilIdle();
    await expect(
      t.transaction(async (tx) => {
        expect(await queue.retryFailed('exports', id, tx)).toBe(true);
        throw new Error('the record failed');
      }),
    ).rejects.toThrow('the record failed');
    expect((await queue.get(id))?.state).toBe('failed');
  });
});
