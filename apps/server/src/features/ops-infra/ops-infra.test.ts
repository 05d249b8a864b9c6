import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startMailWorld, type TMailWorld } from '@verilead/mailworld';
import { ERROR_BUDGET, NONMAIL_BUDGET } from '@verilead/verifier';
import { grantCredits } from '../../platform/credits/ledger';
import { defineJob, type TJobDefinition } from '../../platform/jobs/jobs';
import { createTestApp, type TTestApp } from '../../test/test-app';
import { paymentEvents } from '../billing/tables';
import { toMailHost } from './mail-hosts';

/**
 * The operator console's infrastructure routes: job queues (retry, discard), the verifier's mail hosts (pause,
 * resume: a paused host's verifications wait, then go on, against the mail world) and payment events. Operator
 * sessions only: no token 401, a customer's token 403.
 */
let world: TMailWorld;
let t: TTestApp;
let operator: string;
let owner: { token: string; userId: string; orgId: string };
let healthy = false;
let runs = 0;

const ENDPOINTS = [
  { method: 'GET', url: '/api/v1/ops/queues' },
  { method: 'GET', url: '/api/v1/ops/queues/failed' },
  { method: 'POST', url: '/api/v1/ops/queues/retry', payload: { queue: 'exports', id: '00000000-0000-4000-8000-000000000000' } },
  { method: 'POST', url: '/api/v1/ops/queues/discard', payload: { queue: 'exports', id: '00000000-0000-4000-8000-000000000000' } },
  { method: 'GET', url: '/api/v1/ops/mail_hosts' },
  { method: 'POST', url: '/api/v1/ops/mail_hosts/pause', payload: { host: 'mx.nowhere.test' } },
  { method: 'POST', url: '/api/v1/ops/mail_hosts/resume', payload: { host: 'mx.nowhere.test' } },
  { method: 'GET', url: '/api/v1/ops/payments/events' },
] as const;

beforeAll(async () => {
  world = await startMailWorld();
  const flaky = defineJob({
    name: 'test.flaky_export',
    queue: 'exports',
    payload: z.object({ n: z.number() }),
    maxAttempts: 1,
    async handler() {
      runs++;
      if (!healthy) throw new Error('Could not write the file of ann.lee@customer.example: disk full');
      return { ok: true };
    },
  });
  t = await createTestApp(
    { dnsServers: world.dnsServers, verifierSmtpPort: world.smtpPort, verifierConnectTimeoutMs: 2_000, verifierReplyTimeoutMs: 2_000 },
    { extraJobs: () => [flaky as unknown as TJobDefinition] },
  );
  const link = await t.call({ method: 'POST', url: '/api/v1/ops/create_operator', headers: { 'x-ops-secret': 'test-secret' }, payload: { email: 'ops@verilead.test' } });
  expect(link.status).toBe(200);
  const signed = await t.call({
    method: 'POST',
    url: '/api/v1/ops/session/set_password',
    payload: { token: new URL(link.body.data.url).searchParams.get('token'), password: 'Operator-Password-1' },
  });
  operator = signed.body.data.token;
  owner = await t.createOwner('owner@ops-infra.test', 'Owner');
  await t.db.transaction((tx) => grantCredits(tx, { orgId: owner.orgId, amount: 100, reason: 'test' }));
}, 120_000);
afterAll(async () => {
  await t?.close();
  await world?.stop();
});

describe('the guard of the infrastructure routes', () => {
  it.each(ENDPOINTS)('$method $url: 401 without a token, 403 with a customer token', async (e) => {
    expect((await t.call({ ...e })).status).toBe(401);
    const customer = await t.call({ ...e, token: owner.token });
    expect(customer.status).toBe(403);
    expect(customer.body.error.message).toContain('operator console');
  });
});

