import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startMailWorld, type TMailWorld } from '@verilead/mailworld';
import type { TVerificationResult } from '@verilead/verifier';
import type { TConfig } from '../../config';
import { createTestDb, type TTestDb } from '../../test/test-db';
import { startMailHostSync, type THostSync } from './host-sync';
import { mailHostPauses, mailHostSnapshots } from './tables';
import { createVerifier, type TVerifier } from './verifier';

/**
 * Two processes (an api and a worker: two engines, one database) and an operator's pause stored in the database: each
 * process's sync reads it within its interval, holds the host's verifications, and lets them go once the row is gone.
 */
let world: TMailWorld;
let db: TTestDb;
let api: TVerifier;
let worker: TVerifier;
const syncs: THostSync[] = [];

beforeAll(async () => {
  world = await startMailWorld();
  db = await createTestDb();
  const config = {
    dnsServers: world.dnsServers,
    verifierSmtpPort: world.smtpPort,
    verifierHeloName: 'verifier.verilead.test',
    verifierMailFrom: 'probe@verifier.verilead.test',
  } as TConfig;
  api = createVerifier(config);
  worker = createVerifier(config);
  syncs.push(startMailHostSync({ database: db, verifier: api, role: 'api', pauseEveryMs: 100, snapshotEveryMs: 100 }));
  syncs.push(startMailHostSync({ database: db, verifier: worker, role: 'worker', pauseEveryMs: 100, snapshotEveryMs: 100 }));
});
afterAll(async () => {
  for (const s of syncs) await s.stop();
  await api?.close();
  await worker?.close();
  await db?.dispose();
  await world?.stop();
});

describe('pausing a mail host across processes (database sync)', () => {
  it("holds the worker's bulk verifications and times out the api's bounded instant check; all resume once unpaused", async () => {
    await db.db.insert(mailHostPauses).values({ host: 'mx.strict.test', note: 'test', pausedBy: 'ops@verilead.test' });
    await vi.waitFor(() => expect(worker.pausedHosts.list()).toEqual(['mx.strict.test']), { timeout: 5_000 });
    await vi.waitFor(() => expect(api.pausedHosts.list()).toEqual(['mx.strict.test']), { timeout: 5_000 });
    const before = world.hostStats('mx.strict.test').connections;

    const results: TVerificationResult[] = [];
    const bulk = (async () => {
      for await (const r of worker.verifyMany(['held.1@strict.test', 'held.2@strict.test', 'held.3@strict.test'], { mode: 'fastest_turnaround', greylisting: 'defer' })) results.push(r);
    })();
    // the instant check of the app (no time limit of its own) waits pauseWaitMs, then answers unknown, not billable
    const instant = await api.verify('instant@strict.test', { mode: 'fastest_turnaround', pauseWaitMs: 300 });
    expect(`${instant.status}/${instant.reason.code}`).toBe('unknown/smtp_timeout');
    expect(instant.reason.text).toContain('paused by the operator');

    // the worker publishes its view: the host is paused there, no session was opened, nothing was answered
    await vi.waitFor(
      async () => {
        const rows = await db.db.select().from(mailHostSnapshots);
        const mine = rows.find((r) => r.processId === worker.processId);
        expect(mine?.role).toBe('worker');
        expect(mine?.hosts).toEqual([expect.objectContaining({ exchange: 'mx.strict.test', paused: true, sessionsOpen: 0 })]);
      },
      { timeout: 5_000 },
    );
    expect(results).toEqual([]);
    expect(world.hostStats('mx.strict.test').connections).toBe(before);

    await db.db.delete(mailHostPauses);
    await bulk;
    expect(results.map((r) => `${r.email} ${r.status}/${r.reason.code}`).sort()).toEqual([
      'held.1@strict.test invalid/mailbox_not_found',
      'held.2@strict.test invalid/mailbox_not_found',
      'held.3@strict.test invalid/mailbox_not_found',
    ]);
    expect(world.hostStats('mx.strict.test').connections).toBeGreaterThan(before);
  });
});
