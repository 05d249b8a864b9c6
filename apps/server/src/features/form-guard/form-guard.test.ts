import { createServer } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { DEFAULT_FORM_GUARD_EMAIL_REFUSAL_MESSAGES } from '@verilead/contracts';
import { getOrgBalance } from '../../platform/credits/ledger';
import { creditTransactions } from '../../platform/credits/tables';
import { events } from '../events/tables';
import { dispatchWebhookEvents } from '../webhooks/service';
import { createTestApp, type TTestApp } from '../../test/test-app';
import { judgeName, judgePhone } from './judge';
import { registerFormGuardPublicRoutes } from './routes';
import { getLimitKeys } from './service';

let t: TTestApp;
let owner: { token: string; userId: string; orgId: string };
let other: { token: string; userId: string; orgId: string };
const ORIGIN = 'http://127.0.0.1:5555';
let n = 0;
const rid = () => `req_${Date.now().toString(36)}_${++n}`;

beforeAll(async () => {
  t = await createTestApp({ allowPrivateDestinations: true });
  owner = await t.createOwner('fg-owner@verilead.test');
  other = await t.createOwner('fg-other@verilead.test');
}, 60_000);
afterAll(async () => t?.close());

async function createGuard(formGuard: Record<string, unknown> = {}, origins = [ORIGIN]) {
  const res = await t.call({
    method: 'POST',
    url: '/api/v1/apps/create',
    token: owner.token,
    payload: { name: 'Signup form', type: 'client', allowed_origins: origins, form_guard: formGuard },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { id: string; token: string; form_guard: Record<string, unknown> };
}

const validate = (token: string, body: Record<string, unknown>, origin = ORIGIN, ip = '198.51.100.7') =>
  t.call({
    method: 'POST',
    url: '/v2/form_guard/validate',
    headers: { authorization: `Bearer ${token}`, origin },
    payload: { request_id: rid(), page_url: `${origin}/signup`, ...body },
    remoteAddress: ip,
  });

describe('form guard settings through /apps', () => {
  it('creates a guard with default settings, lists guards apart and edits their settings', async () => {
    const guard = await createGuard();
    expect(guard.form_guard).toMatchObject({ fields: { email: true, phone: false, name: false }, timeout_ms: 10_000, block_on_timeout: false, email: { reject: ['disposable'] } });
    const server = await t.call({ method: 'POST', url: '/api/v1/apps/create', token: owner.token, payload: { name: 'Server', type: 'server', form_guard: {} } });
    expect(server.status).toBe(400);
    expect(server.body.error.message).toBe('A form guard is a client app: it runs in the browser on your allowed origins');

    const list = await t.call({ method: 'GET', url: '/api/v1/apps/list?form_guard=true', token: owner.token });
    expect(list.body.data.items.every((a: { form_guard: unknown }) => a.form_guard !== null)).toBe(true);
    expect(list.body.data.items.map((a: { id: string }) => a.id)).toContain(guard.id);

    const upd = await t.call({
      method: 'POST',
      url: '/api/v1/apps/update',
      token: owner.token,
      payload: { app_id: guard.id, form_guard: { fields: { email: true, phone: true, name: true }, block_on_timeout: true, timeout_ms: 2000 } },
    });
    expect(upd.status).toBe(200);
    expect(upd.body.data.form_guard).toMatchObject({ fields: { phone: true }, block_on_timeout: true, timeout_ms: 2000 });
    const bad = await t.call({ method: 'POST', url: '/api/v1/apps/update', token: owner.token, payload: { app_id: guard.id, form_guard: { timeout_ms: 10 } } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^The timeout is between 1000 and 60000 ms/);
    // Another organisation cannot read or change it.
    expect((await t.call({ method: 'GET', url: `/api/v1/apps/${guard.id}`, token: other.token })).status).toBe(404);
    expect((await t.call({ method: 'POST', url: '/api/v1/apps/update', token: other.token, payload: { app_id: guard.id, form_guard: {} } })).status).toBe(404);
  });
});

describe('the widget calls', () => {
  it('answers the config with CORS to an allowed origin only, and refuses other origins and pages', async () => {
    const guard = await createGuard({ allowed_urls: [`${ORIGIN}/signup*`] });
    const ok = await t.call({ method: 'GET', url: `/v2/form_guard/config?page_url=${encodeURIComponent(`${ORIGIN}/signup?x=1`)}`, headers: { authorization: `Bearer ${guard.token}`, origin: ORIGIN } });
    expect(ok.status).toBe(200);
    expect(ok.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(ok.body.data).toMatchObject({ timeout_ms: 10_000, block_on_timeout: false, messages: { email: 'Please enter a valid email address' } });

    const evil = await t.call({ method: 'GET', url: '/v2/form_guard/config', headers: { authorization: `Bearer ${guard.token}`, origin: 'http://evil.test' } });
    expect(evil.status).toBe(403);
    expect(evil.body.error.code).toBe(1074);
    expect(evil.headers['access-control-allow-origin']).toBeUndefined();

    const page = await validate(guard.token, { type: 'email', value: 'valid@example.com', page_url: `${ORIGIN}/pricing` });
    expect(page.status).toBe(403);
    expect(page.body.error.code).toBe(1075);
    const noToken = await t.call({ method: 'GET', url: '/v2/form_guard/config', headers: { origin: ORIGIN } });
    expect(noToken.status).toBe(401);

    const pre = await t.call({ method: 'OPTIONS', url: '/v2/form_guard/validate', headers: { origin: ORIGIN, 'access-control-request-method': 'POST' } });
    expect(pre.status).toBe(204);
    expect(String(pre.headers['access-control-allow-headers'])).toContain('authorization');
  });

  it('refuses an address by the guard rules with the message of its refusal (never "invalid" for a real one) and accepts a good one', async () => {
    const guard = await createGuard({
      email: { reject: ['disposable', 'role', 'catch_all'] },
      messages: { email: 'This address does not exist', phone: 'p', name: 'n', timeout: 't', email_refusals: { ...DEFAULT_FORM_GUARD_EMAIL_REFUSAL_MESSAGES, catch_all: 'Please give an address we can confirm' } },
    });
    const bad = await validate(guard.token, { type: 'email', value: 'disposable@example.com' });
    expect(bad.body.data).toMatchObject({ is_acceptable: false, error_msg: 'Please use a permanent email address, not a disposable one', reason: 'disposable', credits_charged: 0 });
    const role = await validate(guard.token, { type: 'email', value: 'role@example.com' });
    expect(role.body.data).toMatchObject({ is_acceptable: false, reason: 'role', error_msg: 'Please use your own email address, not a shared one such as info@ or sales@' });
    const catchAll = await validate(guard.token, { type: 'email', value: 'catch_all@example.com' });
    expect(catchAll.body.data).toMatchObject({ is_acceptable: false, reason: 'catch_all', error_msg: 'Please give an address we can confirm' });
    const invalid = await validate(guard.token, { type: 'email', value: 'invalid@example.com' });
    expect(invalid.body.data).toMatchObject({ is_acceptable: false, reason: 'invalid', error_msg: 'This address does not exist' });
    const good = await validate(guard.token, { type: 'email', value: 'valid@example.com' });
    expect(good.body.data).toMatchObject({ is_acceptable: true, error_msg: null });
    const empty = await validate(guard.token, { type: 'email', value: '  ' });
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toBe('Please enter a value to check');
    // The webhook event is recorded for each e-mail check.
    const rows = await t.db.db.select().from(events).where(and(eq(events.orgId, owner.orgId), eq(events.type, 'form_guard.email_validation.completed')));
    expect(rows.some((r) => r.payload.email === 'valid@example.com' && r.payload.is_acceptable === true)).toBe(true);
  });

  it('delivers form_guard.email_validation.completed to a subscribed webhook', async () => {
    const bodies: string[] = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        bodies.push(body);
        res.end('ok');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    try {
      const address = receiver.address();
      const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hook`;
      await dispatchWebhookEvents(t.deps.database, t.deps.queue, { lagMs: 0 }); // earlier events are not this hook's
      const hook = await t.call({ method: 'POST', url: '/api/v1/webhook', token: owner.token, payload: { name: 'Guard events', url, events: ['form_guard.email_validation.completed'] } });
      expect(hook.status, JSON.stringify(hook.body)).toBe(200);
      const guard = await createGuard();
      await validate(guard.token, { type: 'email', value: 'catch_all@example.com' });
      await validate(guard.token, { type: 'phone', value: '+1 415 555 2671' }); // no event for phones
      expect(await dispatchWebhookEvents(t.deps.database, t.deps.queue, { lagMs: 0 })).toBeGreaterThanOrEqual(1);
      await t.deps.queue.runUntilIdle();
      expect(bodies).toHaveLength(1);
      expect(JSON.parse(bodies[0]!)).toMatchObject({ type: 'form_guard.email_validation.completed' });
      expect(bodies[0]).toContain('catch_all@example.com');
    } finally {
      receiver.close();
    }
  });

  it('charges one credit per validated field with source js_widget, once for a retried check', async () => {
    const guard = await createGuard({ fields: { email: true, phone: true, name: true } });
    const before = await getOrgBalance(t.db.db, owner.orgId);
    const widgetCharges = () => t.db.db.select().from(creditTransactions).where(and(eq(creditTransactions.orgId, owner.orgId), eq(creditTransactions.sourceAgent, 'js_widget')));
    const chargesBefore = (await widgetCharges()).length;
    const body = { type: 'phone', value: '+1 415 555 2671', request_id: 'retry-me-12345' };
    const [a, b] = await Promise.all([validate(guard.token, body), validate(guard.token, body)]);
    const again = await validate(guard.token, body);
    for (const r of [a, b, again]) expect(r.body.data).toMatchObject({ is_acceptable: true, credits_charged: 1 });
    expect(await getOrgBalance(t.db.db, owner.orgId)).toBe(before - 1);
    expect((await widgetCharges()).length).toBe(chargesBefore + 1);
    const app = await t.call({ method: 'GET', url: `/api/v1/apps/${guard.id}`, token: owner.token });
    expect(app.body.data.credits_used.life_time).toBe(1);
  });

  it('stops checking when a limit is reached (per IP and global), without charging', async () => {
    const guard = await createGuard({ limits: [{ scope: 'ip', window: 'hour', max: 2 }, { scope: 'global', window: 'life_time', max: 3 }] });
    expect((await validate(guard.token, { type: 'email', value: 'valid@example.com' }, ORIGIN, '10.0.0.1')).status).toBe(200);
    expect((await validate(guard.token, { type: 'email', value: 'valid@example.com' }, ORIGIN, '10.0.0.1')).status).toBe(200);
    const third = await validate(guard.token, { type: 'email', value: 'valid@example.com' }, ORIGIN, '10.0.0.1');
    expect(third.status).toBe(429);
    expect(third.body.error.code).toBe(1030);
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
    expect((await validate(guard.token, { type: 'email', value: 'valid@example.com' }, ORIGIN, '10.0.0.2')).status).toBe(200);
    const global = await validate(guard.token, { type: 'email', value: 'valid@example.com' }, ORIGIN, '10.0.0.3');
    expect(global.status).toBe(429);
    expect(global.headers['retry-after']).toBeUndefined();
  });

  it('reports the usage by field type, and 404s another organisation\'s guard', async () => {
    const res = await t.call({ method: 'POST', url: '/api/v1/form_guard/usage', token: owner.token, payload: {} });
    expect(res.status).toBe(200);
    expect(res.body.data.metrics.total).toBe(res.body.data.metrics.email + res.body.data.metrics.phone + res.body.data.metrics.name);
    expect(res.body.data.metrics.phone).toBe(2); // one here, one in the webhook test
    expect(res.body.data.js_widget_billable).toBe(2);
    expect(res.body.data.refused.email).toBeGreaterThanOrEqual(3);
    const otherGuard = res.body.data.by_app[0].app_id;
    const foreign = await t.call({ method: 'POST', url: '/api/v1/form_guard/usage', token: other.token, payload: { app_id: otherGuard } });
    expect(foreign.status).toBe(404);
    const empty = await t.call({ method: 'POST', url: '/api/v1/form_guard/usage', token: other.token, payload: {} });
    expect(empty.body.data.metrics.total).toBe(0);
  });
});

describe('the widget script', () => {
  it('serves the built widget to any site, and says how to build it when it is missing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vl-fg-'));
    const scriptPath = join(dir, 'form-guard.js');
    const server = Fastify();
    await registerFormGuardPublicRoutes(server, t.deps, { scriptPath });
    try {
      const missing = await server.inject({ method: 'GET', url: '/form-guard.js' });
      expect(missing.statusCode).toBe(503);
      expect(missing.json().error.message).toContain('npm run build -w @verilead/form-guard');
      await writeFile(scriptPath, '(()=>{})();');
      const served = await server.inject({ method: 'GET', url: '/form-guard.js' });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toContain('text/javascript');
      expect(served.headers['cross-origin-resource-policy']).toBe('cross-origin');
      expect(served.body).toBe('(()=>{})();');
    } finally {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('judging phones and names', () => {
  const phone = { allowed_countries: [], default_country: null, line_types: [] };
  it('checks countries, line types and the default country', async () => {
    expect((await judgePhone('+1 415 555 2671', phone)).acceptable).toBe(true);
    expect(await judgePhone('12345', phone)).toMatchObject({ acceptable: false, reason: 'invalid' });
    expect(await judgePhone('+44 20 7946 0958', { ...phone, allowed_countries: ['US'] })).toMatchObject({ acceptable: false, reason: 'country' });
    expect(await judgePhone('+44 20 7946 0958', { ...phone, line_types: ['MOBILE'] })).toMatchObject({ acceptable: false, reason: 'line_type' });
    expect((await judgePhone('+44 7400 123456', { ...phone, line_types: ['MOBILE'] })).acceptable).toBe(true);
    expect((await judgePhone('020 7946 0958', { ...phone, default_country: 'GB' })).acceptable).toBe(true);
  });
  it('refuses gibberish names at the threshold', () => {
    expect(judgeName('Maria Garcia', { gibberish_threshold: 'high' }).acceptable).toBe(true);
    expect(judgeName('Xkqzvbw Qwrtzp', { gibberish_threshold: 'high' })).toMatchObject({ acceptable: false, reason: 'gibberish' });
    expect(judgeName('asdfgh', { gibberish_threshold: 'high' }).acceptable).toBe(true);
    expect(judgeName('asdfgh', { gibberish_threshold: 'low' }).acceptable).toBe(false);
    expect(judgeName('1234', { gibberish_threshold: 'high' })).toMatchObject({ acceptable: false, reason: 'invalid' });
  });
  it('puts checks into the windows of their limits', () => {
    const keys = getLimitKeys([{ scope: 'ip', window: 'minute', max: 1 }, { scope: 'global', window: 'life_time', max: 1 }], '1.2.3.4', 125_000);
    expect(keys.map((k) => k.key)).toEqual([
      { scopeKey: 'ip:1.2.3.4', window: 'minute', windowStart: 120 },
      { scopeKey: '*', window: 'life_time', windowStart: 0 },
    ]);
  });
});
