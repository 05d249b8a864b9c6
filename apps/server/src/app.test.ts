import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TTestApp } from './test/test-app';
import { setAnnouncement } from './features/announcements/service';
import { compareVersions, isVersionOutdated } from './platform/http/app-version';

describe('HTTP platform', () => {
  let t: TTestApp;
  beforeAll(async () => {
    t = await createTestApp({ minAppVersion: '31.0.0', appUpdateCode: 'clear_storage_reload' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers unknown routes with a 404 envelope', async () => {
    const res = await t.call({ method: 'GET', url: '/api/v1/does/not/exist' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ status: 'failed', error: { code: 'route_not_found', message: 'No route GET /api/v1/does/not/exist' } });
  });

  it('never answers 500 for malformed input', async () => {
    const login = '/api/v1/user/login';
    const cases: { name: string; opts: Parameters<TTestApp['call']>[0]; status: number }[] = [
      { name: 'broken JSON', opts: { method: 'POST', url: login, headers: { 'content-type': 'application/json' }, payload: '{"email": ' }, status: 400 },
      { name: 'empty JSON body', opts: { method: 'POST', url: login, headers: { 'content-type': 'application/json' }, payload: '' }, status: 400 },
      { name: 'no body', opts: { method: 'POST', url: login }, status: 400 },
      { name: 'array body', opts: { method: 'POST', url: login, payload: [1, 2] as unknown as object }, status: 400 },
      { name: 'wrong content type', opts: { method: 'POST', url: login, headers: { 'content-type': 'application/xml' }, payload: '<a/>' }, status: 415 },
      { name: 'text body', opts: { method: 'POST', url: login, headers: { 'content-type': 'text/plain' }, payload: 'hello' }, status: 400 },
      {
        name: 'huge body',
        opts: { method: 'POST', url: login, headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ email: 'a@b.test', password: 'x'.repeat(2_000_000) }) },
        status: 413,
      },
      { name: 'prototype poisoning', opts: { method: 'POST', url: login, headers: { 'content-type': 'application/json' }, payload: '{"__proto__": {"x": 1}}' }, status: 400 },
      { name: 'very long token', opts: { method: 'GET', url: '/api/v1/user/profile', headers: { authorization: `Bearer ${'a'.repeat(5000)}` } }, status: 401 },
      { name: 'wrong method', opts: { method: 'DELETE', url: '/api/v1/user/profile' }, status: 405 },
    ];
    for (const c of cases) {
      const res = await t.call(c.opts);
      expect(res.status, c.name).toBe(c.status);
      expect(res.body.status, c.name).toBe('failed');
      expect(typeof res.body.error.code, c.name).toBe('string');
    }
  });

  it('summarises validation failures readably', async () => {
    const res = await t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email: 'bad', password: '' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_failed');
    // A person reads the message: the fields' own sentences, no keys, no schema wording.
    expect(res.body.error.message).toBe('Please enter a valid email address. Password is required.');
    expect(res.body.error.reasons).toEqual([
      { field: 'email', location: 'body', messages: ['Please enter a valid email address'] },
      { field: 'password', location: 'body', messages: [expect.any(String)] },
    ]);
  });

  it('answers 418 with the update code when the app version is too old', async () => {
    const old = await t.call({ method: 'GET', url: '/api/v1/user/announcement', headers: { 'x-app-version': '30.9.9' } });
    expect(old.status).toBe(418);
    expect(old.body.error).toMatchObject({ code: 'app_version_outdated', additional_info: { update_code: 'clear_storage_reload' } });
    const junk = await t.call({ method: 'GET', url: '/api/v1/user/announcement', headers: { 'x-app-version': 'banana' } });
    expect(junk.status).toBe(418);
    const current = await t.call({ method: 'GET', url: '/api/v1/user/announcement', headers: { 'x-app-version': '31.3.1' } });
    expect(current.status).toBe(401);
    expect(compareVersions('31.3.1', '31.3')).toBe(1);
    expect(isVersionOutdated(undefined, '99.0.0')).toBe(false);
  });

  it('sends the announcement timestamp on every response and serves the announcement', async () => {
    const owner = await t.createOwner('ann@app.test');
    const before = await t.call({ method: 'GET', url: '/api/v1/user/announcement', token: owner.token });
    expect(before.headers['x-co-ann-ts']).toBe('0');
    expect(before.body.data).toEqual({ announcement: null, timestamp: 0 });
    // the operator route (used by `npm run ops -- announce`) sets it and refreshes the cached header value
    const ops = await t.call({
      method: 'POST',
      url: '/api/v1/ops/announcement',
      headers: { 'x-ops-secret': t.deps.config.appSecret },
      payload: { message: '<b>Maintenance</b> tonight', dismissable: true },
    });
    expect(ops.status).toBe(200);
    const ts = ops.body.data.timestamp as number;
    expect(ts).toBeGreaterThan(0);
    const after = await t.call({ method: 'GET', url: '/api/v1/user/announcement', token: owner.token });
    expect(after.headers['x-co-ann-ts']).toBe(String(ts));
    expect(after.body.data.announcement).toMatchObject({ message: '<b>Maintenance</b> tonight', dismissable: true, timestamp: ts });
    const notFound = await t.call({ method: 'GET', url: '/api/v1/nope' });
    expect(notFound.headers['x-co-ann-ts']).toBe(String(ts));
    // a change bumps the timestamp
    const next = await setAnnouncement(t.deps.database.db, { message: 'Second' });
    expect(next.timestamp).toBeGreaterThan(ts);
    expect((await t.call({ method: 'GET', url: '/api/v1/user/announcement' })).status).toBe(401);
  });

  it('protects the operator route with the app secret and clears the announcement', async () => {
    const denied = await t.call({ method: 'POST', url: '/api/v1/ops/announcement', headers: { 'x-ops-secret': 'wrong' }, payload: { clear: true } });
    expect(denied.status).toBe(403);
    const cleared = await t.call({ method: 'POST', url: '/api/v1/ops/announcement', headers: { 'x-ops-secret': t.deps.config.appSecret }, payload: { clear: true } });
    expect(cleared.body.data).toEqual({ announcement: null, timestamp: 0 });
    const after = await t.call({ method: 'GET', url: '/api/v1/nope' });
    expect(after.headers['x-co-ann-ts']).toBe('0');
  });

  it('documents every route in OpenAPI with its schemas', async () => {
    const res = await t.call({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(res.status).toBe(200);
    const paths = res.body.paths as Record<string, Record<string, { requestBody?: unknown; responses: Record<string, unknown> }>>;
    expect(Object.keys(paths)).toEqual(expect.arrayContaining(['/api/v1/user/signup', '/api/v1/user/credits_and_limits/transactions', '/api/v1/email_verify/getusercredits']));
    expect(paths['/api/v1/user/signup']?.post?.requestBody).toBeDefined();
    expect(paths['/api/v1/user/profile']?.get?.responses['200']).toBeDefined();
    expect(paths['/api/v1/ops/announcement']).toBeUndefined();
  });
});
