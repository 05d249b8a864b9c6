import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZCreditTransactionsResponse, ZCreditsAndLimitsResponse } from '@verilead/contracts';
import { createTestApp, TEST_PASSWORD, type TTestApp } from '../../test/test-app';
import { chargeCredits, grantCredits, refundCredits, setMemberLimits } from '../../platform/credits/ledger';
import { inviteMember } from '../auth/service';

describe('credits API', () => {
  let t: TTestApp;
  let owner: { token: string; userId: string; orgId: string };
  let exec: { token: string; userId: string };
  let stranger: { token: string; userId: string; orgId: string };

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.createOwner('owner@credits.test');
    stranger = await t.createOwner('stranger@credits.test');
    await inviteMember(t.deps, { ...owner, role: 'owner', sessionId: null, via: 'session' }, { email: 'exec@credits.test', name: 'Exec', role: 'analyst' });
    const setup = await t.mailedToken('exec@credits.test', '/setup_password');
    await t.call({ method: 'POST', url: '/api/v1/user/password/setup', payload: { token: setup, password: TEST_PASSWORD } });
    const l = await t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email: 'exec@credits.test', password: TEST_PASSWORD } });
    exec = { token: l.body.data.token, userId: l.body.data.user.id };
    await t.db.transaction(async (tx) => {
      await grantCredits(tx, { orgId: owner.orgId, amount: 900, reason: 'Top-up' });
      for (let i = 0; i < 30; i += 1) {
        await chargeCredits(tx, { orgId: owner.orgId, userId: i % 2 ? exec.userId : owner.userId, amount: 2, reason: 'Instant verification', sourceAgent: 'instant_verify', objectType: 'email', objectId: `e${i}` });
      }
      await refundCredits(tx, { orgId: owner.orgId, userId: exec.userId, amount: 2, reason: 'Unknown result', sourceAgent: 'instant_verify' });
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers credits and limits', async () => {
    await setMemberLimits(t.db.db, owner.orgId, exec.userId, { daily: 100, lifeTime: null });
    const res = await t.call({ method: 'GET', url: '/api/v1/user/credits_and_limits', token: exec.token });
    expect(res.status).toBe(200);
    const d = ZCreditsAndLimitsResponse.parse(res.body).data;
    // 100 sign-up + 900 - 60 + 2
    expect(d.org_credits).toBe(942);
    expect(d.limits.daily).toEqual({ limit: 100, used: 28, remaining: 72 });
    expect(d.credits).toBe(72);
    expect(d.show_daily_limits).toBe(true);
    const own = await t.call({ method: 'GET', url: '/api/v1/user/credits_and_limits', token: owner.token });
    expect(own.body.data).toMatchObject({ credits: 942, show_daily_limits: false });
  });

  it('pages the ledger with filters and totals', async () => {
    const first = await t.call({ method: 'GET', url: '/api/v1/user/credits_and_limits/transactions?page=1&limit=25', token: owner.token });
    expect(first.status).toBe(200);
    const d = ZCreditTransactionsResponse.parse(first.body).data;
    expect(d.total).toBe(33); // sign-up grant, top-up, 30 charges, 1 refund
    expect(d.items).toHaveLength(25);
    const second = await t.call({ method: 'GET', url: '/api/v1/user/credits_and_limits/transactions?page=2&limit=25', token: owner.token });
    expect(second.body.data.items).toHaveLength(8);
    const ids = new Set([...d.items, ...second.body.data.items].map((i: { id: string }) => i.id));
    expect(ids.size).toBe(33);
    const charges = await t.call({ method: 'GET', url: '/api/v1/user/credits_and_limits/transactions?kind=charge&limit=50', token: owner.token });
    expect(charges.body.data.total).toBe(30);
    // A charge takes credits away: its amount is negative; grants, purchases and refunds are positive.
    expect(charges.body.data.items[0]).toMatchObject({ kind: 'charge', amount: -2, source_agent: 'instant_verify', object_type: 'email' });
    const refunds = await t.call({ method: 'GET', url: '/api/v1/user/credits_and_limits/transactions?kind=refund', token: owner.token });
    expect(refunds.body.data.items[0]).toMatchObject({ kind: 'refund', amount: 2 });
    const grants = await t.call({ method: 'GET', url: '/api/v1/user/credits_and_limits/transactions?kind=grant', token: owner.token });
    expect(grants.body.data.total).toBe(2);
    const today = new Date().toISOString().slice(0, 10);
    const inRange = await t.call({ method: 'GET', url: `/api/v1/user/credits_and_limits/transactions?from=${today}&to=${today}`, token: owner.token });
    expect(inRange.body.data.total).toBe(33);
    const old = await t.call({ method: 'GET', url: '/api/v1/user/credits_and_limits/transactions?from=2001-01-01&to=2001-12-31', token: owner.token });
    expect(old.body.data.total).toBe(0);
  });

  it('shows executives only their own rows and other organisations nothing', async () => {
    const mine = await t.call({ method: 'GET', url: '/api/v1/user/credits_and_limits/transactions?limit=100', token: exec.token });
    expect(mine.body.data.total).toBe(16); // 15 charges + 1 refund
    expect(mine.body.data.items.every((i: { user_id: string }) => i.user_id === exec.userId)).toBe(true);
    const other = await t.call({ method: 'GET', url: '/api/v1/user/credits_and_limits/transactions?limit=100', token: stranger.token });
    expect(other.body.data.total).toBe(1);
    expect(other.body.data.items[0]).toMatchObject({ kind: 'grant', amount: 100, reason: 'Sign-up bonus' });
  });

  it('rejects bad ledger queries with 400 query reasons', async () => {
    for (const q of ['limit=30', 'page=0', 'kind=gift', 'from=yesterday', 'from=2025-02-01&to=2025-01-01']) {
      const res = await t.call({ method: 'GET', url: `/api/v1/user/credits_and_limits/transactions?${q}`, token: owner.token });
      expect(res.status, q).toBe(400);
      expect(res.body.error.reasons[0].location, q).toBe('query');
    }
  });

  it('answers the credit status and the verifier credits', async () => {
    const status = await t.call({ method: 'GET', url: '/api/v1/user/check_credit_status', token: owner.token });
    expect(status.body.data).toMatchObject({ credits: 942, has_credits: true, low_credit: false });
    await t.call({ method: 'POST', url: '/api/v1/user/low_credit_alert/update', token: owner.token, payload: { enabled: true, threshold: 1000 } });
    const low = await t.call({ method: 'GET', url: '/api/v1/user/check_credit_status', token: owner.token });
    expect(low.body.data).toMatchObject({ low_credit: true, threshold: 1000 });
    const v = await t.call({ method: 'GET', url: '/api/v1/email_verify/getusercredits', token: exec.token });
    expect(v.body.data).toMatchObject({ credits: 942, available: 72, daily_remaining: 72, life_time_remaining: null });
    for (const url of ['/api/v1/user/check_credit_status', '/api/v1/email_verify/getusercredits', '/api/v1/user/credits_and_limits']) {
      expect((await t.call({ method: 'GET', url })).status).toBe(401);
    }
  });
});
