import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createTestDb, waitForLockWaiter, type TTestDb } from '../../test/test-db';
import { isAppError } from '../errors/app-error';
import { httpStatusOf } from '../errors/http-status';
import { memberships, organisations, users } from '../tenancy/tables';
import { chargeCredits, chargeCreditsNow, getMemberLimits, getOrgBalance, grantCredits, refundCredits, setMemberLimits } from './ledger';
import { creditTransactions } from './tables';

async function createOrgWithMember(t: TTestDb, name: string) {
  const [org] = await t.db.insert(organisations).values({ name }).returning();
  const [user] = await t.db.insert(users).values({ email: `${name.toLowerCase()}@ledger.test`, name }).returning();
  await t.db.insert(memberships).values({ orgId: org!.id, userId: user!.id, role: 'owner' });
  return { orgId: org!.id, userId: user!.id };
}

describe('credits ledger', () => {
  let t: TTestDb;
  beforeAll(async () => {
    t = await createTestDb();
  });
  afterAll(async () => {
    await t.dispose();
  });

  it('200 concurrent charges of 1 against a balance of 100 charge exactly 100 and leave 0', async () => {
    const { orgId, userId } = await createOrgWithMember(t, 'Concurrent');
    await t.transaction((tx) => grantCredits(tx, { orgId, amount: 100, reason: 'test grant' }));
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, (_, i) =>
        chargeCreditsNow(t, { orgId, userId, amount: 1, reason: 'verify', sourceAgent: 'instant_verify', objectType: 'email', objectId: `e${i}` }),
      ),
    );
    const ok = results.filter((r) => r.status === 'fulfilled');
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(ok).toHaveLength(100);
    expect(failed).toHaveLength(100);
    for (const f of failed) {
      expect(isAppError(f.reason) && f.reason.code).toBe('insufficient_credits');
      expect(isAppError(f.reason) && httpStatusOf(f.reason)).toBe(402);
    }
    expect(await getOrgBalance(t.db, orgId)).toBe(0);
    const charged = await t.db
      .select({ n: sql<number>`count(*)::int`, sum: sql<number>`coalesce(sum(amount), 0)::int`, minAfter: sql<number>`min(balance_after)::int` })
      .from(creditTransactions)
      .where(eq(creditTransactions.orgId, orgId));
    // 1 grant + 100 charges
    expect(charged[0]).toEqual({ n: 101, sum: 200, minAfter: 0 });
    const limits = await getMemberLimits(t.db, orgId, userId);
    expect(limits.life_time.used).toBe(100);
    expect(limits.daily.used).toBe(100);
  });

  it('answers 402 with required_credits and leaves nothing behind', async () => {
    const { orgId, userId } = await createOrgWithMember(t, 'Short');
    await t.transaction((tx) => grantCredits(tx, { orgId, amount: 5, reason: 'grant' }));
    const err = await chargeCreditsNow(t, { orgId, userId, amount: 8, reason: 'x' }).catch((e: unknown) => e);
    expect(isAppError(err) && err.extra.additional_info).toEqual({ required_credits: 3 });
    expect(await getOrgBalance(t.db, orgId)).toBe(5);
    expect((await getMemberLimits(t.db, orgId, userId)).life_time.used).toBe(0);
  });

  it('enforces daily and life-time member limits in the same transaction', async () => {
    const { orgId, userId } = await createOrgWithMember(t, 'Limited');
    await t.transaction((tx) => grantCredits(tx, { orgId, amount: 1000, reason: 'grant' }));
    await setMemberLimits(t.db, orgId, userId, { daily: 10, lifeTime: 15 });
    await chargeCreditsNow(t, { orgId, userId, amount: 10, reason: 'a' });
    const daily = await chargeCreditsNow(t, { orgId, userId, amount: 1, reason: 'b' }).catch((e: unknown) => e);
    expect(isAppError(daily) && daily.code).toBe('daily_limit_exceeded');
    await setMemberLimits(t.db, orgId, userId, { daily: null, lifeTime: 15 });
    const life = await chargeCreditsNow(t, { orgId, userId, amount: 6, reason: 'c' }).catch((e: unknown) => e);
    expect(isAppError(life) && life.code).toBe('life_time_limit_exceeded');
    await chargeCreditsNow(t, { orgId, userId, amount: 5, reason: 'd' });
    expect(await getOrgBalance(t.db, orgId)).toBe(985);
    const limits = await getMemberLimits(t.db, orgId, userId);
    expect(limits.life_time).toEqual({ limit: 15, used: 15, remaining: 0 });
  });

  it('refunds restore the balance and the usage counters', async () => {
    const { orgId, userId } = await createOrgWithMember(t, 'Refund');
    await t.transaction((tx) => grantCredits(tx, { orgId, amount: 20, reason: 'grant' }));
    await t.transaction(async (tx) => {
      await chargeCredits(tx, { orgId, userId, amount: 7, reason: 'job' });
      await refundCredits(tx, { orgId, userId, amount: 3, reason: 'unknown results' });
    });
    expect(await getOrgBalance(t.db, orgId)).toBe(16);
    expect((await getMemberLimits(t.db, orgId, userId)).daily.used).toBe(4);
  });

  it('the database refuses a negative balance even without the conditional update', async () => {
    const { orgId } = await createOrgWithMember(t, 'Check');
    await expect(t.db.update(organisations).set({ creditsBalance: -1 }).where(eq(organisations.id, orgId))).rejects.toThrow();
  });

  it('refuses every charge to a suspended organisation or member (account_suspended, nothing counted); an operator adjustment passes', async () => {
    const { orgId, userId } = await createOrgWithMember(t, 'Suspended');
    await t.transaction((tx) => grantCredits(tx, { orgId, amount: 50, reason: 'grant' }));
    await t.db.update(organisations).set({ suspendedAt: new Date() }).where(eq(organisations.id, orgId));
    const org = await chargeCreditsNow(t, { orgId, userId, amount: 1, reason: 'bulk' }).catch((e: unknown) => e);
    expect(isAppError(org) && [org.code, org.message]).toEqual(['account_suspended', expect.stringContaining('the organisation is suspended')]);
    const noMember = await chargeCreditsNow(t, { orgId, amount: 1, reason: 'bulk' }).catch((e: unknown) => e);
    expect(isAppError(noMember) && noMember.code).toBe('account_suspended');
    // the console's removal of credits is not held up by the suspension
    await chargeCreditsNow(t, { orgId, amount: 2, reason: 'Adjustment by Verilead support', whileSuspended: true });
    expect(await getOrgBalance(t.db, orgId)).toBe(48);

    await t.db.update(organisations).set({ suspendedAt: null }).where(eq(organisations.id, orgId));
    await t.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, userId));
    const user = await chargeCreditsNow(t, { orgId, userId, amount: 1, reason: 'bulk' }).catch((e: unknown) => e);
    expect(isAppError(user) && [user.code, user.message]).toEqual(['account_suspended', expect.stringContaining("the list owner's account is suspended")]);
    expect(await getOrgBalance(t.db, orgId)).toBe(48);
    expect((await getMemberLimits(t.db, orgId, userId)).life_time.used).toBe(0);
    await t.db.update(users).set({ suspendedAt: null }).where(eq(users.id, userId));
    await chargeCreditsNow(t, { orgId, userId, amount: 1, reason: 'bulk' });
    expect(await getOrgBalance(t.db, orgId)).toBe(47);
  });

  // Two sessions at once: PostgreSQL only (PGlite is one session, where transactions never interleave).
  it.skipIf(!process.env.DATABASE_URL)('a charge waiting on a suspension being committed is refused once it commits (organisation and member)', async () => {
    for (const who of ['organisation', 'user'] as const) {
      const { orgId, userId } = await createOrgWithMember(t, `Race${who}`);
      await t.transaction((tx) => grantCredits(tx, { orgId, amount: 10, reason: 'grant' }));
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      let locked!: () => void;
      const holding = new Promise<void>((r) => (locked = r));
      // the operator's suspension, its row locked and not yet committed
      const suspension = t.transaction(async (tx) => {
        if (who === 'organisation') await tx.update(organisations).set({ suspendedAt: new Date() }).where(eq(organisations.id, orgId));
        else await tx.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, userId));
        locked();
        await gate;
      });
      await holding;
      const charge = chargeCreditsNow(t, { orgId, userId, amount: 1, reason: 'bulk' }).catch((e: unknown) => e);
      // the charge waits for the suspension's row lock
      await waitForLockWaiter(t.db);
      release();
      await suspension;
      const err = await charge;
      expect(isAppError(err) && err.code).toBe('account_suspended');
      expect(await getOrgBalance(t.db, orgId)).toBe(10);
      expect((await getMemberLimits(t.db, orgId, userId)).life_time.used).toBe(0);
    }
  });
});
