import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createTestDb, waitForLockWaiter, type TTestDb } from '../../test/test-db';
import { getMemberLimits, getOrgBalance, grantCredits, setMemberLimits } from '../../platform/credits/ledger';
import { selectRows, type TDb } from '../../platform/db/database';
import { isAppError } from '../../platform/errors/app-error';
import { httpStatusOf } from '../../platform/errors/http-status';
import { memberships, organisations, users } from '../../platform/tenancy/tables';
import { AppCreditLimitRefused, storeInstantResult, type TInstantRowInput } from './instant-charge';
import { chargeInstantResult } from './instant-charge-batch';

async function createPayer(t: TTestDb, name: string, credits: number) {
  const [org] = await t.db.insert(organisations).values({ name }).returning();
  const [user] = await t.db.insert(users).values({ email: `${name.toLowerCase()}@charge-batch.test`, name }).returning();
  await t.db.insert(memberships).values({ orgId: org!.id, userId: user!.id, role: 'owner' });
  await t.transaction((tx) => grantCredits(tx, { orgId: org!.id, amount: credits, reason: 'test grant' }));
  return { orgId: org!.id, userId: user!.id };
}

async function createApp(t: TTestDb, orgId: string, userId: string, creditLimit: { type: 'daily' | 'life_time'; value: number } | null) {
  const rows = await selectRows<{ id: string }>(
    t.db,
    sql`insert into apps (org_id, user_id, name, type, token_hash, token_hint, rate_limit, credit_limit)
        values (${orgId}, ${userId}, 'Batch test', 'server', ${`hash-${Math.random()}`}, 'vl_…test', '{"window":"minute","max":1000,"scope":"global"}'::jsonb,
                ${creditLimit ? JSON.stringify(creditLimit) : null}::jsonb)
        returning id`,
  );
  return rows[0]!.id;
}

function row(payer: { orgId: string; userId: string }, i: number, extra: Partial<TInstantRowInput> = {}): TInstantRowInput {
  const email = `person${i}@strict.test`;
  return {
    orgId: payer.orgId,
    userId: payer.userId,
    email,
    status: 'valid',
    source: 'api',
    result: { email, status: 'valid' },
    billable: true,
    event: { type: 'email_verifier.instant.completed', payload: { email, status: 'valid' } },
    ...extra,
  };
}

/** The ledger's instant charges of an organisation: how many, their distinct balances after, and in how many transactions. */
async function ledgerOf(t: TTestDb, orgId: string) {
  const rows = await selectRows<{ n: number; balances: number; commits: number; results: number; events: number }>(
    t.db,
    sql`select count(*)::int as n, count(distinct balance_after)::int as balances, count(distinct created_at)::int as commits,
               (select count(*)::int from instant_verifications where org_id = ${orgId} and billable) as results,
               (select count(*)::int from events where org_id = ${orgId} and type = 'email_verifier.instant.completed') as events
        from credit_transactions where org_id = ${orgId} and kind = 'charge' and source_agent = 'instant_verify'`,
  );
  return rows[0]!;
}

