import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { ZFailure, ZLoginResponse, ZSignupResponse } from '@verilead/contracts';
import { createTestApp, TEST_PASSWORD, type TTestApp } from '../../test/test-app';
import { users, memberships } from '../../platform/tenancy/tables';
import { outbox } from '../../platform/mailer/tables';
import { inviteMember } from './service';

const NEW_PASSWORD = 'Another-Pass-2';

describe('auth API', () => {
  let t: TTestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('an unverified account asks for a new verification link (at most once a minute); a verified one is told so', async () => {
    await t.call({ method: 'POST', url: '/api/v1/user/signup', payload: { name: 'Rita Remind', email: 'rita@example.test', password: TEST_PASSWORD, signup_source: 'friends' } });
    const first = await t.mailedToken('rita@example.test', '/emailverification');
    const login = await t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email: 'rita@example.test', password: TEST_PASSWORD } });
    const token = login.body.data.token as string;
    const soon = await t.call({ method: 'POST', url: '/api/v1/user/resend_verification', token });
    expect(soon.status).toBe(429);
    expect(soon.body.error.message).toMatch(/^A link was sent less than a minute ago; please check your inbox or try again in \d+ seconds\.$/);
    await t.db.db.execute(sql`update one_time_tokens set created_at = now() - interval '2 minutes'`);
    const again = await t.call({ method: 'POST', url: '/api/v1/user/resend_verification', token });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.data.message).toBe('We sent a new verification link to rita@example.test.');
    const second = await t.mailedToken('rita@example.test', '/emailverification');
    expect(second).not.toBe(first);
    expect((await t.call({ method: 'POST', url: '/api/v1/user/activate', payload: { token: second } })).status).toBe(200);
    const done = await t.call({ method: 'POST', url: '/api/v1/user/resend_verification', token });
    expect(done.status).toBe(409);
    expect(done.body.error.message).toBe('Your email address is already verified.');
  });

  it('signs up, verifies the e-mail from the outbox, logs in, logs out and then answers 401', async () => {
    const signup = await t.call({
      method: 'POST',
      url: '/api/v1/user/signup',
      payload: { name: 'Ada Lovelace', email: 'Ada@Example.test', password: TEST_PASSWORD, signup_source: 'others', signup_source_other: 'a podcast' },
    });
    expect(signup.status).toBe(200);
    expect(ZSignupResponse.parse(signup.body).data.email).toBe('ada@example.test');
    // The spec lets a person log in before verifying (the session carries isEmailVerified): the copy says so.
    expect(signup.body.data).toEqual({
      message:
        'We sent a message to ada@example.test. If this is a new account, you can log in now and verify your address with the link in it; ' +
        'if the address already has an account, the message tells you how to log in or reset your password.',
      email: 'ada@example.test',
      sign_in_key: expect.stringMatching(/^vlk_[\w-]{32}$/),
    });

    const token = await t.mailedToken('ada@example.test', '/emailverification');
    const check = await t.call({ method: 'POST', url: '/api/v1/user/verify_token', payload: { token } });
    expect(check.body.data).toMatchObject({ valid: true, kind: 'email_verification', email: 'ada@example.test', reason: 'ok' });

    const before = await t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email: 'ada@example.test', password: TEST_PASSWORD } });
    expect(before.status).toBe(200);
    expect(before.body.data.user.isEmailVerified).toBe(false);

    const act = await t.call({ method: 'POST', url: '/api/v1/user/activate', payload: { token } });
    expect(act.status).toBe(200);
    expect(act.body.data).toMatchObject({ email: 'ada@example.test', isEmailVerified: true });
    const again = await t.call({ method: 'POST', url: '/api/v1/user/activate', payload: { token } });
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe('invalid_token');
    const used = await t.call({ method: 'POST', url: '/api/v1/user/verify_token', payload: { token } });
    expect(used.body.data).toMatchObject({ valid: false, reason: 'used' });

    const login = await t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email: 'ADA@example.test', password: TEST_PASSWORD } });
    expect(login.status).toBe(200);
    const data = ZLoginResponse.parse(login.body).data;
    expect(data.user).toMatchObject({ name: 'Ada Lovelace', user_role: 'owner', isEmailVerified: true, credits: 100, has_password: true });

    const profile = await t.call({ method: 'GET', url: '/api/v1/user/profile', token: data.token });
    expect(profile.status).toBe(200);
    const logout = await t.call({ method: 'GET', url: '/api/v1/user/logout', token: data.token });
    expect(logout.status).toBe(200);
    const stale = await t.call({ method: 'GET', url: '/api/v1/user/profile', token: data.token });
    expect(stale.status).toBe(401);
    expect(stale.body.error).toMatchObject({ code: 'session_expired', message: 'Session expired. Please login again to continue.' });
    // the other session (before activation) still works
    expect((await t.call({ method: 'GET', url: '/api/v1/user/profile', token: before.body.data.token })).status).toBe(200);
  });

  it('the verification link signs in the browser that signed up: with its key only, once, within the hour, into the account it verifies', async () => {
    const signUp = async (email: string) => {
      const res = await t.call({ method: 'POST', url: '/api/v1/user/signup', payload: { name: 'Kim Key', email, password: TEST_PASSWORD, signup_source: 'friends' } });
      return { key: res.body.data.sign_in_key as string, token: await t.mailedToken(email, '/emailverification') };
    };
    const kim = await signUp('kim@keys.test');
    const lee = await signUp('lee@keys.test');

    // Lee's link with Kim's key: Lee's address is verified, and nobody is signed in.
    const crossed = await t.call({ method: 'POST', url: '/api/v1/user/activate', payload: { token: lee.token, sign_in_key: kim.key } });
    expect(crossed.status).toBe(200);
    expect(crossed.body.data).toMatchObject({ email: 'lee@keys.test', isEmailVerified: true, login: null });

    // Kim's link with Kim's key: verified and signed in, as Kim.
    const opened = await t.call({ method: 'POST', url: '/api/v1/user/activate', payload: { token: kim.token, sign_in_key: kim.key } });
    expect(opened.status).toBe(200);
    expect(opened.body.data.login.user).toMatchObject({ email: 'kim@keys.test', isEmailVerified: true, user_role: 'owner' });
    const profile = await t.call({ method: 'GET', url: '/api/v1/user/profile', token: opened.body.data.login.token as string });
    expect(profile.body.data.email).toBe('kim@keys.test');
    // Once: the link is spent, with or without the key.
    const again = await t.call({ method: 'POST', url: '/api/v1/user/activate', payload: { token: kim.token, sign_in_key: kim.key } });
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe('invalid_token');

    // Past the hour the link only verifies.
    const max = await signUp('max@keys.test');
    const aSecondAgo = new Date(Date.now() - 1000).toISOString();
    await t.db.db.execute(sql`update one_time_tokens set data = jsonb_set(data, '{sign_in_until}', to_jsonb(${aSecondAgo}::text)) where kind = 'email_verification' and used_at is null`);
    const late = await t.call({ method: 'POST', url: '/api/v1/user/activate', payload: { token: max.token, sign_in_key: max.key } });
    expect(late.status).toBe(200);
    expect(late.body.data).toMatchObject({ email: 'max@keys.test', login: null });

    // Without the key (another browser) it only verifies, as before.
    const ned = await signUp('ned@keys.test');
    const plain = await t.call({ method: 'POST', url: '/api/v1/user/activate', payload: { token: ned.token } });
    expect(plain.body.data).toMatchObject({ email: 'ned@keys.test', isEmailVerified: true, login: null });
  });

  it('rejects bad sign-up input with 400 and reasons', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'A', email: 'not-an-email', password: TEST_PASSWORD, signup_source: 'friends' }, 'email'],
      [{ name: 'A', email: 'a@b.test', password: 'weak', signup_source: 'friends' }, 'password'],
      [{ name: 'A', email: 'a@b.test', password: TEST_PASSWORD, signup_source: 'tv' }, 'signup_source'],
      [{ name: 'A', email: 'a@b.test', password: TEST_PASSWORD, signup_source: 'others' }, 'signup_source_other'],
      [{ email: 'a@b.test', password: TEST_PASSWORD, signup_source: 'friends' }, 'name'],
      [{ name: '<script>', email: 'a@b.test', password: TEST_PASSWORD, signup_source: 'friends' }, 'name'],
    ];
    for (const [payload, field] of cases) {
      const res = await t.call({ method: 'POST', url: '/api/v1/user/signup', payload });
      expect(res.status, JSON.stringify(payload)).toBe(400);
      const failure = ZFailure.parse(res.body);
      expect(failure.error.code).toBe('validation_failed');
      expect(failure.error.reasons?.map((r) => r.field)).toContain(field);
      expect(failure.error.reasons?.[0]?.location).toBe('body');
    }
  });

  it('answers a sign-up for a registered address as for a new one, creates nothing and mails the owner (issue 27.12)', async () => {
    const owner = await t.createOwner('dup@example.test', 'Dup Owner');
    const countRows = async () => ({
      users: (await t.db.db.select({ id: users.id }).from(users)).length,
      memberships: (await t.db.db.select({ id: memberships.id }).from(memberships)).length,
    });
    const before = await countRows();
    const fresh = await t.call({ method: 'POST', url: '/api/v1/user/signup', payload: { name: 'New', email: 'brand.new@example.test', password: TEST_PASSWORD, signup_source: 'friends' } });
    const taken = await t.call({ method: 'POST', url: '/api/v1/user/signup', payload: { name: 'Dup', email: 'DUP@example.test', password: 'Attacker-Pass-9', signup_source: 'friends' } });
    expect(taken.status).toBe(200);
    expect(fresh.status).toBe(200);
    // The same answer, but for the address itself and the browser's random key: nothing tells the two apart.
    expect(taken.body.data.sign_in_key).toMatch(/^vlk_[\w-]{32}$/);
    expect(fresh.body.data.sign_in_key).toMatch(/^vlk_[\w-]{32}$/);
    const masked = (body: unknown, email: string) => JSON.stringify(body).replaceAll(email, 'X').replace(/vlk_[\w-]{32}/, 'KEY');
    expect(masked(taken.body, 'dup@example.test')).toBe(masked(fresh.body, 'brand.new@example.test'));
    expect(Object.keys(taken.headers).sort()).toEqual(Object.keys(fresh.headers).sort());
    // Only the new address made an account.
    expect(await countRows()).toEqual({ users: before.users + 1, memberships: before.memberships + 1 });
    // The owner is told, with a reset link that works; the caller's password opened nothing.
    await t.deps.queue.runUntilIdle();
    const mails = await t.db.db.select().from(outbox).where(eq(outbox.toAddress, 'dup@example.test'));
    const attempt = mails.find((m) => m.template === 'signup_existing_account');
    expect(attempt?.subject).toBe('Someone tried to sign up with your e-mail address');
    expect(attempt?.text).toContain('log in at http://app.verilead.test/login');
    const reset = await t.mailedToken('dup@example.test', '/resetpassword');
    expect((await t.call({ method: 'POST', url: '/api/v1/user/reset-password', payload: { token: reset, password: NEW_PASSWORD } })).status).toBe(200);
    expect((await t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email: 'dup@example.test', password: 'Attacker-Pass-9' } })).status).toBe(401);
    const login = await t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email: 'dup@example.test', password: NEW_PASSWORD } });
    expect(login.body.data.user).toMatchObject({ id: owner.userId, org_id: owner.orgId, name: 'Dup Owner' });
  });

  it("creates an owner from the operator's command only with the operator secret; its setup link works once", async () => {
    const payload = { email: 'Ops.Owner@Example.test', org: 'Ops Org' };
    for (const secret of [undefined, 'wrong-secret']) {
      const res = await t.call({ method: 'POST', url: '/api/v1/ops/create_owner', payload, headers: secret ? { 'x-ops-secret': secret } : {} });
      expect(res.status).toBe(403);
    }
    const res = await t.call({ method: 'POST', url: '/api/v1/ops/create_owner', payload, headers: { 'x-ops-secret': 'test-secret' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ email: 'ops.owner@example.test', url: expect.stringMatching(/^http:\/\/app\.verilead\.test\/setup_password\?token=/) });
    const again = await t.call({ method: 'POST', url: '/api/v1/ops/create_owner', payload, headers: { 'x-ops-secret': 'test-secret' } });
    expect(again.status).toBe(409);
    const bad = await t.call({ method: 'POST', url: '/api/v1/ops/create_owner', payload: { email: 'x@example.test', org: ' ' }, headers: { 'x-ops-secret': 'test-secret' } });
    expect(bad.status).toBe(400);
    const token = decodeURIComponent(new URL(res.body.data.url).searchParams.get('token')!);
    expect((await t.call({ method: 'POST', url: '/api/v1/user/password/setup', payload: { token, password: NEW_PASSWORD } })).status).toBe(200);
    expect((await t.call({ method: 'POST', url: '/api/v1/user/password/setup', payload: { token, password: 'Third-Pass-3' } })).status).toBe(400);
    const login = await t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email: 'ops.owner@example.test', password: NEW_PASSWORD } });
    expect(login.body.data.user).toMatchObject({ user_role: 'owner', credits: 0, organisation: { name: 'Ops Org' } });
  });

  it('answers unknown e-mail and wrong password the same way', async () => {
    await t.createOwner('known@example.test');
    const wrong = await t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email: 'known@example.test', password: 'Wrong-Pass-1' } });
    const unknown = await t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email: 'nobody@example.test', password: 'Wrong-Pass-1' } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.error.code).toBe('invalid_credentials');
  });

  it('does not let inactive members log in', async () => {
    const owner = await t.createOwner('inactive@example.test');
    await t.db.db.update(memberships).set({ status: 'inactive' }).where(eq(memberships.userId, owner.userId));
    const res = await t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email: 'inactive@example.test', password: TEST_PASSWORD } });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('account_inactive');
    // and the existing token stops working
    expect((await t.call({ method: 'GET', url: '/api/v1/user/profile', token: owner.token })).status).toBe(401);
  });

  it('resets a forgotten password with a single-use token and revokes sessions', async () => {
    const owner = await t.createOwner('forgot@example.test');
    const unknown = await t.call({ method: 'POST', url: '/api/v1/user/forgot-password', payload: { email: 'ghost@example.test' } });
    const known = await t.call({ method: 'POST', url: '/api/v1/user/forgot-password', payload: { email: 'forgot@example.test' } });
    expect(known.status).toBe(200);
    expect(unknown.body).toEqual(known.body);
    const token = await t.mailedToken('forgot@example.test', '/resetpassword');
    const check = await t.call({ method: 'POST', url: '/api/v1/user/verify_token', payload: { token, kind: 'password_reset' } });
    expect(check.body.data.valid).toBe(true);
    const wrongKind = await t.call({ method: 'POST', url: '/api/v1/user/verify_token', payload: { token, kind: 'setup_password' } });
    expect(wrongKind.body.data).toMatchObject({ valid: false, reason: 'wrong_kind' });

    const weak = await t.call({ method: 'POST', url: '/api/v1/user/reset-password', payload: { token, password: 'short' } });
    expect(weak.status).toBe(400);
    const reset = await t.call({ method: 'POST', url: '/api/v1/user/reset-password', payload: { token, password: NEW_PASSWORD } });
    expect(reset.status).toBe(200);
    const reuse = await t.call({ method: 'POST', url: '/api/v1/user/reset-password', payload: { token, password: NEW_PASSWORD } });
    expect(reuse.status).toBe(400);
    expect(reuse.body.error.code).toBe('invalid_token');
    expect((await t.call({ method: 'GET', url: '/api/v1/user/profile', token: owner.token })).status).toBe(401);
    expect((await t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email: 'forgot@example.test', password: TEST_PASSWORD } })).status).toBe(401);
    expect((await t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email: 'forgot@example.test', password: NEW_PASSWORD } })).status).toBe(200);
  });

  it('refuses an expired reset token', async () => {
    await t.createOwner('expired-token@example.test');
    await t.call({ method: 'POST', url: '/api/v1/user/forgot-password', payload: { email: 'expired-token@example.test' } });
    const token = await t.mailedToken('expired-token@example.test', '/resetpassword');
    const { oneTimeTokens } = await import('../../platform/auth/tables');
    const { hashToken } = await import('../../platform/auth/tokens');
    await t.db.db.update(oneTimeTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(oneTimeTokens.tokenHash, hashToken(token)));
    expect((await t.call({ method: 'POST', url: '/api/v1/user/verify_token', payload: { token } })).body.data.reason).toBe('expired');
    const res = await t.call({ method: 'POST', url: '/api/v1/user/reset-password', payload: { token, password: NEW_PASSWORD } });
    expect(res.status).toBe(400);
  });

  it('forces a change of an expired password through a change token', async () => {
    const owner = await t.createOwner('old-password@example.test');
    await t.db.db.update(users).set({ passwordUpdatedAt: new Date(Date.now() - 200 * 24 * 3600_000) }).where(eq(users.id, owner.userId));
    const res = await t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email: 'old-password@example.test', password: TEST_PASSWORD } });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('password_expired');
    const changeToken = res.body.error.additional_info.change_token as string;
    expect(changeToken).toMatch(/^vlt_/);
    const change = await t.call({ method: 'POST', url: '/api/v1/user/reset-password', payload: { token: changeToken, password: NEW_PASSWORD } });
    expect(change.status).toBe(200);
    expect((await t.call({ method: 'POST', url: '/api/v1/user/reset-password', payload: { token: changeToken, password: NEW_PASSWORD } })).status).toBe(400);
    expect((await t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email: 'old-password@example.test', password: NEW_PASSWORD } })).status).toBe(200);
  });

  it('lets an invited member set up the first password', async () => {
    const owner = await t.createOwner('inviter@example.test');
    const { userId } = await inviteMember(t.deps, { ...owner, role: 'owner', sessionId: null, via: 'session' }, { email: 'invitee@example.test', name: 'Invitee', role: 'analyst' });
    // no password yet: cannot log in
    expect((await t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email: 'invitee@example.test', password: TEST_PASSWORD } })).status).toBe(401);
    const token = await t.mailedToken('invitee@example.test', '/setup_password');
    const bad = await t.call({ method: 'POST', url: '/api/v1/user/password/setup', payload: { token: 'vlt_not-a-real-token', password: NEW_PASSWORD } });
    expect(bad.status).toBe(400);
    const ok = await t.call({ method: 'POST', url: '/api/v1/user/password/setup', payload: { token, password: NEW_PASSWORD, name: 'Invited Person' } });
    expect(ok.status).toBe(200);
    const login = await t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email: 'invitee@example.test', password: NEW_PASSWORD } });
    expect(login.status).toBe(200);
    expect(login.body.data.user).toMatchObject({ id: userId, name: 'Invited Person', user_role: 'analyst', org_id: owner.orgId, isEmailVerified: true });
  });

  it('rate-limits login', async () => {
    const limited = await createTestApp({ rateLimit: { authMax: 3, publicMax: 3, webhookMax: 3, windowMs: 60_000 } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i += 1) {
        const r = await limited.call({ method: 'POST', url: '/api/v1/user/login', payload: { email: 'x@example.test', password: 'Whatever-1' } });
        statuses.push(r.status);
        if (r.status === 429) {
          expect(r.body.error.code).toBe('rate_limited');
          expect(r.headers['retry-after']).toBeDefined();
        }
      }
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
    } finally {
      await limited.close();
    }
  });
});
