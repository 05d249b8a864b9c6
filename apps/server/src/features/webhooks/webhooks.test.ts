import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TIMESTAMP_HEADER } from '@verilead/contracts';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import { createRuntime } from '../../runtime';
import { isPrivateAddress, OutboundRefusedError, resolveDestination } from '../../platform/outbound-http/guard';
import { createTestDb, type TTestDb } from '../../test/test-db';
import { recordEvent } from '../events/service';
import { createWebhookJobs } from './jobs';
import { decryptSecret, encryptSecret, verifySignature } from './secret-box';
import { dispatchWebhookEvents } from './service';
import { memberships, users } from '../../platform/tenancy/tables';
import { webhookDeliveries, webhooks, webhookSecrets } from './tables';

type TReceived = { headers: IncomingHttpHeaders; body: string };

/** A receiver on 127.0.0.1 that fails the first `failures` requests with 500. */
async function startReceiver(failures: number): Promise<{ url: string; received: TReceived[]; server: Server }> {
  const received: TReceived[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.statusCode = received.length <= failures ? 500 : 200;
      res.end(res.statusCode === 200 ? 'ok' : 'try later');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return { url: `http://127.0.0.1:${address.port}/hooks`, received, server };
}

async function buildWebhookApp(allowPrivate: boolean, db: TTestDb) {
  const config = loadConfig(
    {},
    {
      appSecret: 'test-secret',
      dataDir: '/nonexistent-test-data',
      configuredPublicUrl: 'http://app.verilead.test',
      logLevel: 'silent',
      rateLimit: { authMax: 10_000, publicMax: 10_000, webhookMax: 10_000, windowMs: 60_000 },
      webDistDir: '/nonexistent-web-dist',
      allowPrivateDestinations: allowPrivate,
    },
  );
  const runtime = createRuntime({
    config,
    database: db,
    // A short back-off so three attempts run within the test.
    extraJobs: (deps) => createWebhookJobs({ ...deps, backoffMs: 5, lagMs: 0 }),
  });
  const app = await buildApp({ ...runtime, serveWeb: false });
  await app.ready();
  return { app, runtime };
}

let db: TTestDb;
let built: Awaited<ReturnType<typeof buildWebhookApp>>;
let token = '';
let orgId = '';
let userId = '';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON answers
async function call(method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown): Promise<{ status: number; body: any }> {
  const res = await built.app.inject({ method, url, payload: payload as never, headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.statusCode, body: JSON.parse(res.body) };
}

beforeAll(async () => {
  db = await createTestDb();
  built = await buildWebhookApp(true, db);
  const email = 'hooks@verilead.test';
  await call('POST', '/api/v1/user/signup', { name: 'Hook Owner', email, password: 'Correct-Horse-1', signup_source: 'friends' });
  await built.runtime.queue.runUntilIdle();
  const { outbox } = await import('../../platform/mailer/tables');
  const mails = await db.db.select().from(outbox);
  const verifyToken = /emailverification\?token=([A-Za-z0-9_%-]+)/.exec(mails.map((m) => m.text).join('\n'))?.[1];
  await call('POST', '/api/v1/user/activate', { token: decodeURIComponent(verifyToken ?? '') });
  const login = await call('POST', '/api/v1/user/login', { email, password: 'Correct-Horse-1' });
  token = login.body.data.token;
  orgId = login.body.data.user.org_id;
  userId = login.body.data.user.id;
}, 60_000);

afterAll(async () => {
  await built?.app.close();
  await built?.runtime.queue.stop();
  built?.runtime.closeMail();
  await db?.dispose();
});

describe('webhook delivery', () => {
  it('retries a failing receiver: the third attempt succeeds, the signature verifies, the logs show all three attempts', async () => {
    const receiver = await startReceiver(2);
    try {
      const created = await call('POST', '/api/v1/webhook', { name: 'Orders', url: receiver.url, events: ['email_verifier.instant.completed'] });
      expect(created.status).toBe(200);
      const secret = (await call('GET', '/api/v1/webhook/token')).body.data.secret as string;
      expect(secret).toMatch(/^whsec_/);
      // Stored encrypted, not in clear.
      const stored = await db.db.select().from(webhookSecrets);
      expect(stored[0]?.secretEnc).not.toContain(secret);
      expect(decryptSecret('test-secret', stored[0]!.secretEnc)).toBe(secret);

      const event = await recordEvent(db.db, { orgId, userId, type: 'email_verifier.instant.completed', payload: { email: 'a@b.test', status: 'valid' } });
      await recordEvent(db.db, { orgId, userId, type: 'email_verifier.bulk.completed', payload: { list_id: 'x' } });
      expect(await dispatchWebhookEvents(db, built.runtime.queue, { lagMs: 0, backoffMs: 5 })).toBe(2);
      // Dispatching again creates nothing new.
      expect(await dispatchWebhookEvents(db, built.runtime.queue, { lagMs: 0, backoffMs: 5 })).toBe(0);
      await built.runtime.queue.runUntilIdle({ includeDelayed: true });

      expect(receiver.received).toHaveLength(3);
      const last = receiver.received[2]!;
      const body = JSON.parse(last.body) as { id: string; type: string; data: Record<string, unknown> };
      expect(body).toMatchObject({ id: event.id, type: 'email_verifier.instant.completed', data: { email: 'a@b.test', status: 'valid' } });
      const signature = String(last.headers[WEBHOOK_SIGNATURE_HEADER]);
      const timestamp = String(last.headers[WEBHOOK_TIMESTAMP_HEADER]);
      expect(verifySignature(secret, timestamp, last.body, signature)).toBe(true);
      expect(verifySignature('whsec_wrong', timestamp, last.body, signature)).toBe(false);

      const logs = await call('POST', '/api/v1/webhook/event_logs', { webhook_id: created.body.data.id });
      expect(logs.status).toBe(200);
      expect(logs.body.data.total).toBe(1);
      const log = logs.body.data.items[0];
      expect(log).toMatchObject({ event_id: event.id, event_type: 'email_verifier.instant.completed', status: 'success', webhook_name: 'Orders' });
      expect(log.attempts.map((a: { attempt: number; status_code: number }) => [a.attempt, a.status_code])).toEqual([
        [1, 500],
        [2, 500],
        [3, 200],
      ]);
      for (const a of log.attempts) expect(a.latency_ms).toBeGreaterThanOrEqual(0);

      // Filters and manual redelivery.
      expect((await call('POST', '/api/v1/webhook/event_logs', { status: 'failed' })).body.data.total).toBe(0);
      expect((await call('POST', '/api/v1/webhook/event_logs', { event_type: 'email_verifier.bulk.completed' })).body.data.total).toBe(0);
      const again = await call('POST', '/api/v1/webhook/event_logs/redeliver', { delivery_id: log.id });
      expect(again.status).toBe(200);
      await built.runtime.queue.runUntilIdle({ includeDelayed: true });
      expect(receiver.received).toHaveLength(4);
      const after = (await call('POST', '/api/v1/webhook/event_logs', { webhook_id: created.body.data.id })).body.data.items[0];
      expect(after.attempts).toHaveLength(4);
      expect(after.status).toBe('success');
    } finally {
      receiver.server.close();
    }
  });

  it('test events, the webhook calls (list, name_list, get, update, token, delete)', async () => {
    const receiver = await startReceiver(0);
    try {
      const created = (await call('POST', '/api/v1/webhook', { name: 'Tester', url: receiver.url, events: ['email_finder.bulk.completed'] })).body.data;
      const test = await call('POST', '/api/v1/webhook/test', { webhook_id: created.id });
      expect(test.status).toBe(200);
      expect(test.body.data).toMatchObject({ event_type: 'webhook.test', status: 'success', attempts: [{ attempt: 1, status_code: 200 }] });
      expect(receiver.received).toHaveLength(1);

      const updated = await call('POST', '/api/v1/webhook', { webhook_id: created.id, name: 'Tester 2', url: receiver.url, events: ['email_finder.bulk.completed'], status: 'inactive' });
      expect(updated.body.data).toMatchObject({ name: 'Tester 2', status: 'inactive' });
      expect((await call('GET', `/api/v1/webhook/${created.id}`)).body.data.name).toBe('Tester 2');
      expect((await call('GET', '/api/v1/webhook/list')).body.data.total).toBe(2);
      expect((await call('GET', '/api/v1/webhook/name_list')).body.data.items.map((i: { name: string }) => i.name)).toContain('Tester 2');

      const before = (await call('GET', '/api/v1/webhook/token')).body.data.secret;
      const generated = await call('POST', '/api/v1/webhook/token');
      expect(generated.body.data.secret).toMatch(/^whsec_/);
      expect(generated.body.data.secret).not.toBe(before);
      expect((await call('GET', '/api/v1/webhook/token')).body.data.secret).toBe(generated.body.data.secret);

      expect((await call('DELETE', `/api/v1/webhook/${created.id}`)).status).toBe(200);
      expect((await call('GET', `/api/v1/webhook/${created.id}`)).status).toBe(404);
    } finally {
      receiver.server.close();
    }
  });
});

describe("an Executive's webhooks", () => {
  // Issue 27 point 9: an Executive sees their own lists and events only, so their webhook carries only those; the
  // owner's webhook carries the organisation's.
  it('deliver only the events of the Executive who made them; the owner\'s deliver every member\'s', async () => {
    const [exec] = await db.db.insert(users).values({ email: 'exec-hooks@verilead.test', name: 'Exec' }).returning();
    await db.db.insert(memberships).values({ orgId, userId: exec!.id, role: 'analyst' });
    const types = ['email_finder.instant.failed'];
    const [ownerHook] = await db.db.insert(webhooks).values({ orgId, createdBy: userId, name: 'Owner', url: 'http://127.0.0.1:9/o', events: types }).returning();
    const [execHook] = await db.db.insert(webhooks).values({ orgId, createdBy: exec!.id, name: 'Exec', url: 'http://127.0.0.1:9/e', events: types }).returning();
    const ownerEvent = await recordEvent(db.db, { orgId, userId, type: types[0]!, payload: { by: 'owner' } });
    const execEvent = await recordEvent(db.db, { orgId, userId: exec!.id, type: types[0]!, payload: { by: 'exec' } });
    await dispatchWebhookEvents(db, built.runtime.queue, { lagMs: 0, backoffMs: 5 });
    const sent = async (webhookId: string) => (await db.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, webhookId))).map((d) => d.eventId).sort();
    expect(await sent(execHook!.id)).toEqual([execEvent.id]);
    expect(await sent(ownerHook!.id)).toEqual([ownerEvent.id, execEvent.id].sort());
  });
});

