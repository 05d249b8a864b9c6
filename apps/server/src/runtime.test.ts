import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectRows, sql } from './platform/db/database';
import { MAINTENANCE_JOB } from './platform/jobs/maintenance';
import { outbox } from './platform/mailer/tables';
import { createTestApp, type TTestApp } from './test/test-app';
import { testJobsConfig } from './test/test-queue';
import { downloads } from './features/downloads/tables';
import { createWebhookJobs } from './features/webhooks/jobs';
import { insertDelivery } from './features/webhooks/queries';
import { DELIVER_JOB } from './features/webhooks/service';

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>): Promise<T> {
  for (let i = 0; i < 1_200; i += 1) {
    const v = await probe();
    if (v) return v;
    await wait(50);
  }
  throw new Error(`gave up waiting for ${what}`);
}

describe('one queue per kind of work', () => {
  let t: TTestApp;
  let storageDir: string;
  let receiver: Server;
  const hanging: ServerResponse[] = [];
  let url = '';

  beforeAll(async () => {
    // A receiver that never answers.
    receiver = createServer((_req: IncomingMessage, res: ServerResponse) => void hanging.push(res));
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const address = receiver.address();
    if (!address || typeof address === 'string') throw new Error('no address');
    url = `http://127.0.0.1:${address.port}/hook`;
    storageDir = await mkdtemp(join(tmpdir(), 'vl-runtime-'));
    t = await createTestApp(
      { allowPrivateDestinations: true, storageDir, jobs: testJobsConfig({ webhooks: { concurrency: 2 } }), jobPollIntervalMs: 50 },
      // Deliveries wait ten minutes for an answer: only separate queues let other work through meanwhile.
      { extraJobs: (deps) => createWebhookJobs({ ...deps, timeoutMs: 600_000 }) },
    );
  });
  afterAll(async () => {
    await t?.deps.queue.stop({ timeoutMs: 0 });
    for (const res of hanging) res.destroy();
    receiver?.closeAllConnections();
    await new Promise<void>((r) => receiver.close(() => r()));
    await t?.close();
    await rm(storageDir, { recursive: true, force: true });
  });

  it('a webhook endpoint that never answers delays neither an export nor a password-reset mail', async () => {
    const owner = await t.createOwner('slow-hooks@verilead.test');
    const hook = await t.call({ method: 'POST', url: '/api/v1/webhook', token: owner.token, payload: { name: 'Slow', url, events: ['email_verifier.bulk.completed'] } });
    expect(hook.status).toBe(200);
    const webhookId = hook.body.data.id as string;
    // More deliveries than the webhooks queue runs at once: every slot of that queue hangs.
    const deliveries: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      const d = await insertDelivery(t.db.db, { orgId: owner.orgId, webhookId, eventId: randomUUID(), eventType: 'email_verifier.bulk.completed', body: { n: i } });
      deliveries.push(await t.deps.queue.enqueue(DELIVER_JOB, { deliveryId: d!.id }, { orgId: owner.orgId, maxAttempts: 1 }));
    }
    await t.deps.queue.start();
    await until('two hanging deliveries', async () => hanging.length >= 2);

    const reset = await t.call({ method: 'POST', url: '/api/v1/user/forgot-password', payload: { email: 'slow-hooks@verilead.test' } });
    expect(reset.status).toBe(200);
    const exp = await t.call({ method: 'POST', url: '/api/v1/download/activities/confirm', token: owner.token, payload: { file_type: 'csv' } });
    expect(exp.status).toBe(200);
    const downloadId = exp.body.data.download_id as string;

    await until('the reset mail', async () => {
      const mails = await t.db.db.select().from(outbox).where(eq(outbox.toAddress, 'slow-hooks@verilead.test'));
      return mails.some((m) => m.text.includes('/resetpassword?token='));
    });
    await until('the export', async () => (await t.db.db.select().from(downloads).where(eq(downloads.id, downloadId)))[0]?.state === 'success');

    // Meanwhile no delivery got an answer or finished: the webhooks queue is still stuck on its two.
    expect(hanging.every((res) => !res.writableEnded)).toBe(true);
    const states = await Promise.all(deliveries.map(async (id) => (await t.deps.queue.get(id))?.state));
    expect(states.filter((s) => s === 'active')).toHaveLength(2);
    expect(states.filter((s) => s === 'queued')).toHaveLength(2);
  });
});

describe('the maintenance job', () => {
  let t: TTestApp;
  let storageDir: string;
  beforeAll(async () => {
    storageDir = await mkdtemp(join(tmpdir(), 'vl-maint-'));
    t = await createTestApp({ storageDir });
  });
  afterAll(async () => {
    await t?.close();
    await rm(storageDir, { recursive: true, force: true });
  });

  it('deletes expired files and old jobs', async () => {
    const owner = await t.createOwner('maint@verilead.test');
    const exp = await t.call({ method: 'POST', url: '/api/v1/download/activities/confirm', token: owner.token, payload: { file_type: 'csv' } });
    const downloadId = exp.body.data.download_id as string;
    await t.deps.queue.runUntilIdle();
    const [ready] = await t.db.db.select().from(downloads).where(eq(downloads.id, downloadId));
    expect(ready?.state).toBe('success');
    const files = async () => (await readdir(storageDir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).length;
    expect(await files()).toBe(1);
    const jobId = ready!.jobId!;
    expect((await t.deps.queue.get(jobId))?.state).toBe('completed');

    const runMaintenance = async () => {
      const id = await t.deps.queue.enqueue(MAINTENANCE_JOB, {});
      await t.deps.queue.runUntilIdle();
      return t.deps.queue.get(id);
    };
    // Nothing is due yet: the file and the job stay.
    expect((await runMaintenance())?.state).toBe('completed');
    expect(await files()).toBe(1);
    expect((await t.deps.queue.get(jobId))?.state).toBe('completed');

    // The file's retention is over, and the export job finished two days ago.
    await t.db.db.update(downloads).set({ expiresAt: new Date(Date.now() - 1_000) }).where(eq(downloads.id, downloadId));
    await t.db.db.execute(sql`update pgboss.job set completed_on = now() - interval '2 days' where id = ${jobId}`);
    await t.db.db.execute(sql`update job_status set created_at = now() - interval '9 days'`);
    const done = await runMaintenance();
    expect(done?.result).toMatchObject({ expiredDownloadFiles: 1 });
    expect(await files()).toBe(0);
    const [expired] = await t.db.db.select().from(downloads).where(eq(downloads.id, downloadId));
    expect(expired?.storageKey).toBeNull();
    const status = await t.call({ method: 'GET', url: `/api/v1/download/result/status?queue_id=${exp.body.data.queue_id}`, token: owner.token });
    expect(status.body.data).toMatchObject({ state: 'expired', download_url: null });
    // The finished job moved to pg-boss's archive; days later the archive row and our status row go too.
    const inJobs = async () => (await selectRows<{ n: number }>(t.db.db, sql`select count(*)::int as n from pgboss.job where id = ${jobId}`))[0]!.n;
    expect(await inJobs()).toBe(0);
    expect((await t.deps.queue.get(jobId))?.state).toBe('completed');
    await t.db.db.execute(sql`update pgboss.archive set archived_on = now() - interval '8 days' where id = ${jobId}`);
    await runMaintenance();
    expect(await t.deps.queue.get(jobId)).toBeNull();
    const statusRows = await selectRows<{ n: number }>(t.db.db, sql`select count(*)::int as n from job_status where id = ${jobId}`);
    expect(statusRows[0]!.n).toBe(0);
  });
});