describe('instant charges grouped per payer', () => {
  let t: TTestDb;
  beforeAll(async () => {
    t = await createTestDb();
  });
  afterAll(async () => {
    await t.dispose();
  });

  it('charges 200 overlapping calls of one payer once each, in fewer commits, with one balance per ledger entry', async () => {
    const payer = await createPayer(t, 'Overlap', 1_000);
    const stored = await Promise.all(Array.from({ length: 200 }, (_, i) => chargeInstantResult(t.db, row(payer, i))));
    expect(new Set(stored.map((s) => s.id)).size).toBe(200);
    expect(stored.every((s) => s.creditsCharged === 1)).toBe(true);
    expect(await getOrgBalance(t.db, payer.orgId)).toBe(800);
    const ledger = await ledgerOf(t, payer.orgId);
    expect(ledger).toMatchObject({ n: 200, balances: 200, results: 200, events: 200 });
    // Grouped: far fewer transactions than calls (each transaction has its own now()).
    expect(ledger.commits).toBeLessThan(200);
    const range = await selectRows<{ lo: number; hi: number }>(
      t.db,
      sql`select min(balance_after)::int as lo, max(balance_after)::int as hi from credit_transactions where org_id = ${payer.orgId} and kind = 'charge'`,
    );
    expect(range[0]).toEqual({ lo: 800, hi: 999 });
    expect((await getMemberLimits(t.db, payer.orgId, payer.userId)).life_time.used).toBe(200);
    // The analytics roll-ups (kept by the ledger's statement trigger) count every grouped charge once.
    const rollups = await selectRows<{ quarter: number; hourly: number }>(
      t.db,
      sql`select (select coalesce(sum(charges), 0)::int from usage_rollups where org_id = ${payer.orgId} and feature = 'email_verifier') as quarter,
                 (select coalesce(sum(charges), 0)::int from usage_rollups_hourly where org_id = ${payer.orgId} and feature = 'email_verifier' and phase = 30) as hourly`,
    );
    expect(rollups[0]).toEqual({ quarter: 200, hourly: 200 });
  });

  it('never passes the balance: 120 overlapping calls against 50 credits charge exactly 50 and refuse 70 with 402', async () => {
    const payer = await createPayer(t, 'Short', 50);
    const settled = await Promise.allSettled(Array.from({ length: 120 }, (_, i) => chargeInstantResult(t.db, row(payer, i))));
    const refused = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected');
    expect(settled.filter((s) => s.status === 'fulfilled')).toHaveLength(50);
    expect(refused).toHaveLength(70);
    expect(refused.every((r) => isAppError(r.reason) && httpStatusOf(r.reason) === 402 && r.reason.code === 'insufficient_credits')).toBe(true);
    expect(await getOrgBalance(t.db, payer.orgId)).toBe(0);
    expect(await ledgerOf(t, payer.orgId)).toMatchObject({ n: 50, balances: 50, results: 50, events: 50 });
  });

  it("never passes a member's daily limit: 100 overlapping calls with a limit of 30 charge 30 and refuse 70 with the limit's code", async () => {
    const payer = await createPayer(t, 'Daily', 1_000);
    await setMemberLimits(t.db, payer.orgId, payer.userId, { daily: 30, lifeTime: null });
    const settled = await Promise.allSettled(Array.from({ length: 100 }, (_, i) => chargeInstantResult(t.db, row(payer, i))));
    const refused = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected');
    expect(refused).toHaveLength(70);
    expect(refused.every((r) => isAppError(r.reason) && r.reason.code === 'daily_limit_exceeded')).toBe(true);
    expect(await getOrgBalance(t.db, payer.orgId)).toBe(970);
    expect((await getMemberLimits(t.db, payer.orgId, payer.userId)).daily.used).toBe(30);
  });

  it("never passes an app's credit limit, and counts the app's usage with each charge", async () => {
    const payer = await createPayer(t, 'Capped', 1_000);
    for (const type of ['daily', 'life_time'] as const) {
      const appId = await createApp(t, payer.orgId, payer.userId, { type, value: 40 });
      const app = { id: appId, day: new Date().toISOString().slice(0, 10) };
      const settled = await Promise.allSettled(Array.from({ length: 100 }, (_, i) => chargeInstantResult(t.db, row(payer, i, { app }))));
      const refused = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected');
      expect(refused, type).toHaveLength(60);
      expect(refused.every((r) => r.reason instanceof AppCreditLimitRefused && r.reason.limit === type), type).toBe(true);
      const usage = await selectRows<{ life: number; today: number }>(
        t.db,
        sql`select a.credits_used_life_time as life, coalesce((select credits from app_daily_usage d where d.app_id = a.id), 0) as today from apps a where a.id = ${appId}`,
      );
      expect(usage[0], type).toEqual({ life: 40, today: 40 });
    }
    expect(await getOrgBalance(t.db, payer.orgId)).toBe(920);
  });

  /** `db` with every statement sent through it counted (the charger of a handle is its own, so the count is exact). */
  function countingDb(db: TTestDb['db']): { db: TTestDb['db']; statements: () => number } {
    let n = 0;
    const session = (db as unknown as { session: { client: { query: (...args: unknown[]) => Promise<unknown> } } }).session;
    const client = session.client;
    const counting = new Proxy(client, {
      get(target, prop) {
        if (prop === 'query') {
          return (...args: unknown[]) => {
            n += 1;
            return target.query(...args);
          };
        }
        const value = Reflect.get(target, prop) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const wrapped = Object.create(db, { session: { value: Object.create(session, { client: { value: counting } }) } }) as TTestDb['db'];
    return { db: wrapped, statements: () => n };
  }

  it('a burst of 300 calls on 30 credits charges 30 and refuses 270 at once, in a few statements (no call decided one by one)', async () => {
    const payer = await createPayer(t, 'Burst', 30);
    const counted = countingDb(t.db);
    const settled = await Promise.allSettled(Array.from({ length: 300 }, (_, i) => chargeInstantResult(counted.db, row(payer, i))));
    const refused = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected');
    expect(settled.filter((s) => s.status === 'fulfilled')).toHaveLength(30);
    expect(refused).toHaveLength(270);
    expect(refused.every((r) => isAppError(r.reason) && httpStatusOf(r.reason) === 402 && r.reason.code === 'insufficient_credits')).toBe(true);
    expect(await getOrgBalance(t.db, payer.orgId)).toBe(0);
    expect(await ledgerOf(t, payer.orgId)).toMatchObject({ n: 30, balances: 30, results: 30, events: 30 });
    // One statement for the first call, then a group statement (and one read of the reason) per group of up to 250:
    // before, every refused call was sent again alone and its refusal read again (over 500 statements).
    expect(counted.statements()).toBeLessThanOrEqual(10);
  });

  it("a member's daily limit and an app's limit in the middle of a group: the group charges up to the limit and refuses the rest", async () => {
    const payer = await createPayer(t, 'Middle', 1_000);
    await setMemberLimits(t.db, payer.orgId, payer.userId, { daily: 25, lifeTime: null });
    const counted = countingDb(t.db);
    const settled = await Promise.allSettled(Array.from({ length: 100 }, (_, i) => chargeInstantResult(counted.db, row(payer, i))));
    const refused = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected');
    expect(refused).toHaveLength(75);
    expect(refused.every((r) => isAppError(r.reason) && r.reason.code === 'daily_limit_exceeded')).toBe(true);
    expect(counted.statements()).toBeLessThanOrEqual(10);
    await setMemberLimits(t.db, payer.orgId, payer.userId, { daily: null, lifeTime: null });
    const appId = await createApp(t, payer.orgId, payer.userId, { type: 'daily', value: 15 });
    const app = { id: appId, day: new Date().toISOString().slice(0, 10) };
    const viaApp = await Promise.allSettled(Array.from({ length: 100 }, (_, i) => chargeInstantResult(counted.db, row(payer, i, { app }))));
    expect(viaApp.filter((s) => s.status === 'fulfilled')).toHaveLength(15);
    expect(viaApp.every((s) => s.status === 'fulfilled' || (s.reason instanceof AppCreditLimitRefused && s.reason.limit === 'daily'))).toBe(true);
    expect(await getOrgBalance(t.db, payer.orgId)).toBe(1_000 - 25 - 15);
  });

  it("a charge waiting for its payer's statement in flight obeys its caller's signal: rejected at the deadline, nothing stored", async () => {
    const payer = await createPayer(t, 'Deadline', 10);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    // Another transaction holds the organisation's row: the first charge's statement waits for it.
    const holder = t.transaction(async (tx) => {
      await selectRows(tx, sql`select id from organisations where id = ${payer.orgId} for update`);
      locked();
      await gate;
    });
    await isLocked;
    const first = chargeInstantResult(t.db, row(payer, 1));
    const deadline = new AbortController();
    const timeout = { timeout: 'Timeout Occurred' };
    const second = chargeInstantResult(t.db, row(payer, 2), deadline.signal);
    setTimeout(() => deadline.abort(timeout), 200);
    await expect(second).rejects.toBe(timeout);
    release();
    await holder;
    await expect(first).resolves.toMatchObject({ creditsCharged: 1 });
    expect(await getOrgBalance(t.db, payer.orgId)).toBe(9);
    expect(await ledgerOf(t, payer.orgId)).toMatchObject({ n: 1, results: 1, events: 1 });
  });

  const suspend = (who: 'organisation' | 'user', payer: { orgId: string; userId: string }, at: Date | null, db: TDb = t.db) =>
    who === 'organisation'
      ? db.update(organisations).set({ suspendedAt: at }).where(eq(organisations.id, payer.orgId))
      : db.update(users).set({ suspendedAt: at }).where(eq(users.id, payer.userId));
  const suspendedMessage = { organisation: 'the organisation is suspended', user: "the list owner's account is suspended" };

  it("refuses the charge of a suspended organisation or member as the ledger does (account_suspended), alone, through an app and grouped: nothing charged", async () => {
    for (const who of ['organisation', 'user'] as const) {
      const payer = await createPayer(t, `Suspended${who}`, 10);
      const app = { id: await createApp(t, payer.orgId, payer.userId, { type: 'daily', value: 100 }), day: new Date().toISOString().slice(0, 10) };
      await suspend(who, payer, new Date());
      const alone = await storeInstantResult(t.db, row(payer, 1)).catch((e: unknown) => e);
      expect(isAppError(alone) && [alone.code, alone.message, httpStatusOf(alone)]).toEqual(['account_suspended', expect.stringContaining(suspendedMessage[who]), 403]);
      const viaApp = await storeInstantResult(t.db, row(payer, 2, { app })).catch((e: unknown) => e);
      expect(isAppError(viaApp) && viaApp.code).toBe('account_suspended');
      const grouped = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => chargeInstantResult(t.db, row(payer, 10 + i))));
      expect(grouped.map((g) => (g.status === 'rejected' && isAppError(g.reason) ? g.reason.code : g.status))).toEqual(Array(20).fill('account_suspended'));
      const groupedApp = await Promise.allSettled(Array.from({ length: 5 }, (_, i) => chargeInstantResult(t.db, row(payer, 40 + i, { app }))));
      expect(groupedApp.map((g) => (g.status === 'rejected' && isAppError(g.reason) ? g.reason.code : g.status))).toEqual(Array(5).fill('account_suspended'));
      expect(await getOrgBalance(t.db, payer.orgId)).toBe(10);
      expect((await getMemberLimits(t.db, payer.orgId, payer.userId)).life_time.used).toBe(0);
      expect(await ledgerOf(t, payer.orgId)).toMatchObject({ n: 0, results: 0, events: 0 });
      const used = await selectRows<{ n: number }>(t.db, sql`select credits_used_life_time::int as n from apps where id = ${app.id}`);
      expect(used[0]!.n).toBe(0);
      // restored: charged again
      await suspend(who, payer, null);
      await expect(storeInstantResult(t.db, row(payer, 50))).resolves.toMatchObject({ creditsCharged: 1 });
      expect(await getOrgBalance(t.db, payer.orgId)).toBe(9);
    }
  });

  // Two sessions at once: PostgreSQL only (PGlite is one session, where transactions never interleave).
  it.skipIf(!process.env.DATABASE_URL)('an instant charge waiting on a suspension being committed is refused once it commits (organisation and member)', async () => {
    for (const who of ['organisation', 'user'] as const) {
      const payer = await createPayer(t, `Race${who}`, 10);
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      let locked!: () => void;
      const holding = new Promise<void>((r) => (locked = r));
      // the operator's suspension, its row locked and not yet committed
      const suspension = t.transaction(async (tx) => {
        await suspend(who, payer, new Date(), tx);
        locked();
        await gate;
      });
      await holding;
      const charge = storeInstantResult(t.db, row(payer, 1)).catch((e: unknown) => e);
      await waitForLockWaiter(t.db);
      release();
      await suspension;
      const err = await charge;
      expect(isAppError(err) && [err.code, err.message]).toEqual(['account_suspended', expect.stringContaining(suspendedMessage[who])]);
      expect(await getOrgBalance(t.db, payer.orgId)).toBe(10);
      expect((await getMemberLimits(t.db, payer.orgId, payer.userId)).life_time.used).toBe(0);
      expect(await ledgerOf(t, payer.orgId)).toMatchObject({ n: 0, results: 0 });
    }
  });

  it('stores a free result without a charge', async () => {
    const payer = await createPayer(t, 'Free', 10);
    const stored = await Promise.all(Array.from({ length: 5 }, (_, i) => chargeInstantResult(t.db, row(payer, i, { billable: false, status: 'unknown' }))));
    expect(stored.every((s) => s.creditsCharged === 0 && !s.billable)).toBe(true);
    expect(await getOrgBalance(t.db, payer.orgId)).toBe(10);
  });
});
