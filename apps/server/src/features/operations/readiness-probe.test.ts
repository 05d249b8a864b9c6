import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openPglite, type TDatabase } from '../../platform/db/database';
import { createTestApp, type TTestApp } from '../../test/test-app';
import { readMigrationJournal } from './queries';
import { createReadinessProbe } from './readiness';

// The journal reader, counted (it reads the file as before).
vi.mock('./queries', async (importOriginal) => {
  const original = await importOriginal<typeof import('./queries')>();
  return { ...original, readMigrationJournal: vi.fn(original.readMigrationJournal) };
});
const journalReads = vi.mocked(readMigrationJournal);

describe('/health/ready under a flood of probes', () => {
  let t: TTestApp;
  beforeAll(async () => {
    journalReads.mockClear();
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('reads the journal once at start, and answers concurrent and repeated probes from one check (three queries)', async () => {
    expect(journalReads).toHaveBeenCalledTimes(1);
    const execute = vi.spyOn(t.deps.database.db, 'execute');
    try {
      const burst = await Promise.all(Array.from({ length: 20 }, () => t.call({ method: 'GET', url: '/health/ready' })));
      const after: number[] = [];
      for (let i = 0; i < 10; i++) after.push((await t.call({ method: 'GET', url: '/health/ready' })).status);
      expect(burst.map((r) => r.status)).toEqual(Array(20).fill(200));
      expect(after).toEqual(Array(10).fill(200));
      expect(burst[0]!.body.data).toEqual({
        ready: true,
        checks: [
          { name: 'database', ok: true, detail: 'answers' },
          { name: 'migrations', ok: true, detail: 'all applied' },
        ],
      });
      // select 1, the migration table's existence, its newest migration: once for the 30 probes (within the second).
      expect(execute).toHaveBeenCalledTimes(3);
    } finally {
      execute.mockRestore();
    }
    expect(journalReads).toHaveBeenCalledTimes(1);
  });
});

describe('the readiness probe', () => {
  let database: TDatabase;
  beforeAll(async () => {
    database = await openPglite();
    await database.migrate();
  });
  afterAll(async () => {
    await database?.close();
  });

  it('serves an answer for a second after it is known, then checks again, without reading the journal again', async () => {
    let clock = 0;
    const checked: boolean[] = [];
    journalReads.mockClear();
    const probe = createReadinessProbe(database, null, { now: () => clock, onChecked: (r) => checked.push(r.ready) });
    expect(journalReads).toHaveBeenCalledTimes(1);
    const [a, b] = await Promise.all([probe(), probe()]);
    expect(a).toBe(b);
    expect(checked).toEqual([true]);
    clock += 999;
    expect(await probe()).toBe(a);
    expect(checked).toEqual([true]);
    clock += 1;
    const fresh = await probe();
    expect(fresh).not.toBe(a);
    expect(fresh.ready).toBe(true);
    expect(checked).toEqual([true, true]);
    expect(journalReads).toHaveBeenCalledTimes(1);
  });

  it("reports the migrations as unknown when the build's journal cannot be read", async () => {
    const probe = createReadinessProbe(database, null, { journal: null });
    const readiness = await probe();
    expect(readiness.ready).toBe(false);
    expect(readiness.checks.find((c) => c.name === 'migrations')).toMatchObject({ ok: false, summary: 'unknown' });
  });
});
