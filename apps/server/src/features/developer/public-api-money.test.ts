import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PUBLIC_API_ERROR_CODES } from '@verilead/contracts';
import { sql } from 'drizzle-orm';
import { chargeCredits, getOrgBalance, grantCredits } from '../../platform/credits/ledger';
import { selectRows } from '../../platform/db/database';
import { waitForLockWaiter } from '../../test/test-db';
import { buildMultipart, createWorldApp, type TWorldApp } from '../email-verifier/test-support';

/** Money on the public API: a charge, the app's usage and its credit limit move together, whatever the timing. */
describe('/v2 instant verification: exact billing', () => {
  let w: TWorldApp;
  let owner: { token: string; userId: string; orgId: string };

  beforeAll(async () => {
    // Generous reply timeouts: on a busy test machine a valid address must stay valid (billable), never time out into unknown.
    w = await createWorldApp(undefined, { verifierReplyTimeoutMs: 15_000, verifierConnectTimeoutMs: 15_000 });
    owner = await w.t.createOwner('money@v2.test');
    await w.t.db.transaction((tx) => grantCredits(tx, { orgId: owner.orgId, amount: 10_000, reason: 'Test top-up' }));
  });
  afterAll(async () => {
    await w?.close();
  });

  async function createApp(name: string, creditLimit: { type: 'daily' | 'life_time'; value: number } | null) {
    const res = await w.t.call({
      method: 'POST',
      url: '/api/v1/apps/create',
      token: owner.token,
      payload: { name, type: 'server', credit_limit: creditLimit, rate_limit: { window: 'minute', max: 100_000, scope: 'global' } },
    });
    expect(res.status).toBe(200);
    return res.body.data as { id: string; token: string };
  }

  async function appUsage(appId: string): Promise<number> {
    const res = await w.t.call({ method: 'GET', url: `/api/v1/apps/${appId}`, token: owner.token });
    return res.body.data.credits_used.life_time as number;
  }

  /** Sends a /v2 bulk upload and, while it waits for the upload's analysis, is the worker (analysis, then auto-pilot's start). */
  async function uploadBulk(token: string, fileName: string, content: string) {
    const body = buildMultipart(fileName, content);
    const answer = w.t.call({ method: 'POST', url: '/v2/email_verify/bulk', headers: { ...body.headers, authorization: `Bearer ${token}` }, payload: body.payload });
    let answered = false;
    void answer.finally(() => (answered = true));
    while (!answered) {
      await w.t.deps.queue.runUntilIdle();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return answer;
  }

  const verify = (token: string, payload: Record<string, unknown>) =>
    w.t.call({ method: 'POST', url: '/v2/email_verify/instant', headers: { authorization: `Bearer ${token}` }, payload });

  it('300 concurrent calls on an app with a credit limit of 100 charge exactly 100', async () => {
    for (const type of ['life_time', 'daily'] as const) {
      const app = await createApp(`Capped ${type}`, { type, value: 100 });
      const before = await getOrgBalance(w.t.db.db, owner.orgId);
      const answers = await Promise.all(Array.from({ length: 300 }, () => verify(app.token, { email: 'alice@strict.test' })));
      const charged = answers.filter((a) => a.status === 200 && a.body.status === 'success');
      const refused = answers.filter((a) => a.body.status === 'failed');
      expect(answers.every((a) => a.status < 500), type).toBe(true);
      expect(charged.length, type).toBe(100);
      expect(refused.length, type).toBe(200);
      expect(refused.every((a) => a.body.error.code === PUBLIC_API_ERROR_CODES.dailyLimit), type).toBe(true);
      expect(before - (await getOrgBalance(w.t.db.db, owner.orgId)), type).toBe(100);
      expect(await appUsage(app.id), type).toBe(100);
    }
  });

  it('a call that times out answers 524 and leaves balance, app usage and results untouched', async () => {
    const app = await createApp('Impatient', { type: 'life_time', value: 5 });
    const before = await getOrgBalance(w.t.db.db, owner.orgId);
    // slowpoke.test waits 700 ms before every reply: no verification there ends within 300 ms.
    const res = await verify(app.token, { email: 'someone@slowpoke.test', timeout: 300 });
    expect(res.status).toBe(524);
    expect(res.body.error.message).toBe('Timeout Occurred');
    // Long enough for the cancelled verification to have ended had it gone on (it would have charged by then).
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    expect(await getOrgBalance(w.t.db.db, owner.orgId)).toBe(before);
    expect(await appUsage(app.id)).toBe(0);
    const recent = await w.t.call({ method: 'GET', url: '/api/v1/email_verify/instant/recent?source=api', token: owner.token });
    expect(recent.body.data.items.map((i: { email: string }) => i.email)).not.toContain('someone@slowpoke.test');
    // The app's limit still has all its room: five more calls are charged, the sixth is refused.
    const next = [];
    for (let i = 0; i < 6; i += 1) next.push(await verify(app.token, { email: 'alice@strict.test' }));
    expect(next.filter((a) => a.body.status === 'success')).toHaveLength(5);
    expect(next[5]!.body.error.code).toBe(PUBLIC_API_ERROR_CODES.dailyLimit);
  });

  it('300 concurrent calls on 30 credits: exactly 30 charged, 270 refused with 402, the refusals no later than the charged calls', async () => {
    const poor = await w.t.createOwner('poor@v2.test');
    const bonus = await getOrgBalance(w.t.db.db, poor.orgId);
    await w.t.db.transaction((tx) =>
      bonus > 30 ? chargeCredits(tx, { orgId: poor.orgId, amount: bonus - 30, reason: 'Test spend' }) : grantCredits(tx, { orgId: poor.orgId, amount: 30 - bonus, reason: 'Test top-up' }),
    );
    const created = await w.t.call({ method: 'POST', url: '/api/v1/apps/create', token: poor.token, payload: { name: 'Burst', type: 'server', rate_limit: { window: 'minute', max: 100_000, scope: 'global' } } });
    const token = created.body.data.token as string;
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 300 }, async () => {
        const res = await verify(token, { email: 'alice@strict.test' });
        return { ...res, ms: Date.now() - started };
      }),
    );
    const charged = answers.filter((a) => a.status === 200 && a.body.status === 'success');
    const refused = answers.filter((a) => a.status === 402);
    expect(charged.length).toBe(30);
    expect(refused.length).toBe(270);
    expect(refused.every((a) => a.body.error.code === PUBLIC_API_ERROR_CODES.noCredits)).toBe(true);
    expect(await getOrgBalance(w.t.db.db, poor.orgId)).toBe(0);
    // Refused at once with the group that could not all be paid, not one after another behind it.
    const lastCharged = Math.max(...charged.map((a) => a.ms));
    const lastRefused = Math.max(...refused.map((a) => a.ms));
    expect(lastRefused).toBeLessThanOrEqual(lastCharged + 2_000);
  });

  // Another process's statement holding the payer's rows is a PostgreSQL situation (PGlite is one session: a held
  // transaction there stops every query, the call's sign-in included).
  it.runIf(process.env.DATABASE_URL)("a call whose charge waits for its payer's statement in flight answers 524 at its timeout, with nothing charged", async () => {
    const app = await createApp('Deadline', null);
    expect((await verify(app.token, { email: 'alice@strict.test' })).body.status).toBe('success');
    const before = await getOrgBalance(w.t.db.db, owner.orgId);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = w.t.db.transaction(async (tx) => {
      await selectRows(tx, sql`select id from organisations where id = ${owner.orgId} for update`);
      locked();
      await gate;
    });
    await isLocked;
    const first = verify(app.token, { email: 'alice@strict.test' });
    // The first call's charge is waiting for the row (an event the database reports), so the next one queues behind it.
    await waitForLockWaiter(w.t.db.db, 20_000);
    const second = verify(app.token, { email: 'bob@strict.test', timeout: 3_000 });
    const answered = await Promise.race([second, new Promise<'still waiting'>((resolve) => setTimeout(() => resolve('still waiting'), 20_000))]);
    release();
    await holder;
    expect(answered === 'still waiting' ? answered : answered.status).toBe(524);
    expect((await first).body.status).toBe('success');
    expect(before - (await getOrgBalance(w.t.db.db, owner.orgId))).toBe(1);
    expect(await appUsage(app.id)).toBe(2);
    const recent = await w.t.call({ method: 'GET', url: '/api/v1/email_verify/instant/recent?source=api', token: owner.token });
    expect(recent.body.data.items.map((i: { email: string }) => i.email)).not.toContain('bob@strict.test');
  });

  it("a member over their own daily limit gets the daily-limit code, not 'no credits'", async () => {
    const add = await w.t.call({ method: 'POST', url: '/api/v1/admin/member/add', token: owner.token, payload: { email: 'capped@v2.test', role: 'admin' } });
    const memberId = add.body.data.member.member_id as string;
    const setup = await w.t.mailedToken('capped@v2.test', '/setup_password');
    await w.t.call({ method: 'POST', url: '/api/v1/user/password/setup', payload: { token: setup, password: 'Capped-Pass-42' } });
    const token = (await w.t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email: 'capped@v2.test', password: 'Capped-Pass-42' } })).body.data.token as string;
    await w.t.call({ method: 'POST', url: '/api/v1/admin/member/edit', token: owner.token, payload: { member_id: memberId, daily_remaining: 0 } });
    const app = await w.t.call({ method: 'POST', url: '/api/v1/apps/create', token, payload: { name: 'Member app', type: 'server' } });
    const res = await verify(app.body.data.token as string, { email: 'alice@strict.test' });
    expect(res.body.status).toBe('failed');
    expect(res.body.error.code).toBe(PUBLIC_API_ERROR_CODES.dailyLimit);
  });

  it('bulk with auto-pilot on answers success once, and the list is verified and charged once', async () => {
    const pilot = await w.t.createOwner('pilot@v2.test');
    await w.t.db.transaction((tx) => grantCredits(tx, { orgId: pilot.orgId, amount: 100, reason: 'Test top-up' }));
    await w.t.call({ method: 'PUT', url: '/api/v1/user_preferences/email_verification_settings/autopilot', token: pilot.token, payload: { auto_pilot_status: true } });
    const app = await w.t.call({ method: 'POST', url: '/api/v1/apps/create', token: pilot.token, payload: { name: 'Bulk', type: 'server' } });
    const before = await getOrgBalance(w.t.db.db, pilot.orgId);
    const res = await uploadBulk(app.body.data.token as string, 'three.txt', 'alice@strict.test\nno.such.user@strict.test\nnobody.here@strict.test\n');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.status).toBe('success');
    const listId = res.body.data.list_id as string;
    await vi.waitFor(
      async () => {
        await w.t.deps.queue.runUntilIdle();
        const p = await w.t.call({ method: 'GET', url: `/api/v1/email_verify/bulk/progress_status?list_id=${listId}`, token: pilot.token });
        expect(p.body.data.state).toBe('verified');
      },
      { timeout: 20_000, interval: 50 },
    );
    const lists = await w.t.call({ method: 'POST', url: '/api/v1/email_verify/list', token: pilot.token, payload: {} });
    expect(lists.body.data.items).toHaveLength(1);
    expect(before - (await getOrgBalance(w.t.db.db, pilot.orgId))).toBe(3);
  });

  it("an app's usage counts its bulk lists' charges as well as its instant calls (issue 28 point 10)", async () => {
    const user = await w.t.createOwner('app-usage@v2.test');
    await w.t.db.transaction((tx) => grantCredits(tx, { orgId: user.orgId, amount: 100, reason: 'Test top-up' }));
    await w.t.call({ method: 'PUT', url: '/api/v1/user_preferences/email_verification_settings/autopilot', token: user.token, payload: { auto_pilot_status: true } });
    const created = await w.t.call({ method: 'POST', url: '/api/v1/apps/create', token: user.token, payload: { name: 'Usage', type: 'server' } });
    const app = created.body.data as { id: string; token: string };
    const before = await getOrgBalance(w.t.db.db, user.orgId);
    expect((await verify(app.token, { email: 'alice@strict.test' })).body.status).toBe('success');
    const res = await uploadBulk(app.token, 'usage.txt', 'alice@strict.test\nno.such.user@strict.test\nnobody.here@strict.test\n');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const listId = res.body.data.list_id as string;
    for (let i = 0; i < 200; i += 1) {
      await w.t.deps.queue.runUntilIdle();
      const p = await w.t.call({ method: 'GET', url: `/api/v1/email_verify/bulk/progress_status?list_id=${listId}`, token: user.token });
      if (p.body.data.state === 'verified') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const charged = before - (await getOrgBalance(w.t.db.db, user.orgId));
    expect(charged).toBe(4);
    const detail = await w.t.call({ method: 'GET', url: `/api/v1/apps/${app.id}`, token: user.token });
    expect(detail.body.data.credits_used).toEqual({ today: 4, life_time: 4 });
  });

  it('a bulk upload retried three times with the same file makes one list and charges it once', async () => {
    const retrier = await w.t.createOwner('retry@v2.test');
    await w.t.db.transaction((tx) => grantCredits(tx, { orgId: retrier.orgId, amount: 100, reason: 'Test top-up' }));
    const app = await w.t.call({ method: 'POST', url: '/api/v1/apps/create', token: retrier.token, payload: { name: 'Retrier', type: 'server' } });
    const token = app.body.data.token as string;
    const before = await getOrgBalance(w.t.db.db, retrier.orgId);
    const content = 'alice@strict.test\nno.such.user@strict.test\nnobody.here@strict.test\n';
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const res = await uploadBulk(token, 'retry.txt', content);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      ids.push(res.body.data.list_id as string);
    }
    expect(new Set(ids).size).toBe(1);
    await w.t.deps.queue.runUntilIdle();
    const lists = await w.t.call({ method: 'POST', url: '/api/v1/email_verify/list', token: retrier.token, payload: {} });
    expect(lists.body.data.items).toHaveLength(1);
    expect(before - (await getOrgBalance(w.t.db.db, retrier.orgId))).toBe(3);
    // Another file (other bytes) is another list.
    expect((await uploadBulk(token, 'retry.txt', 'alice@strict.test\n')).body.data.list_id).not.toBe(ids[0]);
  });
});