describe('job queues', () => {
  it('lists every queue with its depth, running and finished counts', async () => {
    const res = await t.call({ method: 'GET', url: '/api/v1/ops/queues', token: operator });
    expect(res.status).toBe(200);
    expect(res.body.data.queues.map((q: { queue: string }) => q.queue)).toEqual(['mail', 'webhooks', 'exports', 'analysis', 'verification', 'finder', 'maintenance', 'integrations']);
  });

  it("shows a failed job with its organisation and masked error; the operator retries it, it runs again, both logs record it", async () => {
    const id = await t.deps.queue.enqueue('test.flaky_export', { n: 1 }, { orgId: owner.orgId });
    await t.deps.queue.runUntilIdle();
    const failed = await t.call({ method: 'GET', url: '/api/v1/ops/queues/failed?queue=exports', token: operator });
    expect(failed.body.data.total).toBe(1);
    expect(failed.body.data.items[0]).toMatchObject({ id, queue: 'exports', kind: 'test.flaky_export', org_id: owner.orgId, org_name: expect.any(String), attempts: 1 });
    expect(failed.body.data.items[0].error).toBe('Could not write the file of [address]: disk full');
    expect((await t.call({ method: 'GET', url: '/api/v1/ops/queues', token: operator })).body.data.queues.find((q: { queue: string }) => q.queue === 'exports')).toMatchObject({ failed: 1 });

    healthy = true;
    const retried = await t.call({ method: 'POST', url: '/api/v1/ops/queues/retry', token: operator, payload: { queue: 'exports', id } });
    expect(retried.status).toBe(200);
    expect(retried.body.data).toEqual({ id, queue: 'exports', action: 'retried' });
    const again = await t.call({ method: 'POST', url: '/api/v1/ops/queues/retry', token: operator, payload: { queue: 'exports', id } });
    expect(again.status).toBe(404);
    await t.deps.queue.runUntilIdle();
    expect((await t.deps.queue.get(id))?.state).toBe('completed');
    expect(runs).toBe(2);

    const log = await t.call({ method: 'GET', url: '/api/v1/ops/actions', token: operator });
    expect(log.body.data.items[0]).toMatchObject({ action: 'operator.job_retried', target_id: id });
    const audit = await t.call({ method: 'GET', url: '/api/v1/audit_log?action=operator.job_retried', token: owner.token });
    expect(audit.body.data.items).toEqual([expect.objectContaining({ action: 'operator.job_retried', target_type: 'job', target_id: id })]);
    healthy = false;
  });

  it('discards a failed job (gone from the list); bad input answers 400, an unknown job 404', async () => {
    const id = await t.deps.queue.enqueue('test.flaky_export', { n: 2 }, { orgId: owner.orgId });
    await t.deps.queue.runUntilIdle();
    const discarded = await t.call({ method: 'POST', url: '/api/v1/ops/queues/discard', token: operator, payload: { queue: 'exports', id } });
    expect(discarded.body.data).toEqual({ id, queue: 'exports', action: 'discarded' });
    expect(await t.deps.queue.get(id)).toBeNull();
    expect((await t.call({ method: 'GET', url: '/api/v1/ops/queues/failed', token: operator })).body.data.items.map((j: { id: string }) => j.id)).not.toContain(id);
    expect((await t.call({ method: 'POST', url: '/api/v1/ops/queues/discard', token: operator, payload: { queue: 'nope', id } })).status).toBe(400);
    expect((await t.call({ method: 'POST', url: '/api/v1/ops/queues/discard', token: operator, payload: { queue: 'exports', id: 'x' } })).status).toBe(400);
    expect((await t.call({ method: 'POST', url: '/api/v1/ops/queues/discard', token: operator, payload: { queue: 'exports', id } })).status).toBe(404);
  });
});

