import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { ZPaymentIntentResponse } from '@verilead/contracts';
import { TEST_PASSWORD, type TTestApp } from './test/test-app';
import { createBillingTestApp, payOnCheckout } from './features/billing/test-support';
import type { TFakePayPal, TFakeStripe } from '@verilead/test-doubles/payments';
import { coupons, subscriptions } from './features/billing/tables';
import { createSession } from './platform/auth/sessions';
import { selectRows } from './platform/db/database';
import { memberships, organisations, users } from './platform/tenancy/tables';

/**
 * Every path that adds credits to an organisation, attacked with concurrent attempts; each case asserts the exact
 * ledger afterwards. The paths (every `grantCredits` / `purchaseCredits` caller; the ledger has no other writer of
 * grants, and `refundCredits` has no caller in the product today, so no refund or credit-back path exists):
 * - sign-up bonus (`auth/service.ts`; SSO's just-in-time sign-up grants it too, in the transaction that creates the
 *   user, whose e-mail is unique: not raced here, as it needs an identity provider);
 * - a credits coupon (`billing/coupons.ts`), with and without `max_redemptions`;
 * - a percent coupon, reserved by an open payment and redeemed when it is paid (`billing/payments.ts`);
 * - a purchase completing through Stripe (webhook `payment_intent.succeeded` / `checkout.session.completed`, and the
 *   browser's `payment/confirm`) and through PayPal (capture, and the webhook `PAYMENT.CAPTURE.COMPLETED`);
 * - a subscription's first period and its renewals (Stripe `invoice.paid`, PayPal `PAYMENT.SALE.COMPLETED`).
 * The demo seed's grant runs once at start (`seed.test.ts`). On PGlite every transaction is serialised; the suite runs
 * again under DATABASE_URL in CI, where these requests really overlap.
 */

type TOwner = { token: string; userId: string; orgId: string };
const WIDTH = 12;

