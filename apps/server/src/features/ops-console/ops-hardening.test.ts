import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { API_AUTHORIZATION } from '@verilead/contracts';
import { readPriceConfig } from '../billing';
import { selectRows } from '../../platform/db/database';
import { createTestApp, type TTestApp } from '../../test/test-app';
import { createOperatorLink } from './operator-auth';
import { updatePricing } from './pricing-service';

type TRoute = { method: string; url: string };

/** Every route the app registered, read from fastify's route tree (`printRoutes`), HEAD left out. */
function registeredRoutes(tree: string): TRoute[] {
  const stack: string[] = [];
  const out: TRoute[] = [];
  for (const line of tree.split('\n')) {
    const m = /^((?:[│ ] {3})*)[├└]── (\S+)(?: \(([^)]*)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    stack.length = depth;
    const url = `${stack[depth - 1] ?? ''}${m[2]}`;
    stack.push(url);
    for (const method of (m[3] ?? '').split(',').map((x) => x.trim())) {
      if (method && method !== '-' && method !== 'HEAD') out.push({ method, url });
    }
  }
  return out;
}

/** The /ops routes anyone may call: the sign-in and the one-time link (they check a password or link)… */
const SIGN_IN_ROUTES = ['POST /ops/session/login', 'POST /ops/session/set_password'];
/** …and the ops command's routes, which check APP_SECRET themselves (403 without it). */
const SECRET_ROUTES = ['POST /ops/create_operator', 'POST /ops/operator_status', 'POST /ops/announcement', 'POST /ops/onetool_token', 'POST /ops/create_owner'];

describe('operator console hardening: deny by default, secret endpoints, one transaction per change, audit in every organisation', () => {
  let t: TTestApp;
  let opToken: string;
  let customer: { token: string; userId: string; orgId: string };

  beforeAll(async () => {
    t = await createTestApp();
    const link = await createOperatorLink(t.deps, { email: 'walker@hardening-ops.test', invitedBy: null });
    const set = await t.call({ method: 'POST', url: '/api/v1/ops/session/set_password', payload: { token: new URL(link.url).searchParams.get('token'), password: 'Operator-Pass-1' } });
    opToken = set.body.data.token as string;
    customer = await t.createOwner('owner@hardening-ops.test');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses every registered /ops route without a token (401/403) and with a customer session (403), but the sign-in and secret ones', async () => {
    const routes = registeredRoutes(t.app.printRoutes({ commonPrefix: false })).filter((r) => r.url.startsWith('/api/v1/ops/'));
    expect(routes.length).toBeGreaterThan(30);
    // Every public /ops rule of the table is one of the known ones: a new one must be added here on purpose.
    const publicOps = Object.entries(API_AUTHORIZATION)
      .filter(([key, rule]) => key.split(' ')[1]!.startsWith('/ops/') && rule.access === 'public')
      .map(([key]) => key);
    expect(publicOps.sort()).toEqual([...SIGN_IN_ROUTES, ...SECRET_ROUTES].sort());
    const checked: string[] = [];
    for (const route of routes) {
      const key = `${route.method} ${route.url.slice('/api/v1'.length)}`;
      if (SIGN_IN_ROUTES.includes(key)) continue;
      const url = route.url.replace(/:[A-Za-z]+/g, randomUUID());
      const method = route.method as 'GET' | 'POST' | 'PUT' | 'DELETE';
      const payload = method === 'GET' ? {} : { payload: {} };
      const anonymous = await t.call({ method, url, ...payload });
      expect([401, 403], `${key} without a token answered ${anonymous.status}`).toContain(anonymous.status);
      const asCustomer = await t.call({ method, url, token: customer.token, ...payload });
      expect(asCustomer.status, `${key} with a customer session`).toBe(403);
      checked.push(key);
    }
    expect(checked).toEqual(expect.arrayContaining(['GET /ops/me', 'POST /ops/operators/:id/disable', 'GET /ops/queues', 'PUT /ops/pricing', ...SECRET_ROUTES]));
    // The operator's token opens them (sanity: the walk did not refuse everything for another reason).
    expect((await t.call({ method: 'GET', url: '/api/v1/ops/me', token: opToken })).status).toBe(200);
  });

  it('applies a pricing change and its operator log entry in one transaction: a failing log entry leaves the prices as they were', async () => {
    const coupon = { code: 'HARDEN-TX-10', kind: 'percent' as const, value: 10, max_redemptions: null, expires_at: null, active: true };
    // An operator id that is no operator: the log entry's foreign key fails, after the prices were written.
    const ghost = { operatorId: randomUUID(), email: 'ghost@hardening-ops.test', name: 'Ghost', sessionId: randomUUID() };
    await expect(updatePricing(t.deps, ghost, { coupons: [coupon] })).rejects.toThrow();
    expect((await readPriceConfig(t.deps.database)).coupons ?? []).not.toEqual(expect.arrayContaining([expect.objectContaining({ code: 'HARDEN-TX-10' })]));
    const saved = await t.call({ method: 'PUT', url: '/api/v1/ops/pricing', token: opToken, payload: { config: { coupons: [coupon] } } });
    expect(saved.status).toBe(200);
    const logged = await selectRows<{ n: number }>(t.db.db, sql`select count(*)::int as n from operator_actions where action = 'operator.pricing_changed'`);
    expect(logged[0]!.n).toBe(1);
  });

  it("records a user's suspension, restore and session reset in every organisation the user belongs to", async () => {
    const user = await t.createOwner('two-orgs@hardening-ops.test');
    const other = await t.createOwner('other-owner@hardening-ops.test');
    // Today a user belongs to one organisation (index memberships_user_unique), so a user-wide action touches one. The
    // console does not rely on it: this test's own database lets the user join a second organisation.
    await t.db.db.execute(sql`drop index memberships_user_unique`);
    await t.db.db.execute(sql`insert into memberships (org_id, user_id, role, status) values (${other.orgId}::uuid, ${user.userId}::uuid, 'admin', 'active')`);
    const ops = (path: string) => t.call({ method: 'POST', url: `/api/v1/ops/orgs/${user.orgId}/users/${user.userId}${path}`, token: opToken, payload: {} });
    expect((await ops('/suspend')).status).toBe(200);
    expect((await ops('/restore')).status).toBe(200);
    expect((await ops('/reset_sessions')).status).toBe(200);
    for (const orgId of [user.orgId, other.orgId]) {
      const audit = await selectRows<{ action: string; target_id: string }>(t.db.db, sql`select action, target_id from audit_log where org_id = ${orgId}::uuid and action like 'operator.%' order by created_at, id`);
      expect(audit, orgId).toEqual([
        { action: 'operator.user_suspended', target_id: user.userId },
        { action: 'operator.user_restored', target_id: user.userId },
        { action: 'operator.sessions_reset', target_id: user.userId },
      ]);
    }
    // The other organisation's owner reads it in their own audit log.
    const seen = await t.call({ method: 'GET', url: '/api/v1/audit_log?action=operator.user_suspended', token: other.token });
    expect(seen.body.data.items).toEqual([expect.objectContaining({ target_id: user.userId, actor_email: 'Verilead support (walker@hardening-ops.test)' })]);
  });
});

describe('the ops command endpoints (APP_SECRET): the sign-in rate limit', () => {
  let t: TTestApp;
  beforeAll(async () => {
    t = await createTestApp({ rateLimit: { authMax: 3, publicMax: 10_000, webhookMax: 10_000, windowMs: 60_000 } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 429 once an address spent the limit, wrong secret or right one', async () => {
    for (const key of SECRET_ROUTES) {
      const url = `/api/v1${key.split(' ')[1]}`;
      const answers: number[] = [];
      for (let i = 0; i < 4; i += 1) answers.push((await t.call({ method: 'POST', url, headers: { 'x-ops-secret': i === 3 ? 'test-secret' : 'guess' }, payload: {} })).status);
      expect(answers, key).toEqual([403, 403, 403, 429]);
    }
  });
});