describe('mail hosts', () => {
  it("a paused host's verification waits, shows in the view, and goes on when the operator resumes it", async () => {
    const pause = await t.call({ method: 'POST', url: '/api/v1/ops/mail_hosts/pause', token: operator, payload: { host: 'MX.Strict.Test', note: 'blocking us' } });
    expect(pause.status).toBe(200);
    expect(pause.body.data.paused).toEqual([expect.objectContaining({ host: 'mx.strict.test', note: 'blocking us', paused_by: 'ops@verilead.test' })]);

    let answered = false;
    const instant = t.call({ method: 'POST', url: '/api/v1/email_verify/instant', token: owner.token, payload: { email: 'held.one@strict.test' } }).finally(() => (answered = true));
    const view = async () => (await t.call({ method: 'GET', url: '/api/v1/ops/mail_hosts', token: operator })).body.data;
    await expect.poll(async () => (await view()).processes[0].hosts.find((h: { exchange: string }) => h.exchange === 'mx.strict.test')?.paused, { timeout: 10_000 }).toBe(true);
    const seen = await view();
    expect(seen.processes[0]).toMatchObject({ this_process: true, stale: false });
    expect(seen.processes[0].hosts.find((h: { exchange: string }) => h.exchange === 'mx.strict.test')).toMatchObject({ sessions_open: 0, in_use: 0, recent_replies: [] });
    await new Promise((r) => setTimeout(r, 500)); // it stays held (nothing to await: the point is that nothing happens)
    expect(answered).toBe(false);

    const resumed = await t.call({ method: 'POST', url: '/api/v1/ops/mail_hosts/resume', token: operator, payload: { host: 'mx.strict.test' } });
    expect(resumed.body.data.paused).toEqual([]);
    const res = await instant;
    expect(res.status).toBe(200);
    expect(`${res.body.data.status}/${res.body.data.reason.code}`).toBe('invalid/mailbox_not_found');
    const after = (await view()).processes[0].hosts.find((h: { exchange: string }) => h.exchange === 'mx.strict.test');
    expect(after).toMatchObject({ paused: false, error_budget: ERROR_BUDGET, non_mail_budget: NONMAIL_BUDGET });
    expect(after.recent_replies.map((r: { line: string }) => r.line)).toContainEqual(expect.stringMatching(/^550 5\.1\.1/));
    // every operator sees the host's reply, never the customer's address in it: the domain, the code and the text stay
    expect(after.recent_replies.map((r: { line: string }) => r.line)).toContainEqual(expect.stringMatching(/^550 5\.1\.1 <…@strict\.test>: Recipient address rejected/));
    expect(JSON.stringify(after.recent_replies)).not.toContain('held.one');

    const log = await t.call({ method: 'GET', url: '/api/v1/ops/actions', token: operator });
    expect(log.body.data.items.slice(0, 2).map((a: { action: string }) => a.action)).toEqual(['operator.mail_host_resumed', 'operator.mail_host_paused']);
  });

  it("masks the addresses of a snapshot's replies written before the engine masked them", () => {
    const host = toMailHost({ host: '10.0.0.1:25', recentReplies: [{ at: 0, line: '550 5.1.1 <alice@corp.com>: Recipient address rejected' }] });
    expect(host.recent_replies).toEqual([{ at: '1970-01-01T00:00:00.000Z', line: '550 5.1.1 <…@corp.com>: Recipient address rejected' }]);
  });

  it('resuming a host that is not paused answers 404; a host name that is no host answers 400', async () => {
    expect((await t.call({ method: 'POST', url: '/api/v1/ops/mail_hosts/resume', token: operator, payload: { host: 'mx.other.test' } })).status).toBe(404);
    const bad = await t.call({ method: 'POST', url: '/api/v1/ops/mail_hosts/pause', token: operator, payload: { host: 'mx example/com' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('MX host name');
  });
});

describe('payment events', () => {
  it('lists events newest first with the organisation, amounts and failures, and never card details', async () => {
    await t.db.db.insert(paymentEvents).values([
      {
        provider: 'stripe',
        eventId: 'evt_ok',
        type: 'payment_intent.succeeded',
        payload: { data: { object: { amount: 4900, currency: 'usd', metadata: { org_id: owner.orgId } } } },
        receivedAt: new Date(Date.now() - 60_000),
        processedAt: new Date(),
      },
      {
        provider: 'stripe',
        eventId: 'evt_failed',
        type: 'payment_intent.payment_failed',
        payload: {
          data: { object: { amount: 9900, currency: 'usd', metadata: { org_id: owner.orgId }, last_payment_error: { message: 'Your card was declined.', payment_method: { card: { last4: '4242' } } } } },
        },
        processedAt: new Date(),
      },
      { provider: 'paypal', eventId: 'WH-1', type: 'PAYMENT.SALE.COMPLETED', payload: { resource: { custom_id: 'not-a-uuid', amount: { total: '12.50', currency: 'USD' } } }, receivedAt: new Date(Date.now() - 120_000) },
    ]);
    const all = await t.call({ method: 'GET', url: '/api/v1/ops/payments/events', token: operator });
    expect(all.status).toBe(200);
    expect(all.body.data.total).toBe(3);
    expect(all.body.data.items.map((e: { event_id: string }) => e.event_id)).toEqual(['evt_failed', 'evt_ok', 'WH-1']);
    expect(all.body.data.items[0]).toMatchObject({ org_id: owner.orgId, org_name: expect.any(String), amount_minor: 9900, currency: 'usd', failure: true, failure_message: 'Your card was declined.' });
    expect(all.body.data.items[2]).toMatchObject({ org_id: null, amount_minor: 1250, currency: 'usd', failure: false });
    expect(JSON.stringify(all.body)).not.toContain('4242');
    const failures = await t.call({ method: 'GET', url: '/api/v1/ops/payments/events?failures=true', token: operator });
    expect(failures.body.data.items.map((e: { event_id: string }) => e.event_id)).toEqual(['evt_failed']);
    const paypal = await t.call({ method: 'GET', url: '/api/v1/ops/payments/events?provider=paypal&limit=25&page=1', token: operator });
    expect(paypal.body.data.total).toBe(1);
    expect((await t.call({ method: 'GET', url: '/api/v1/ops/payments/events?limit=7', token: operator })).status).toBe(400);
  });
});