describe('money races: every coupon and credit-granting path under concurrency', () => {
  let t: TTestApp;
  let fake: TFakeStripe;
  let paypal: TFakePayPal;

  /** Organisations made straight in the database (one owner each, with a session): many of them, quickly. */
  async function createOrgs(prefix: string, n: number): Promise<TOwner[]> {
    return Promise.all(
      Array.from({ length: n }, async (_, i) => {
        const [org] = await t.db.db.insert(organisations).values({ name: `${prefix} ${i}` }).returning();
        const [user] = await t.db.db.insert(users).values({ email: `${prefix}-${i}@races.test`, name: `${prefix} ${i}`, emailVerifiedAt: new Date() }).returning();
        await t.db.db.insert(memberships).values({ orgId: org!.id, userId: user!.id, role: 'owner' });
        const { token } = await createSession(t.db.db, user!.id);
        return { token, userId: user!.id, orgId: org!.id };
      }),
    );
  }

  /** The ledger of some organisations: rows and credits of one kind whose reason starts with `reason`. */
  async function ledger(orgIds: string[], kind: string, reason: string) {
    const rows = await selectRows<{ n: number; credits: number; orgs: number }>(
      t.db.db,
      sql`select count(*)::int as n, coalesce(sum(amount), 0)::int as credits, count(distinct org_id)::int as orgs
          from credit_transactions
          where org_id in (${sql.join(orgIds.map((id) => sql`${id}::uuid`), sql`, `)}) and kind = ${kind} and reason like ${`${reason}%`}`,
    );
    return rows[0]!;
  }

  /** Balances add up: each organisation's balance is the sum of its ledger. */
  async function expectBalancesMatchLedger(orgIds: string[]) {
    const rows = await selectRows<{ id: string; balance: number; sum: number }>(
      t.db.db,
      sql`select o.id, o.credits_balance as balance,
                 coalesce((select sum(case when kind = 'charge' then -amount else amount end) from credit_transactions c where c.org_id = o.id), 0)::int as sum
          from organisations o where o.id in (${sql.join(orgIds.map((id) => sql`${id}::uuid`), sql`, `)})`,
    );
    for (const r of rows) expect(r.balance, r.id).toBe(r.sum);
  }

  beforeAll(async () => {
    ({ t, fake, paypal } = await createBillingTestApp());
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
    await paypal.close();
  });

  it('a credits coupon with max_redemptions 5, applied by 20 organisations at once, is redeemed exactly 5 times', async () => {
    await t.db.db.insert(coupons).values({ code: 'RACE5', kind: 'credits', value: 100, maxRedemptions: 5 });
    const orgs = await createOrgs('credits-coupon', 20);
    const answers = await Promise.all(orgs.map((o) => t.call({ method: 'POST', url: '/api/v1/coupon/apply', token: o.token, payload: { code: 'RACE5' } })));
    expect(answers.filter((a) => a.status === 200).length).toBe(5);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused.length).toBe(15);
    expect(new Set(refused.map((a) => `${a.status} ${a.body.error.message}`))).toEqual(new Set(['400 This coupon has been fully used.']));
    expect(await ledger(orgs.map((o) => o.orgId), 'grant', 'Coupon RACE5')).toEqual({ n: 5, credits: 500, orgs: 5 });
    const redeemed = await selectRows<{ n: number }>(t.db.db, sql`select count(*)::int as n from coupon_redemptions r join coupons c on c.id = r.coupon_id where c.code = 'RACE5'`);
    expect(redeemed[0]!.n).toBe(5);
    await expectBalancesMatchLedger(orgs.map((o) => o.orgId));
  });

  it('a credits coupon without a maximum, applied 12 times at once by one organisation, grants once', async () => {
    await t.db.db.insert(coupons).values({ code: 'RACEONCE', kind: 'credits', value: 250 });
    const [o] = await createOrgs('coupon-once', 1);
    const answers = await Promise.all(Array.from({ length: WIDTH }, () => t.call({ method: 'POST', url: '/api/v1/coupon/apply', token: o!.token, payload: { code: 'RACEONCE' } })));
    expect(answers.filter((a) => a.status === 200).length).toBe(1);
    expect(answers.filter((a) => a.status === 409).length).toBe(WIDTH - 1);
    expect(await ledger([o!.orgId], 'grant', 'Coupon RACEONCE')).toEqual({ n: 1, credits: 250, orgs: 1 });
    await expectBalancesMatchLedger([o!.orgId]);
  });

  it('a percent coupon with max_redemptions 5: 20 organisations starting a purchase at once get 5 discounted payments, and paying them redeems it 5 times', async () => {
    await t.db.db.insert(coupons).values({ code: 'HALF5', kind: 'percent', value: 50, maxRedemptions: 5 });
    const orgs = await createOrgs('percent-coupon', 20);
    const answers = await Promise.all(
      orgs.map((o) => t.call({ method: 'POST', url: '/api/v1/payment/getPaymentIntent', token: o.token, payload: { credits: 1000, currency: 'USD', coupon_code: 'HALF5' } })),
    );
    const started = answers.filter((a) => a.status === 200).map((a) => ZPaymentIntentResponse.parse(a.body).data);
    expect(started.length).toBe(5);
    expect(answers.filter((a) => a.status === 400 && a.body.error.message === 'This coupon has been fully used.').length).toBe(15);
    expect(started.every((s) => s.payment.discount > 0)).toBe(true);
    for (const s of started) await payOnCheckout(s.checkout_url, 'pm_card_visa');
    await t.deps.queue.runUntilIdle();
    const redeemed = await selectRows<{ n: number }>(t.db.db, sql`select count(*)::int as n from coupon_redemptions r join coupons c on c.id = r.coupon_id where c.code = 'HALF5'`);
    expect(redeemed[0]!.n).toBe(5);
    expect(await ledger(orgs.map((o) => o.orgId), 'purchase', 'Purchase')).toEqual({ n: 5, credits: 5000, orgs: 5 });
    // Full now: nobody else can start a discounted purchase.
    const outsider = orgs[answers.findIndex((a) => a.status !== 200)]!;
    const late = await t.call({ method: 'GET', url: '/api/v1/price?credits=1000&currency=USD&coupon_code=HALF5', token: outsider.token });
    expect(late.body.error.message).toBe('This coupon has been fully used.');
  });

  it('a Stripe purchase: its webhooks replayed 12 times at once and 12 concurrent confirmations grant the credits once', async () => {
    const [o] = await createOrgs('stripe-buy', 1);
    const res = await t.call({ method: 'POST', url: '/api/v1/payment/getPaymentIntent', token: o!.token, payload: { credits: 2000, currency: 'USD' } });
    const started = ZPaymentIntentResponse.parse(res.body).data;
    const sent = fake.events.length;
    await payOnCheckout(started.checkout_url, 'pm_card_visa');
    const events = fake.events.slice(sent).filter((e) => e.type === 'payment_intent.succeeded' || e.type === 'checkout.session.completed');
    expect(events.length).toBeGreaterThan(0);
    await Promise.all([
      ...events.flatMap((e) => Array.from({ length: WIDTH }, () => fake.resend(e.id))),
      ...Array.from({ length: WIDTH }, () => t.call({ method: 'POST', url: '/api/v1/payment/confirm', token: o!.token, payload: { payment_id: started.payment.id } })),
    ]);
    await t.deps.queue.runUntilIdle();
    expect(await ledger([o!.orgId], 'purchase', 'Purchase')).toEqual({ n: 1, credits: 2000, orgs: 1 });
    await expectBalancesMatchLedger([o!.orgId]);
  });

  it('a PayPal purchase: 12 concurrent captures and its capture webhook replayed 12 times at once grant the credits once', async () => {
    const [o] = await createOrgs('paypal-buy', 1);
    const order = await t.call({ method: 'POST', url: '/api/v1/payment/paypal/order/create', token: o!.token, payload: { credits: 3000, currency: 'USD' } });
    expect(order.status, JSON.stringify(order.body)).toBe(200);
    await fetch(order.body.data.approve_url as string, { method: 'POST', body: new URLSearchParams({ choice: 'approve' }), redirect: 'manual' });
    const captures = await Promise.all(
      Array.from({ length: WIDTH }, () => t.call({ method: 'POST', url: '/api/v1/payment/paypal/capture', token: o!.token, payload: { order_id: order.body.data.order_id } })),
    );
    expect(captures.filter((c) => c.status === 200).length).toBeGreaterThan(0);
    const captured = paypal.events.filter((e) => e.event_type === 'PAYMENT.CAPTURE.COMPLETED').at(-1)!;
    await Promise.all(Array.from({ length: WIDTH }, () => paypal.resend(captured.id)));
    await t.deps.queue.runUntilIdle();
    expect(await ledger([o!.orgId], 'purchase', 'Purchase')).toEqual({ n: 1, credits: 3000, orgs: 1 });
    await expectBalancesMatchLedger([o!.orgId]);
  });

  it("a Stripe subscription: its invoice.paid replayed 12 times at once grants the plan's credits once per period", async () => {
    const [o] = await createOrgs('stripe-plan', 1);
    await t.call({ method: 'POST', url: '/api/v1/payment/card/add', token: o!.token, payload: { payment_method: 'pm_card_visa' } });
    const sent = fake.events.length;
    const sub = await t.call({ method: 'GET', url: '/api/v1/payment/upgrade?plan_id=starter-monthly-usd', token: o!.token });
    expect(sub.status, JSON.stringify(sub.body)).toBe(200);
    await t.deps.queue.runUntilIdle();
    const paid = fake.events.slice(sent).filter((e) => e.type === 'invoice.paid');
    expect(paid.length).toBe(1);
    await Promise.all(Array.from({ length: WIDTH }, () => fake.resend(paid[0]!.id)));
    await t.deps.queue.runUntilIdle();
    expect(await ledger([o!.orgId], 'purchase', 'Purchase')).toEqual({ n: 1, credits: 10_000, orgs: 1 });
    await expectBalancesMatchLedger([o!.orgId]);
  });

  it('a PayPal subscription: its activation confirmed 12 times at once and a renewal sale replayed 12 times at once grant once each', async () => {
    const [o] = await createOrgs('paypal-plan', 1);
    const created = await t.call({ method: 'POST', url: '/api/v1/payment/paypal/create/subscription', token: o!.token, payload: { plan_id: 'starter-monthly-usd' } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const subId = created.body.data.subscription_id as string;
    await fetch(created.body.data.approve_url as string, { method: 'POST', body: new URLSearchParams({ choice: 'approve' }), redirect: 'manual' });
    await Promise.all(Array.from({ length: WIDTH }, () => t.call({ method: 'POST', url: '/api/v1/payment/paypal/subscription', token: o!.token, payload: { subscription_id: subId } })));
    await t.deps.queue.runUntilIdle();
    expect(await ledger([o!.orgId], 'purchase', 'Purchase')).toEqual({ n: 1, credits: 10_000, orgs: 1 });
    await t.db.db.update(subscriptions).set({ currentPeriodStart: new Date(Date.now() - 31 * 86_400_000), currentPeriodEnd: new Date(Date.now() - 60_000) }).where(eq(subscriptions.orgId, o!.orgId));
    await paypal.billNextCycle(subId);
    const sale = paypal.events.filter((e) => e.event_type === 'PAYMENT.SALE.COMPLETED').at(-1)!;
    await Promise.all(Array.from({ length: WIDTH }, () => paypal.resend(sale.id)));
    await t.deps.queue.runUntilIdle();
    expect(await ledger([o!.orgId], 'purchase', 'Purchase')).toEqual({ n: 2, credits: 20_000, orgs: 1 });
    await expectBalancesMatchLedger([o!.orgId]);
  });

  it('the sign-up bonus: 12 sign-ups of one address at once make one account with one bonus', async () => {
    const email = 'twelve-at-once@races.test';
    await Promise.all(
      Array.from({ length: WIDTH }, () => t.call({ method: 'POST', url: '/api/v1/user/signup', payload: { name: 'Racer', email, password: TEST_PASSWORD, signup_source: 'friends' } })),
    );
    const rows = await selectRows<{ org_id: string }>(t.db.db, sql`select m.org_id from users u join memberships m on m.user_id = u.id where lower(u.email) = ${email}`);
    expect(rows.length).toBe(1);
    const bonus = await ledger([rows[0]!.org_id], 'grant', 'Sign-up bonus');
    expect(bonus.n).toBe(1);
    await expectBalancesMatchLedger([rows[0]!.org_id]);
  });
});
