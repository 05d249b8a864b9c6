import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { selectRows } from '../../platform/db/database';
import { createTestApp, TEST_PASSWORD, type TTestApp } from '../../test/test-app';
import { createOperatorLink } from './operator-auth';

type TUser = { token: string; userId: string; orgId: string };
const OPERATOR_PASSWORD = 'Operator-Pass-1';

describe('operator console: operators, guards, organisations, credits, suspension', () => {
  let t: TTestApp;
  let opToken: string;
  let owner: TUser;
  let stranger: TUser;

  /** A one-time link (as the ops command prints it), used to set the password: answers the operator's token. */
  const makeOperator = async (email: string): Promise<string> => {
    const link = await createOperatorLink(t.deps, { email, invitedBy: null });
    const token = new URL(link.url).searchParams.get('token')!;
    const set = await t.call({ method: 'POST', url: '/api/v1/ops/session/set_password', payload: { token, password: OPERATOR_PASSWORD } });
    expect(set.status).toBe(200);
    return set.body.data.token as string;
  };
  const ops = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, token = opToken) =>
    t.call({ method, url: `/api/v1/ops${url}`, token, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });

  beforeAll(async () => {
    t = await createTestApp();
    opToken = await makeOperator('first@ops.test');
    owner = await t.createOwner('owner@acme-ops.test', 'Acme Owner');
    stranger = await t.createOwner('someone@other-ops.test', 'Other Owner');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('sets the first password with a single-use link, then signs in with it only', async () => {
    const link = await createOperatorLink(t.deps, { email: 'second@ops.test', invitedBy: null });
    expect(link.url).toMatch(/^http:\/\/app\.verilead\.test\/ops\/set-password\?token=vlp_/);
    const token = new URL(link.url).searchParams.get('token')!;
    const first = await t.call({ method: 'POST', url: '/api/v1/ops/session/set_password', payload: { token, password: OPERATOR_PASSWORD } });
    expect(first.status).toBe(200);
    expect(first.body.data.token).toMatch(/^vlo_/);
    const again = await t.call({ method: 'POST', url: '/api/v1/ops/session/set_password', payload: { token, password: OPERATOR_PASSWORD } });
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe('invalid_token');
    const wrong = await t.call({ method: 'POST', url: '/api/v1/ops/session/login', payload: { email: 'second@ops.test', password: 'Wrong-Pass-1' } });
    expect(wrong.status).toBe(401);
    const login = await t.call({ method: 'POST', url: '/api/v1/ops/session/login', payload: { email: 'second@ops.test', password: OPERATOR_PASSWORD } });
    expect(login.status).toBe(200);
    const hash = await selectRows<{ password_hash: string }>(t.db.db, sql`select password_hash from operators where email = 'second@ops.test'`);
    expect(hash[0]!.password_hash).toMatch(/^\$argon2id\$/);
    // A customer account's password does not open the console.
    const customer = await t.call({ method: 'POST', url: '/api/v1/ops/session/login', payload: { email: 'owner@acme-ops.test', password: TEST_PASSWORD } });
    expect(customer.status).toBe(401);
  });

  it('refuses customer sessions on operator routes and operator sessions on customer routes', async () => {
    expect((await ops('GET', '/orgs', undefined, '')).status).toBe(401);
    const withCustomer = await ops('GET', '/orgs', undefined, owner.token);
    expect(withCustomer.status).toBe(403);
    expect(withCustomer.body.error.message).toMatch(/operator console/);
    const key = await t.call({ method: 'GET', url: '/api/v1/user/generateapikey', token: owner.token });
    expect(key.body.data.api_key).toMatch(/^vlk_/);
    expect((await ops('GET', '/orgs', undefined, key.body.data.api_key as string)).status).toBe(403);
    expect((await ops('GET', '/orgs', undefined, 'vlo_forged-token')).status).toBe(401);
    const customerRoute = await t.call({ method: 'GET', url: '/api/v1/audit_log', token: opToken });
    expect(customerRoute.status).toBe(401);
    const profile = await t.call({ method: 'GET', url: '/api/v1/user/credits_and_limits', token: opToken });
    expect(profile.status).toBe(401);
    // Signed out: the token stops working.
    const other = await makeOperator('leaving@ops.test');
    expect((await ops('POST', '/session/logout', undefined, other)).status).toBe(200);
    expect((await ops('GET', '/me', undefined, other)).status).toBe(401);
  });

  it('invites an operator: the link is mailed to the invitee only (never answered to the inviter), and logged on the operator side', async () => {
    const res = await ops('POST', '/operators/invite', { email: 'Invited@Ops.test', name: 'Ivy Invited' });
    expect(res.status).toBe(200);
    expect(res.body.data.operator).toMatchObject({ email: 'invited@ops.test', name: 'Ivy Invited', active: false, disabled: false });
    expect(res.body.data.message).toBe('Invitation sent to invited@ops.test.');
    const mailed = await t.mailedToken('invited@ops.test', '/ops/set-password');
    // Neither the link nor its token is in the answer: an operator session alone cannot set the invitee's password.
    expect(res.body.data.url).toBeUndefined();
    expect(JSON.stringify(res.body)).not.toContain(mailed);
    expect(JSON.stringify(res.body)).not.toContain(encodeURIComponent(mailed));
    const set = await t.call({ method: 'POST', url: '/api/v1/ops/session/set_password', payload: { token: mailed, password: OPERATOR_PASSWORD } });
    expect(set.status).toBe(200);
    const list = await ops('GET', '/operators');
    expect(list.body.data.items.map((o: { email: string }) => o.email)).toContain('invited@ops.test');
    const log = await ops('GET', '/actions');
    expect(log.body.data.items.find((a: { action: string }) => a.action === 'operator.operator_invited')).toMatchObject({ operator_email: 'first@ops.test', org_id: null });
  });

  it('finds organisations by name, member e-mail and domain, and opens one without its lists or contacts', async () => {
    for (const q of ['acme owner', 'owner@acme-ops', 'acme-ops.test']) {
      const found = await ops('GET', `/orgs?q=${encodeURIComponent(q)}`);
      expect(found.status).toBe(200);
      const ids = found.body.data.items.map((o: { id: string }) => o.id);
      expect(ids, q).toContain(owner.orgId);
      expect(ids, q).not.toContain(stranger.orgId);
    }
    const detail = await ops('GET', `/orgs/${owner.orgId}`);
    expect(detail.status).toBe(200);
    expect(detail.body.data).toMatchObject({ id: owner.orgId, owner_email: 'owner@acme-ops.test', support_access_until: null });
    expect(detail.body.data.members_list).toEqual([expect.objectContaining({ user_id: owner.userId, email: 'owner@acme-ops.test', role: 'owner', suspended: false })]);
    expect(Object.keys(detail.body.data.activity_30d).sort()).toEqual(['credits_used', 'finder_lists', 'verify_lists']);
    expect((await ops('GET', '/orgs/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await ops('GET', '/orgs/not-a-uuid')).status).toBe(400);
  });

  it('grants credits once per key, even under concurrent retries, and the owner reads the adjustment in the ledger', async () => {
    const before = (await ops('GET', `/orgs/${owner.orgId}`)).body.data.credits_balance as number;
    const body = { direction: 'grant', amount: 250, reason: 'Refund for ticket 4711', idempotency_key: 'grant-key-0001' };
    const answers = await Promise.all(Array.from({ length: 5 }, () => ops('POST', `/orgs/${owner.orgId}/credits`, body)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.filter((a) => a.body.data.replayed === false)).toHaveLength(1);
    expect(new Set(answers.map((a) => a.body.data.balance_after))).toEqual(new Set([before + 250]));
    const rows = await selectRows<{ n: number }>(t.db.db, sql`select count(*)::int as n from credit_transactions where org_id = ${owner.orgId} and object_type = 'operator_adjustment'`);
    expect(rows[0]!.n).toBe(1);

    const ledger = await t.call({ method: 'GET', url: '/api/v1/user/credits_and_limits/ledger', token: owner.token });
    expect(ledger.status).toBe(200);
    expect(JSON.stringify(ledger.body.data)).toContain('Adjustment by Verilead support: Refund for ticket 4711');

    const audit = await t.call({ method: 'GET', url: '/api/v1/audit_log?action=operator.credits_adjusted', token: owner.token });
    expect(audit.body.data.items).toEqual([
      expect.objectContaining({ action: 'operator.credits_adjusted', actor_email: 'Verilead support (first@ops.test)', details: expect.objectContaining({ amount: 250, reason: 'Refund for ticket 4711' }) }),
    ]);
    const strangerAudit = await t.call({ method: 'GET', url: '/api/v1/audit_log?action=operator.credits_adjusted', token: stranger.token });
    expect(strangerAudit.body.data.items).toEqual([]);
  });

  it('removes credits with a reason, never below zero', async () => {
    const balance = (await ops('GET', `/orgs/${owner.orgId}`)).body.data.credits_balance as number;
    const tooMuch = await ops('POST', `/orgs/${owner.orgId}/credits`, { direction: 'remove', amount: balance + 1, reason: 'Too many', idempotency_key: 'remove-key-0001' });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.error.message).toContain(`at most ${balance}`);
    const removed = await ops('POST', `/orgs/${owner.orgId}/credits`, { direction: 'remove', amount: 50, reason: 'Duplicate grant', idempotency_key: 'remove-key-0002' });
    expect(removed.status).toBe(200);
    expect(removed.body.data).toMatchObject({ amount: -50, balance_after: balance - 50, replayed: false });
    const noReason = await ops('POST', `/orgs/${owner.orgId}/credits`, { direction: 'grant', amount: 5, reason: '', idempotency_key: 'grant-key-0002' });
    expect(noReason.status).toBe(400);
    const unknown = await ops('POST', '/orgs/00000000-0000-4000-8000-000000000000/credits', { direction: 'grant', amount: 5, reason: 'Nobody', idempotency_key: 'grant-key-0003' });
    expect(unknown.status).toBe(404);
  });

  it('suspends a user (no sign-in, sessions refused with a clear message), restores them, and resets their sessions', async () => {
    const user = await t.createOwner('suspend-me@acme2-ops.test');
    // Another organisation's user through this organisation's id: not found.
    expect((await ops('POST', `/orgs/${owner.orgId}/users/${user.userId}/suspend`, {})).status).toBe(404);

    expect((await ops('POST', `/orgs/${user.orgId}/users/${user.userId}/suspend`, { reason: 'Chargeback' })).status).toBe(200);
    const refused = await t.call({ method: 'GET', url: '/api/v1/user/credits_and_limits', token: user.token });
    expect(refused.status).toBe(401);
    expect(refused.body.error).toMatchObject({ code: 'account_suspended', message: expect.stringContaining('suspended by Verilead support') });
    const login = await t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email: 'suspend-me@acme2-ops.test', password: TEST_PASSWORD } });
    expect(login.status).toBe(403);
    expect(login.body.error.code).toBe('account_suspended');
    expect((await ops('GET', `/orgs/${user.orgId}`)).body.data.members_list[0].suspended).toBe(true);

    expect((await ops('POST', `/orgs/${user.orgId}/users/${user.userId}/restore`, {})).status).toBe(200);
    expect((await t.call({ method: 'GET', url: '/api/v1/user/credits_and_limits', token: user.token })).status).toBe(200);

    const reset = await ops('POST', `/orgs/${user.orgId}/users/${user.userId}/reset_sessions`);
    expect(reset.status).toBe(200);
    expect(reset.body.data.message).toMatch(/signed out of 1 session/);
    expect((await t.call({ method: 'GET', url: '/api/v1/user/credits_and_limits', token: user.token })).status).toBe(401);

    const audit = await selectRows<{ action: string }>(t.db.db, sql`select action from audit_log where org_id = ${user.orgId} and action like 'operator.%' order by created_at`);
    expect(audit.map((a) => a.action)).toEqual(['operator.user_suspended', 'operator.user_restored', 'operator.sessions_reset']);
    const opLog = await ops('GET', `/actions?org_id=${user.orgId}`);
    expect(opLog.body.data.items.map((a: { action: string }) => a.action)).toEqual(['operator.sessions_reset', 'operator.user_restored', 'operator.user_suspended']);
  });

  it("suspends and restores a whole organisation, its sessions and its apps' tokens", async () => {
    const org = await t.createOwner('whole-org@acme3-ops.test');
    const app = (await t.call({ method: 'POST', url: '/api/v1/apps/create', token: org.token, payload: { name: 'Sync' } })).body.data as { token: string };
    const credits = () => t.call({ method: 'GET', url: '/v2/email_verify/getcredits', token: app.token });
    expect((await credits()).status).toBe(200);
    expect((await ops('POST', `/orgs/${org.orgId}/suspend`, { reason: 'Abuse report' })).status).toBe(200);
    expect((await credits()).status).toBe(401);
    const refused = await t.call({ method: 'GET', url: '/api/v1/user/credits_and_limits', token: org.token });
    expect(refused.body.error).toMatchObject({ code: 'account_suspended', message: expect.stringContaining('organisation is suspended') });
    expect((await t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email: 'whole-org@acme3-ops.test', password: TEST_PASSWORD } })).status).toBe(403);
    expect((await ops('POST', `/orgs/${org.orgId}/restore`, {})).status).toBe(200);
    expect((await t.call({ method: 'GET', url: '/api/v1/user/credits_and_limits', token: org.token })).status).toBe(200);
    expect((await credits()).status).toBe(200);
  });

  it("shows an organisation's lists only while the owner grants support access", async () => {
    const hidden = await ops('GET', `/orgs/${owner.orgId}/lists`);
    expect(hidden.status).toBe(403);
    expect(hidden.body.error.message).toMatch(/not granted support access/);
    const granted = await t.call({ method: 'POST', url: '/api/v1/settings/support_access', token: owner.token, payload: { hours: 24 } });
    expect(granted.status).toBe(200);
    expect(granted.body.data.active).toBe(true);
    const detail = await ops('GET', `/orgs/${owner.orgId}`);
    expect(Date.parse(detail.body.data.support_access_until as string)).toBeGreaterThan(Date.now() + 23 * 3600_000);
    const shown = await ops('GET', `/orgs/${owner.orgId}/lists`);
    expect(shown.status).toBe(200);
    expect(shown.body.data.items).toEqual([]);
    // Another organisation grants nothing for this one.
    expect((await ops('GET', `/orgs/${stranger.orgId}/lists`)).status).toBe(403);
    expect((await t.call({ method: 'POST', url: '/api/v1/settings/support_access', token: owner.token, payload: { hours: 5 } })).status).toBe(400);
    expect((await t.call({ method: 'DELETE', url: '/api/v1/settings/support_access', token: owner.token })).status).toBe(200);
    expect((await ops('GET', `/orgs/${owner.orgId}/lists`)).status).toBe(403);
    const audit = await selectRows<{ action: string }>(t.db.db, sql`select action from audit_log where org_id = ${owner.orgId} and action in ('support_access.granted', 'support_access.revoked', 'operator.lists_viewed') order by created_at`);
    expect(audit.map((a) => a.action)).toEqual(['support_access.granted', 'operator.lists_viewed', 'support_access.revoked']);
  });

  it('reads and edits the prices, with readable errors for invalid content', async () => {
    const current = await ops('GET', '/pricing');
    expect(current.status).toBe(200);
    expect(Array.isArray(current.body.data.plans)).toBe(true);
    const invalid = await ops('PUT', '/pricing', { config: { plans: [{ id: 'p1', name: 'Starter', interval: 'weekly', currency: 'USD', price: -1, credits: 100 }] } });
    expect(invalid.status).toBe(400);
    const fields = invalid.body.error.reasons.map((r: { field: string }) => r.field);
    expect(fields).toEqual(expect.arrayContaining(['plans.0.interval', 'plans.0.price']));
    const coupon = { code: 'OPS-TEST-10', kind: 'percent', value: 10, max_redemptions: null, expires_at: null, active: true };
    const saved = await ops('PUT', '/pricing', { config: { coupons: [coupon] } });
    expect(saved.status).toBe(200);
    expect(saved.body.data.config.coupons).toEqual(expect.arrayContaining([coupon]));
  });
});
