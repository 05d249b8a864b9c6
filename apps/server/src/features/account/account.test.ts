import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ZProfileResponse } from '@verilead/contracts';
import { createTestApp, TEST_PASSWORD, type TTestApp } from '../../test/test-app';
import { memberships, users } from '../../platform/tenancy/tables';
import { inviteMember } from '../auth/service';

const NEW_PASSWORD = 'Brand-New-Pass-3';

describe('account API', () => {
  let t: TTestApp;
  let owner: { token: string; userId: string; orgId: string };

  async function addMember(email: string, role: 'admin' | 'analyst') {
    await inviteMember(t.deps, { ...owner, role: 'owner', sessionId: null, via: 'session' }, { email, name: 'Member', role });
    const token = await t.mailedToken(email, '/setup_password');
    await t.call({ method: 'POST', url: '/api/v1/user/password/setup', payload: { token, password: TEST_PASSWORD } });
    const l = await t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email, password: TEST_PASSWORD } });
    return { token: l.body.data.token as string, userId: l.body.data.user.id as string };
  }

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.createOwner('owner@account.test', 'Olivia Owner');
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers the full profile (session shape)', async () => {
    const res = await t.call({ method: 'GET', url: '/api/v1/user/profile', token: owner.token });
    expect(res.status).toBe(200);
    const p = ZProfileResponse.parse(res.body).data;
    expect(p).toMatchObject({ name: 'Olivia Owner', email: 'owner@account.test', user_role: 'owner', org_id: owner.orgId, dashboard_type: 'individual', credits: 100 });
    expect(p.organisation.plan.user_create_limit).toBeGreaterThan(0);
    expect(p.current_plan.interval).toBe('free');
  });

  it('needs a bearer token', async () => {
    for (const [method, url] of [
      ['GET', '/api/v1/user/profile'],
      ['POST', '/api/v1/user/name/edit'],
      ['GET', '/api/v1/user/generateapikey'],
      ['PATCH', '/api/v1/user/account'],
    ] as const) {
      const res = await t.call({ method, url, payload: method === 'GET' ? undefined : {} });
      expect(res.status, url).toBe(401);
    }
    expect((await t.call({ method: 'GET', url: '/api/v1/user/profile', headers: { authorization: 'Bearer vls_garbage' } })).status).toBe(401);
    expect((await t.call({ method: 'GET', url: '/api/v1/user/profile', headers: { authorization: 'Basic abc' } })).status).toBe(401);
  });

  it('edits name, phone, address, timezone and chat id, recording activities', async () => {
    const name = await t.call({ method: 'POST', url: '/api/v1/user/name/edit', token: owner.token, payload: { name: 'Olivia Q. Owner' } });
    expect(name.status).toBe(200);
    expect(name.body.data.name).toBe('Olivia Q. Owner');
    const phone = await t.call({ method: 'POST', url: '/api/v1/user/phone/edit', token: owner.token, payload: { phone_number: '+44 20 7946 0958' } });
    expect(phone.body.data.phone_number).toBe('+44 20 7946 0958');
    const address = await t.call({ method: 'POST', url: '/api/v1/user/address/edit', token: owner.token, payload: { address: { line1: '1 Main St', city: 'Leeds', country: 'GB' } } });
    expect(address.body.data.address).toMatchObject({ line1: '1 Main St', line2: '', city: 'Leeds', country: 'GB' });
    const tz = await t.call({ method: 'POST', url: '/api/v1/user/timezone/edit', token: owner.token, payload: { timezone: 'Asia/Kolkata' } });
    expect(tz.body.data.timezone).toBe('Asia/Kolkata');
    const chat = await t.call({ method: 'POST', url: '/api/v1/user/freshchat/update', token: owner.token, payload: { restore_id: 'chat-123' } });
    expect(chat.body.data.restoreId).toBe('chat-123');

    const acts = await t.call({ method: 'POST', url: '/api/v1/user/activities', token: owner.token, payload: { type: 'profile_update' } });
    expect(acts.status).toBe(200);
    expect(acts.body.data.total).toBe(4);
    expect(acts.body.data.items[0].description).toBe('Changed the time zone');
  });

  it('rejects bad single-field edits with 400 reasons', async () => {
    const cases: [string, unknown, string][] = [
      ['/api/v1/user/name/edit', { name: '' }, 'name'],
      ['/api/v1/user/name/edit', { name: 'Robert); DROP TABLE' }, 'name'],
      ['/api/v1/user/phone/edit', { phone_number: 'call me' }, 'phone_number'],
      ['/api/v1/user/timezone/edit', { timezone: 'Mars/Olympus' }, 'timezone'],
      ['/api/v1/user/address/edit', { address: { line1: 42 } }, 'address.line1'],
      ['/api/v1/user/freshchat/update', {}, 'restore_id'],
      ['/api/v1/user/password/edit', { current_password: TEST_PASSWORD, new_password: 'weak' }, 'new_password'],
      ['/api/v1/user/email/edit', { email: 'nope', password: TEST_PASSWORD }, 'email'],
      ['/api/v1/user/low_credit_alert/update', { enabled: 'yes', threshold: -1 }, 'enabled'],
      ['/api/v1/user/upgrade', { plan: 'platinum' }, 'plan'],
      ['/api/v1/user/activities', { limit: 30 }, 'limit'],
    ];
    for (const [url, payload, field] of cases) {
      const res = await t.call({ method: 'POST', url, token: owner.token, payload: payload as object });
      expect(res.status, url).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
      expect(res.body.error.reasons.map((r: { field: string }) => r.field), url).toContain(field);
    }
  });

  it('changes the e-mail after confirming the new address', async () => {
    const member = await t.createOwner('change-me@account.test');
    const wrong = await t.call({ method: 'POST', url: '/api/v1/user/email/edit', token: member.token, payload: { email: 'new@account.test', password: 'Wrong-Pass-9' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.code).toBe('wrong_password');
    const taken = await t.call({ method: 'POST', url: '/api/v1/user/email/edit', token: member.token, payload: { email: 'owner@account.test', password: TEST_PASSWORD } });
    expect(taken.status).toBe(409);
    const edit = await t.call({ method: 'POST', url: '/api/v1/user/email/edit', token: member.token, payload: { email: 'New@account.test', password: TEST_PASSWORD } });
    expect(edit.status).toBe(200);
    expect(edit.body.data.pending_email).toBe('new@account.test');
    const token = await t.mailedToken('new@account.test', '/emailverification');
    const check = await t.call({ method: 'POST', url: '/api/v1/user/verify_token', payload: { token } });
    expect(check.body.data).toMatchObject({ kind: 'email_change', email: 'new@account.test', valid: true });
    const update = await t.call({ method: 'POST', url: '/api/v1/user/email/update', payload: { token } });
    expect(update.status).toBe(200);
    expect(update.body.data.email).toBe('new@account.test');
    expect((await t.call({ method: 'POST', url: '/api/v1/user/email/update', payload: { token } })).status).toBe(400);
    const profile = await t.call({ method: 'GET', url: '/api/v1/user/profile', token: member.token });
    expect(profile.body.data).toMatchObject({ email: 'new@account.test', pending_email: null });
    expect((await t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email: 'new@account.test', password: TEST_PASSWORD } })).status).toBe(200);
  });

  it('voids a password reset link mailed to the old address once the e-mail has changed', async () => {
    const u = await t.createOwner('moving@account.test');
    // A reset link goes to the old mailbox (which the person is leaving, maybe because someone else reads it)…
    expect((await t.call({ method: 'POST', url: '/api/v1/user/forgot-password', payload: { email: 'moving@account.test' } })).status).toBe(200);
    const oldLink = await t.mailedToken('moving@account.test', '/resetpassword');
    // …then the account moves to a new address.
    expect((await t.call({ method: 'POST', url: '/api/v1/user/email/edit', token: u.token, payload: { email: 'moved@account.test', password: TEST_PASSWORD } })).status).toBe(200);
    const change = await t.mailedToken('moved@account.test', '/emailverification');
    expect((await t.call({ method: 'POST', url: '/api/v1/user/email/update', payload: { token: change } })).status).toBe(200);
    // The old mailbox's link no longer sets the password of the account.
    const reset = await t.call({ method: 'POST', url: '/api/v1/user/reset-password', payload: { token: oldLink, password: 'Taken-Over-Pass-7' } });
    expect(reset.status).toBe(400);
    expect(reset.body.error.code).toBe('invalid_token');
    expect((await t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email: 'moved@account.test', password: 'Taken-Over-Pass-7' } })).status).toBe(401);
    expect((await t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email: 'moved@account.test', password: TEST_PASSWORD } })).status).toBe(200);
  });

  it('changes the password, keeping the current session and revoking others', async () => {
    const u = await t.createOwner('pw@account.test');
    const other = await t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email: 'pw@account.test', password: TEST_PASSWORD } });
    const wrong = await t.call({ method: 'POST', url: '/api/v1/user/password/edit', token: u.token, payload: { current_password: 'Nope-Nope-1', new_password: NEW_PASSWORD } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.reasons[0].field).toBe('current_password');
    const same = await t.call({ method: 'POST', url: '/api/v1/user/password/edit', token: u.token, payload: { current_password: TEST_PASSWORD, new_password: TEST_PASSWORD } });
    expect(same.body.error.code).toBe('same_password');
    const ok = await t.call({ method: 'POST', url: '/api/v1/user/password/edit', token: u.token, payload: { current_password: TEST_PASSWORD, new_password: NEW_PASSWORD } });
    expect(ok.status).toBe(200);
    expect((await t.call({ method: 'GET', url: '/api/v1/user/profile', token: u.token })).status).toBe(200);
    expect((await t.call({ method: 'GET', url: '/api/v1/user/profile', token: other.body.data.token })).status).toBe(401);
  });

  it('generates and rotates an API key that works as a bearer token and is stored hashed', async () => {
    const first = await t.call({ method: 'GET', url: '/api/v1/user/generateapikey', token: owner.token });
    expect(first.status).toBe(200);
    const key = first.body.data.api_key as string;
    expect(key).toMatch(/^vlk_/);
    const { apiKeys } = await import('../../platform/auth/tables');
    const stored = await t.db.db.select().from(apiKeys).where(eq(apiKeys.userId, owner.userId));
    expect(stored[0]?.keyHash).not.toContain(key);
    expect((await t.call({ method: 'GET', url: '/api/v1/user/profile', token: key })).body.data.has_api_key).toBe(true);
    const second = await t.call({ method: 'GET', url: '/api/v1/user/generateapikey', token: owner.token });
    expect(second.body.data.api_key).not.toBe(key);
    expect((await t.call({ method: 'GET', url: '/api/v1/user/profile', token: key })).status).toBe(401);
  });

  it('answers the current plan and records an upgrade request; executives may not upgrade', async () => {
    const plan = await t.call({ method: 'GET', url: '/api/v1/user/current_plan', token: owner.token });
    expect(plan.body.data).toMatchObject({ interval: 'free', pending_upgrade: null });
    const up = await t.call({ method: 'POST', url: '/api/v1/user/upgrade', token: owner.token, payload: { plan: 'annual', seats: 3 } });
    expect(up.status).toBe(200);
    expect(up.body.data).toMatchObject({ status: 'requested', current_plan: 'free', target_plan: 'annual', seats: 3, currency: 'USD' });
    const after = await t.call({ method: 'GET', url: '/api/v1/user/current_plan', token: owner.token });
    expect(after.body.data.pending_upgrade.request_id).toBe(up.body.data.request_id);
    const exec = await addMember('exec-upgrade@account.test', 'analyst');
    const denied = await t.call({ method: 'POST', url: '/api/v1/user/upgrade', token: exec.token, payload: { plan: 'monthly' } });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('forbidden');
  });

  it('updates the low credit alerts: the user for themself, the organisation only by owner or manager', async () => {
    const mine = await t.call({ method: 'POST', url: '/api/v1/user/low_credit_alert/update', token: owner.token, payload: { enabled: true, threshold: 50 } });
    expect(mine.body.data).toEqual({ enabled: true, threshold: 50 });
    const org = await t.call({ method: 'POST', url: '/api/v1/admin/low_credit_alert/update', token: owner.token, payload: { enabled: true, threshold: 500 } });
    expect(org.body.data).toEqual({ enabled: true, threshold: 500 });
    const manager = await addMember('manager-alert@account.test', 'admin');
    expect((await t.call({ method: 'POST', url: '/api/v1/admin/low_credit_alert/update', token: manager.token, payload: { enabled: false, threshold: 10 } })).status).toBe(200);
    const exec = await addMember('exec-alert@account.test', 'analyst');
    const denied = await t.call({ method: 'POST', url: '/api/v1/admin/low_credit_alert/update', token: exec.token, payload: { enabled: true, threshold: 1 } });
    expect(denied.status).toBe(403);
    const profile = await t.call({ method: 'GET', url: '/api/v1/user/profile', token: owner.token });
    expect(profile.body.data.low_credit_alert).toEqual({ enabled: true, threshold: 50 });
    expect(profile.body.data.org_low_credit_alert).toEqual({ enabled: false, threshold: 10 });
  });

  it('pages activities and filters them by date range; another user never sees them', async () => {
    const u = await t.createOwner('activities@account.test');
    for (let i = 0; i < 3; i += 1) await t.call({ method: 'POST', url: '/api/v1/user/name/edit', token: u.token, payload: { name: ['Ann', 'Bea', 'Cat'][i] } });
    const all = await t.call({ method: 'POST', url: '/api/v1/user/activities', token: u.token, payload: { page: 1, limit: 25 } });
    const types = all.body.data.items.map((i: { type: string }) => i.type);
    expect(types).toEqual(expect.arrayContaining(['signup', 'login', 'profile_update', 'email_verified']));
    const page2 = await t.call({ method: 'POST', url: '/api/v1/user/activities', token: u.token, payload: { page: 2, limit: 25 } });
    expect(page2.body.data.items).toEqual([]);
    expect(page2.body.data.total).toBe(all.body.data.total);
    const future = await t.call({ method: 'POST', url: '/api/v1/user/activities', token: u.token, payload: { from: '2999-01-01' } });
    expect(future.body.data.total).toBe(0);
    const past = await t.call({ method: 'POST', url: '/api/v1/user/activities', token: u.token, payload: { to: '2000-01-01' } });
    expect(past.body.data.total).toBe(0);
    const multi = await t.call({ method: 'POST', url: '/api/v1/user/activities', token: u.token, payload: { type: ['login', 'signup'] } });
    expect(multi.body.data.total).toBe(2);
    const badRange = await t.call({ method: 'POST', url: '/api/v1/user/activities', token: u.token, payload: { from: '2025-02-01', to: '2025-01-01' } });
    expect(badRange.status).toBe(400);
    const otherUser = await t.call({ method: 'POST', url: '/api/v1/user/activities', token: owner.token, payload: { type: 'signup' } });
    expect(otherUser.body.data.total).toBe(1);
  });

  it('deletes an account: reason required, password checked, data anonymised, no more login', async () => {
    const u = await t.createOwner('leaver@account.test');
    const noReason = await t.call({ method: 'PATCH', url: '/api/v1/user/account', token: u.token, payload: { reason: 'others', password: TEST_PASSWORD } });
    expect(noReason.status).toBe(400);
    expect(noReason.body.error.reasons[0].field).toBe('reason_other');
    const badReason = await t.call({ method: 'PATCH', url: '/api/v1/user/account', token: u.token, payload: { reason: 'bored', password: TEST_PASSWORD } });
    expect(badReason.status).toBe(400);
    const wrongPw = await t.call({ method: 'PATCH', url: '/api/v1/user/account', token: u.token, payload: { reason: 'alternative_found', password: 'Wrong-Pass-1' } });
    expect(wrongPw.status).toBe(400);
    const del = await t.call({ method: 'PATCH', url: '/api/v1/user/account', token: u.token, payload: { reason: 'others', reason_other: 'moving on', password: TEST_PASSWORD } });
    expect(del.status).toBe(200);
    expect((await t.call({ method: 'GET', url: '/api/v1/user/profile', token: u.token })).status).toBe(401);
    expect((await t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email: 'leaver@account.test', password: TEST_PASSWORD } })).status).toBe(401);
    const row = (await t.db.db.select().from(users).where(eq(users.id, u.userId)))[0]!;
    expect(row).toMatchObject({ name: 'Deleted user', passwordHash: null, phoneNumber: null, deletionReason: 'others', deletionReasonOther: 'moving on' });
    expect(row.email).not.toContain('leaver');
    const m = (await t.db.db.select().from(memberships).where(eq(memberships.userId, u.userId)))[0]!;
    expect(m.status).toBe('removed');
    // the address can sign up again
    const again = await t.call({ method: 'POST', url: '/api/v1/user/signup', payload: { name: 'Back Again', email: 'leaver@account.test', password: TEST_PASSWORD, signup_source: 'friends' } });
    expect(again.status).toBe(200);
  });

  it('refuses to delete an owner who still has active members', async () => {
    const boss = await t.createOwner('boss@account.test');
    await inviteMember(t.deps, { ...boss, role: 'owner', sessionId: null, via: 'session' }, { email: 'staff@account.test', name: 'Staff', role: 'analyst' });
    const res = await t.call({ method: 'PATCH', url: '/api/v1/user/account', token: boss.token, payload: { reason: 'alternative_found', password: TEST_PASSWORD } });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('owner_has_active_members');
  });
});