describe('the outbound guard', () => {
  it('refuses a private destination with a clear message when not allowed', async () => {
    // The same database, served by an app whose configuration does not allow private destinations.
    const strict = await buildWebhookApp(false, db);
    try {
      const res = await strict.app.inject({
        method: 'POST',
        url: '/api/v1/webhook',
        headers: { authorization: `Bearer ${token}` },
        payload: { name: 'Internal', url: 'http://10.1.2.3/hook', events: ['email_verifier.bulk.completed'] },
      });
      expect(res.statusCode).toBe(400);
      const body = JSON.parse(res.body);
      expect(body.error.message).toBe('The destination 10.1.2.3 resolves to 10.1.2.3, a private, loopback, link-local or other special-purpose address; such destinations are refused. A self-hosted server that must call private destinations can allow them with ALLOW_PRIVATE_DESTINATIONS=true.');
      expect(body.error.reasons[0].field).toBe('url');
    } finally {
      await strict.app.close();
      await strict.runtime.queue.stop();
      strict.runtime.closeMail();
    }
    await expect(resolveDestination('http://10.1.2.3/hook', { allowPrivate: false })).rejects.toThrow(
      'The destination 10.1.2.3 resolves to 10.1.2.3, a private, loopback, link-local or other special-purpose address; such destinations are refused. A self-hosted server that must call private destinations can allow them with ALLOW_PRIVATE_DESTINATIONS=true.',
    );
    await expect(resolveDestination('http://hooks.customer.test/x', { allowPrivate: false, lookup: async () => [{ address: '169.254.169.254', family: 4 }] })).rejects.toBeInstanceOf(
      OutboundRefusedError,
    );
    await expect(resolveDestination('http://[::1]:8080/x', { allowPrivate: false })).rejects.toThrow(/loopback/);
    await expect(resolveDestination('http://hooks.customer.test/x', { allowPrivate: false, lookup: async () => [{ address: '93.184.216.34', family: 4 }] })).resolves.toMatchObject({
      address: '93.184.216.34',
    });
    await expect(resolveDestination('http://127.0.0.1/x', { allowPrivate: true })).resolves.toMatchObject({ address: '127.0.0.1' });
    expect(['127.0.0.1', '10.0.0.1', '172.16.5.4', '192.168.1.1', '169.254.1.1', '::1', 'fe80::1', 'fd00::1', '::ffff:10.0.0.1'].every((a) => isPrivateAddress(a))).toBe(true);
    expect(['8.8.8.8', '93.184.216.34', '2001:4860:4860::8888'].some((a) => isPrivateAddress(a))).toBe(false);
  });

  it('encrypts secrets with AES-256-GCM (tampering is detected)', () => {
    const box = encryptSecret('k', 'whsec_abc');
    expect(decryptSecret('k', box)).toBe('whsec_abc');
    expect(() => decryptSecret('other-key', box)).toThrow();
  });
});
