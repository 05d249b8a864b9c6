import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TTestApp } from '../../test/test-app';

let t: TTestApp;
let owner: { token: string; userId: string; orgId: string };

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.createOwner('dev-owner@verilead.test');
}, 60_000);
afterAll(async () => t?.close());

const verifyTest = (token: string, ip = '203.0.113.1') =>
  t.call({ method: 'POST', url: '/v2/email_verify/instant', headers: { authorization: `Bearer ${token}` }, payload: { email: 'valid@example.com' }, remoteAddress: ip });

describe('apps', () => {
  it('creates an app (Yet to Activate) whose token is shown once, stored hashed, and works on the public API', async () => {
    const created = await t.call({ method: 'POST', url: '/api/v1/apps/create', token: owner.token, payload: { name: 'CRM sync', type: 'server' } });
    expect(created.status).toBe(200);
    const app = created.body.data;
    expect(app).toMatchObject({ name: 'CRM sync', type: 'server', status: 'new', status_label: 'Yet to Activate', rate_limit: { window: 'minute', max: 100, scope: 'ip' } });
    expect(app.token).toMatch(/^vla_/);
    expect(app.token_hint.replace('…', '')).toBe(app.token.slice(0, 10));

    const fetched = await t.call({ method: 'GET', url: `/api/v1/apps/${app.id}`, token: owner.token });
    expect(fetched.body.data.token).toBeNull();
    const list = await t.call({ method: 'GET', url: '/api/v1/apps/list', token: owner.token });
    expect(list.body.data.total).toBeGreaterThanOrEqual(1);
    expect(list.body.data.items.every((a: { token: unknown }) => a.token === null)).toBe(true);

    const res = await verifyTest(app.token);
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('valid');
    // The first call activates the app.
    const after = await t.call({ method: 'GET', url: `/api/v1/apps/${app.id}`, token: owner.token });
    expect(after.body.data.status).toBe('active');
    expect(after.body.data.last_used_at).not.toBeNull();
  });

  it('rotates a token (the old one stops at once), deactivates and removes apps', async () => {
    const app = (await t.call({ method: 'POST', url: '/api/v1/apps/create', token: owner.token, payload: { name: 'Rotate me' } })).body.data;
    const rotated = await t.call({ method: 'POST', url: '/api/v1/apps/update', token: owner.token, payload: { app_id: app.id, rotate_token: true } });
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.token).toMatch(/^vla_/);
    expect(rotated.body.data.token).not.toBe(app.token);
    expect((await verifyTest(app.token)).body).toEqual({ status: 'failed', error: { code: 1000, message: 'Invalid API Token, please generate new token' } });
    expect((await verifyTest(rotated.body.data.token)).status).toBe(200);

    await t.call({ method: 'POST', url: '/api/v1/apps/update', token: owner.token, payload: { app_id: app.id, status: 'inactive' } });
    expect((await verifyTest(rotated.body.data.token)).status).toBe(401);
    await t.call({ method: 'POST', url: '/api/v1/apps/update', token: owner.token, payload: { app_id: app.id, status: 'active' } });
    expect((await verifyTest(rotated.body.data.token)).status).toBe(200);
    await t.call({ method: 'POST', url: '/api/v1/apps/update', token: owner.token, payload: { app_id: app.id, status: 'removed' } });
    expect((await verifyTest(rotated.body.data.token)).status).toBe(401);
    const list = await t.call({ method: 'GET', url: '/api/v1/apps/list', token: owner.token });
    expect(list.body.data.items.map((a: { id: string }) => a.id)).not.toContain(app.id);
    const removedList = await t.call({ method: 'GET', url: '/api/v1/apps/list?status=removed', token: owner.token });
    expect(removedList.body.data.items.map((a: { id: string }) => a.id)).toContain(app.id);
    const change = await t.call({ method: 'POST', url: '/api/v1/apps/update', token: owner.token, payload: { app_id: app.id, name: 'x' } });
    expect(change.status).toBe(409);
  });

  // Issue 27 point 1: a client app's token sits in web pages; it works on /v2/form_guard only, whatever the Origin.
  it('client apps need allowed origins, and their token is refused on the /v2 API even from those origins', async () => {
    const noOrigin = await t.call({ method: 'POST', url: '/api/v1/apps/create', token: owner.token, payload: { name: 'Widget', type: 'client' } });
    expect(noOrigin.status).toBe(400);
    const app = (
      await t.call({ method: 'POST', url: '/api/v1/apps/create', token: owner.token, payload: { name: 'Widget', type: 'client', allowed_origins: ['https://shop.example.com'] } })
    ).body.data;
    for (const origin of ['https://shop.example.com', 'https://evil.example.net']) {
      const res = await t.call({ method: 'POST', url: '/v2/email_verify/instant', headers: { authorization: `Bearer ${app.token}`, origin }, payload: { email: 'valid@example.com' } });
      expect(res.status, origin).toBe(401);
      expect(res.body).toEqual({ status: 'failed', error: { code: 1008, message: expect.stringContaining('form guard') } });
      expect(res.headers['access-control-allow-origin'], origin).toBeUndefined();
    }
    // Preflights: the form guard's routes let the browser ask; the rest of /v2 lets no origin in.
    const guardPreflight = await t.call({ method: 'OPTIONS', url: '/v2/form_guard/validate', headers: { origin: 'https://shop.example.com', 'access-control-request-method': 'POST' } });
    expect(guardPreflight.status).toBe(204);
    expect(guardPreflight.headers['access-control-allow-origin']).toBe('https://shop.example.com');
    expect(String(guardPreflight.headers['access-control-allow-headers'])).toContain('authorization');
    const apiPreflight = await t.call({ method: 'OPTIONS', url: '/v2/email_verify/instant', headers: { origin: 'https://shop.example.com', 'access-control-request-method': 'POST' } });
    expect(apiPreflight.status).toBe(204);
    expect(apiPreflight.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('the default app is created once, on request (reading it creates nothing); another organisation sees 404', async () => {
    const none = await t.call({ method: 'GET', url: '/api/v1/apps/default', token: owner.token });
    expect(none.status).toBe(200);
    expect(none.body.data).toBeNull();
    const listed = await t.call({ method: 'GET', url: '/api/v1/apps/list', token: owner.token });
    expect(listed.body.data.items.filter((a: { is_default: boolean }) => a.is_default)).toEqual([]);
    const first = await t.call({ method: 'POST', url: '/api/v1/apps/default', token: owner.token });
    expect(first.body.data.is_default).toBe(true);
    expect(first.body.data.token).toMatch(/^vla_/);
    const second = await t.call({ method: 'GET', url: '/api/v1/apps/default', token: owner.token });
    expect(second.body.data.id).toBe(first.body.data.id);
    expect(second.body.data.token).toBeNull();
    const again = await t.call({ method: 'POST', url: '/api/v1/apps/default', token: owner.token });
    expect(again.body.data).toMatchObject({ id: first.body.data.id, token: null });
    const stranger = await t.createOwner('stranger@verilead.test');
    const peek = await t.call({ method: 'GET', url: `/api/v1/apps/${first.body.data.id}`, token: stranger.token });
    expect(peek.status).toBe(404);
  });
});

describe('rate limits', () => {
  it('per-IP scope: a token over its minute window gets 429 with Retry-After, other IPs are unaffected', async () => {
    const app = (
      await t.call({ method: 'POST', url: '/api/v1/apps/create', token: owner.token, payload: { name: 'Per IP', rate_limit: { window: 'minute', max: 2, scope: 'ip' } } })
    ).body.data;
    const a1 = await verifyTest(app.token, '198.51.100.1');
    expect(a1.status).toBe(200);
    expect(a1.headers['x-ratelimit-limit']).toBe('2');
    expect(a1.headers['x-ratelimit-remaining']).toBe('1');
    expect(Number(a1.headers['x-ratelimit-reset'])).toBeGreaterThan(0);
    expect((await verifyTest(app.token, '198.51.100.1')).headers['x-ratelimit-remaining']).toBe('0');
    const over = await verifyTest(app.token, '198.51.100.1');
    expect(over.status).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(over.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(over.body.status).toBe('failed');
    expect(over.body.error.message).toContain('You have reached API rate limit');
    expect((await verifyTest(app.token, '198.51.100.2')).status).toBe(200);
  });

  it('global scope: every IP shares the window', async () => {
    const app = (
      await t.call({ method: 'POST', url: '/api/v1/apps/create', token: owner.token, payload: { name: 'Global', rate_limit: { window: 'hour', max: 2, scope: 'global' } } })
    ).body.data;
    expect((await verifyTest(app.token, '198.51.100.10')).status).toBe(200);
    expect((await verifyTest(app.token, '198.51.100.11')).status).toBe(200);
    const over = await verifyTest(app.token, '198.51.100.12');
    expect(over.status).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(over.headers['retry-after'])).toBeLessThanOrEqual(3600);
  });
});

describe('credit limits', () => {
  it('test addresses never count towards an app credit limit', async () => {
    const app = (
      await t.call({ method: 'POST', url: '/api/v1/apps/create', token: owner.token, payload: { name: 'Capped', credit_limit: { type: 'life_time', value: 1 } } })
    ).body.data;
    // Test addresses cost nothing, so they never reach the cap.
    for (let i = 0; i < 3; i += 1) expect((await verifyTest(app.token)).body.status).toBe('success');
    const got = await t.call({ method: 'GET', url: `/api/v1/apps/${app.id}`, token: owner.token });
    expect(got.body.data.credits_used).toEqual({ today: 0, life_time: 0 });
  });
});
