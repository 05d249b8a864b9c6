import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { CALLER_CACHE_TTL_MS, setCacheClockForTests } from '../../platform/cache/ttl-cache';
import { createTestApp, type TTestApp } from '../../test/test-app';
import { getVerifierPreferences, updateAutopilot } from '../settings/service';

/**
 * The caller cache (token → app and member, member → verifier preferences): a change made through this process is seen
 * at once; a change this process is not told about (another API process wrote it: here, a direct SQL update) is seen
 * once the entry's CALLER_CACHE_TTL_MS has passed. The caches' clock is moved, not waited for.
 */
let t: TTestApp;
let owner: { token: string; userId: string; orgId: string };
let now = 1_000_000;

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.createOwner('cache-owner@verilead.test');
});
afterAll(async () => t?.close());
afterEach(() => setCacheClockForTests(null));

const verifyTest = (token: string) =>
  t.call({ method: 'POST', url: '/v2/email_verify/instant', headers: { authorization: `Bearer ${token}` }, payload: { email: 'valid@example.com' } });

describe('caller cache', () => {
  it('an app change made here is seen at once; one made elsewhere within the TTL', async () => {
    setCacheClockForTests(() => now);
    const app = (await t.call({ method: 'POST', url: '/api/v1/apps/create', token: owner.token, payload: { name: 'Cached', rate_limit: { window: 'minute', max: 1000, scope: 'global' } } })).body.data;
    expect((await verifyTest(app.token)).status).toBe(200);

    // Another process deactivates the app: this one still answers from its cache until the TTL has passed.
    await t.db.db.execute(sql`update apps set status = 'inactive' where id = ${app.id}`);
    expect((await verifyTest(app.token)).status).toBe(200);
    now += CALLER_CACHE_TTL_MS + 1;
    expect((await verifyTest(app.token)).status).toBe(401);

    // This process reactivates it: seen at once (the refused token is not remembered past the change).
    expect((await t.call({ method: 'POST', url: '/api/v1/apps/update', token: owner.token, payload: { app_id: app.id, status: 'active' } })).status).toBe(200);
    expect((await verifyTest(app.token)).status).toBe(200);

    // Its rate limit lowered here: the next call counts against the new limit.
    await t.call({ method: 'POST', url: '/api/v1/apps/update', token: owner.token, payload: { app_id: app.id, rate_limit: { window: 'hour', max: 1, scope: 'global' } } });
    expect((await verifyTest(app.token)).headers['x-ratelimit-limit']).toBe('1');
    expect((await verifyTest(app.token)).status).toBe(429);
  });

  it("a member's status changed elsewhere stops their app token within the TTL", async () => {
    setCacheClockForTests(() => now);
    const app = (await t.call({ method: 'POST', url: '/api/v1/apps/create', token: owner.token, payload: { name: 'Member cached', rate_limit: { window: 'minute', max: 1000, scope: 'global' } } })).body.data;
    expect((await verifyTest(app.token)).status).toBe(200);
    await t.db.db.execute(sql`update memberships set status = 'inactive' where user_id = ${owner.userId}`);
    expect((await verifyTest(app.token)).status).toBe(200);
    now += CALLER_CACHE_TTL_MS + 1;
    expect((await verifyTest(app.token)).status).toBe(401);
    await t.db.db.execute(sql`update memberships set status = 'active' where user_id = ${owner.userId}`);
    now += CALLER_CACHE_TTL_MS + 1;
    expect((await verifyTest(app.token)).status).toBe(200);
  });

  it('verifier preferences: saved here at once, changed elsewhere within the TTL', async () => {
    setCacheClockForTests(() => now);
    const ctx = { userId: owner.userId, orgId: owner.orgId, role: 'owner' as const, sessionId: null, via: 'session' as const };
    expect((await getVerifierPreferences(t.db.db, ctx)).autoPilot).toBe(false);
    await updateAutopilot(t.db, ctx, { auto_pilot_status: true });
    expect((await getVerifierPreferences(t.db.db, ctx)).autoPilot).toBe(true);
    await t.db.db.execute(sql`update user_settings set ev = ev || '{"auto_pilot_status": false}'::jsonb where user_id = ${owner.userId}`);
    expect((await getVerifierPreferences(t.db.db, ctx)).autoPilot).toBe(true);
    now += CALLER_CACHE_TTL_MS + 1;
    expect((await getVerifierPreferences(t.db.db, ctx)).autoPilot).toBe(false);
  });
});
