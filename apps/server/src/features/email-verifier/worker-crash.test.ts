import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getOrgBalance, grantCredits } from '../../platform/credits/ledger';
import { creditTransactions } from '../../platform/credits/tables';
import { createTestQueue, testJobsConfig } from '../../test/test-queue';
import type { TVerifier } from '../../platform/verifier/verifier';
import { createLateQueue } from '../../platform/jobs/late-queue';
import { createEmailVerifierJobs } from './jobs';
import { verifyListEmails, verifyLists } from './tables';
import { buildMultipart, createWorldApp, type TWorldApp } from './test-support';

describe('a worker killed mid-list', () => {
  let w: TWorldApp;
  beforeAll(async () => {
    // A short expiry: a job whose worker stopped beating for a second counts as abandoned.
    w = await createWorldApp(undefined, { jobs: testJobsConfig({ verification: { expireSeconds: 1 } }) });
  });
  afterAll(async () => {
    await w?.close();
  });

  it('resumes on another worker: every address verified and charged exactly once', async () => {
    const owner = await w.t.createOwner('crash@ev.test');
    await w.t.db.transaction((tx) => grantCredits(tx, { orgId: owner.orgId, amount: 1_000, reason: 'Test top-up' }));
    const addresses = [
      ...Array.from({ length: 220 }, (_, i) => `someone${i}@acceptall.test`),
      ...Array.from({ length: 60 }, (_, i) => `missing${i}@strict.test`),
      'alice@strict.test',
      'grace@policy.test',
    ];
    const mp = buildMultipart('crash.txt', addresses.join('\n'));
    const up = await w.t.call({ method: 'POST', url: '/api/v1/email_verify/bulk_upload', token: owner.token, payload: mp.payload, headers: mp.headers });
    expect(up.status).toBe(200);
    const listId = up.body.data.id as string;
    await w.t.deps.queue.runUntilIdle();
    const before = await getOrgBalance(w.t.db.db, owner.orgId);
    expect((await w.t.call({ method: 'POST', url: '/api/v1/email_verify/list/verify', token: owner.token, payload: { list_id: listId } })).status).toBe(200);

    // Worker A: the real engine, but it "dies" after 150 results (never returns; the process stops beating).
    const real = w.t.deps.verifier;
    let yielded = 0;
    const dying: TVerifier = {
      ...real,
      verifyMany: async function* (addrs, prefs) {
        for await (const r of real.verifyMany(addrs, prefs)) {
          if (yielded === 150) await new Promise(() => undefined);
          yielded += 1;
          yield r;
        }
      },
    };
    // Each worker's jobs enqueue their follow-up work on that worker's own queue.
    const queueA = createLateQueue();
    const workerA = createTestQueue(w.t.db, createEmailVerifierJobs({ ...w.t.deps, verifier: dying, queue: queueA.queue }), {
      queues: { verification: { expireSeconds: 1 } },
    });
    queueA.bind(workerA);
    // It plans the list into its chunk job, then takes the chunk.
    void workerA.runUntilIdle();
    for (let i = 0; i < 800 && yielded < 150; i += 1) await new Promise((r) => setTimeout(r, 25));
    // Its last completed store is in the database; then it goes silent.
    let storedByA = 0;
    for (let i = 0; i < 400 && storedByA === 0; i += 1) {
      await new Promise((r) => setTimeout(r, 25));
      const partial = await w.t.db.db.select({ counters: verifyLists.counters }).from(verifyLists).where(eq(verifyLists.id, listId));
      storedByA = partial[0]!.counters.verified;
    }
    expect(storedByA).toBeGreaterThan(0);
    expect(storedByA).toBeLessThan(addresses.length);
    // The crash: worker A stops without waiting for its handler; its heartbeat stops with it.
    await workerA.stop({ timeoutMs: 0 });

    // Worker B: once the job's heartbeat is older than its expiry, pg-boss gives it up (a retry, within the
    // attempt cap) and B runs it to the end.
    const queueB = createLateQueue();
    const workerB = createTestQueue(w.t.db, createEmailVerifierJobs({ ...w.t.deps, queue: queueB.queue }), {
      queues: { verification: { expireSeconds: 1 } },
    });
    queueB.bind(workerB);
    await new Promise((r) => setTimeout(r, 2_500));
    expect(await workerB.runUntilIdle({ includeDelayed: true })).toBe(1);

    const list = (await w.t.db.db.select().from(verifyLists).where(eq(verifyLists.id, listId)))[0]!;
    expect(list.state).toBe('verified');
    const rows = await w.t.db.db.select().from(verifyListEmails).where(and(eq(verifyListEmails.listId, listId), eq(verifyListEmails.kind, 'unique')));
    expect(rows).toHaveLength(addresses.length);
    expect(rows.every((r) => r.status !== null)).toBe(true);
    expect(list.counters.verified).toBe(addresses.length);
    const billable = rows.filter((r) => r.billable).length;
    expect(billable).toBe(rows.filter((r) => ['valid', 'invalid', 'catch_all'].includes(r.status!)).length);
    expect(billable).toBeGreaterThan(100);
    const charged = await w.t.db.db
      .select({ objectId: creditTransactions.objectId, n: sql<number>`count(*)::int` })
      .from(creditTransactions)
      .where(and(eq(creditTransactions.orgId, owner.orgId), eq(creditTransactions.sourceAgent, 'bulk_verify')))
      .groupBy(creditTransactions.objectId);
    expect(charged).toHaveLength(billable);
    expect(charged.every((c) => c.n === 1)).toBe(true);
    expect(await getOrgBalance(w.t.db.db, owner.orgId)).toBe(before - billable);
  });
});
