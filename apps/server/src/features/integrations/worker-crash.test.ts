import { count, countDistinct, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestQueue, testJobsConfig } from '../../test/test-queue';
import { createEmailVerifierJobs } from '../email-verifier/jobs';
import { verifyLists } from '../email-verifier/tables';
import { createIntegrationJobs } from './jobs';
import { integrationImportMembers, integrationImports } from './tables';
import { connectBody, createIntegrationWorld, type TIntegrationWorld } from './test-support';

const CONTACTS = 25_000;

describe('an import whose worker is killed mid-way', () => {
  let world: TIntegrationWorld;
  beforeAll(async () => {
    // A short expiry: a job whose worker stopped beating for a second counts as abandoned and is retried.
    world = await createIntegrationWorld(CONTACTS, {}, { jobs: testJobsConfig({ integrations: { expireSeconds: 1 } }) });
  });
  afterAll(async () => {
    await world?.close();
  });

  it('resumes on another worker from the stored cursor: every contact lands once', async () => {
    const { t } = world.w;
    const fake = world.fakes.mailchimp!;
    const owner = await t.createOwner('crash@integrations.test');
    const acc = await t.call({ method: 'POST', url: '/api/v1/integration/account/mailchimp', token: owner.token, payload: connectBody('mailchimp', fake, 'Big audience') });
    expect(acc.status).toBe(200);
    const start = await t.call({
      method: 'POST',
      url: '/api/v1/integration/account/mailchimp/verify_list',
      token: owner.token,
      payload: { account_id: acc.body.data.id, list_id: 'list-a', write_back: { unsubscribe: false, append: false } },
    });
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    const importId = start.body.data.id as string;
    const readImport = async () => (await t.db.db.select().from(integrationImports).where(eq(integrationImports.id, importId)))[0]!;

    // Worker A pages with Mailchimp's real cap (1,000); the request for the page at offset 12,000 never answers.
    const heldAt = fake.holdNext((r) => r.path === '/lists/list-a/members' && r.query.get('offset') === '12000');
    const jobsA = createIntegrationJobs(t.deps);
    const workerA = createTestQueue(t.db, jobsA, { queues: { integrations: { expireSeconds: 1 } } });
    const runA = (async () => {
      while (await workerA.runOnce()) {
        /* page after page until the held one */
      }
    })();
    await heldAt;
    const atCrash = await readImport();
    expect(atCrash.state).toBe('importing');
    expect(atCrash.imported).toBe(12_000);
    // The crash: worker A stops without waiting for its handler; its heartbeat stops with it.
    await workerA.stop({ timeoutMs: 0 });
    void runA;

    // Worker B (the integration jobs and the verifier's analysis) takes the abandoned page over and finishes the import.
    const workerB = createTestQueue(t.db, [...createIntegrationJobs(t.deps), ...createEmailVerifierJobs(t.deps)], {
      queues: { integrations: { expireSeconds: 1 } },
    });
    await new Promise((r) => setTimeout(r, 2_500));
    for (let i = 0; i < 100 && (await readImport()).state === 'importing'; i += 1) await workerB.runUntilIdle({ includeDelayed: true, maxJobs: 5 });
    const done = await readImport();
    expect(done.state).not.toBe('importing');
    expect(done.imported).toBe(CONTACTS);
    const [stats] = await t.db.db
      .select({ rows: count(), remote: countDistinct(integrationImportMembers.remoteId), seqs: countDistinct(integrationImportMembers.seq) })
      .from(integrationImportMembers)
      .where(eq(integrationImportMembers.importId, importId));
    expect(stats).toEqual({ rows: CONTACTS, remote: CONTACTS, seqs: CONTACTS });
    // The verifier list holds each contact once.
    for (let i = 0; i < 50; i += 1) {
      const list = (await t.db.db.select().from(verifyLists).where(eq(verifyLists.id, done.verifyListId)))[0];
      if (list?.analysisState === 'ready') break;
      await workerB.runUntilIdle({ includeDelayed: false, maxJobs: 5 });
    }
    const list = (await t.db.db.select().from(verifyLists).where(eq(verifyLists.id, done.verifyListId)))[0]!;
    expect(list.source).toBe('mailchimp');
    expect(list.rowCount).toBe(CONTACTS);
    expect(list.uniqueCount).toBe(CONTACTS);
    expect(list.duplicateCount).toBe(0);
    await workerB.stop({ timeoutMs: 0 });
  }, 180_000);
});
