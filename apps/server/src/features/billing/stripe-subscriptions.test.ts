import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { TTestApp } from '../../test/test-app';
import type { TFakePayPal, TFakeStripe } from '@verilead/test-doubles/payments';
import { creditTransactions } from '../../platform/credits/tables';
import { outbox } from '../../platform/mailer/tables';
import { paymentEvents, payments, subscriptions } from './tables';
import { selectCustomer } from './queries';
import { createBillingTestApp } from './test-support';

type TOwner = { token: string; userId: string; orgId: string };
const DAY = 86_400;

describe('subscriptions billed by Stripe Billing (test clocks)', () => {
  let t: TTestApp;
  let fake: TFakeStripe;
  let paypal: TFakePayPal;
  let stranger: TOwner;

  const balance = async (o: TOwner) => (await t.call({ method: 'GET', url: '/api/v1/user/credits_and_limits', token: o.token })).body.data.org_credits as number;
  const stripe = async () => (await t.deps.payments.stripe.get()).stripe;
  /** Moves the organisation's test clock on by `days`, as Stripe's dashboard or API does, then runs the webhook jobs. */
  const advance = async (o: TOwner, days: number) => {
    const s = await stripe();
    const customer = await s.customers.retrieve((await selectCustomer(t.db.db, o.orgId))!.providerCustomerId);
    const clockId = (customer as { test_clock: string }).test_clock;
    expect(clockId).toMatch(/^clock_/);
    const clock = await s.testHelpers.testClocks.retrieve(clockId);
    const advanced = await s.testHelpers.testClocks.advance(clockId, { frozen_time: clock.frozen_time + days * DAY });
    await t.deps.queue.runUntilIdle();
    return advanced.frozen_time;
  };
  const row = async (o: TOwner) => (await t.db.db.select().from(subscriptions).where(eq(subscriptions.orgId, o.orgId)))[0]!;
  const planGrants = async (o: TOwner) =>
    (await t.db.db.select().from(creditTransactions).where(and(eq(creditTransactions.orgId, o.orgId), eq(creditTransactions.kind, 'purchase')))).length;

  beforeAll(async () => {
    ({ t, fake, paypal } = await createBillingTestApp());
    stranger = await t.createOwner('stranger@subs.test');
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
    await paypal.close();
  });

  it('subscribes, prorates a change, renews once per period when the clock passes it (replays grant nothing) and ends when cancelled', async () => {
    const o = await t.createOwner('subscriber@subs.test');
    const noCard = await t.call({ method: 'GET', url: '/api/v1/payment/upgrade?plan_id=starter-monthly-usd', token: o.token });
    expect(noCard.status).toBe(409);
    await t.call({ method: 'POST', url: '/api/v1/payment/card/add', token: o.token, payload: { payment_method: 'pm_card_visa' } });
    const unknown = await t.call({ method: 'GET', url: '/api/v1/payment/upgrade?plan_id=nope', token: o.token });
    expect(unknown.status).toBe(404);

    const before = await balance(o);
    const sub = await t.call({ method: 'GET', url: '/api/v1/payment/upgrade?plan_id=starter-monthly-usd', token: o.token });
    expect(sub.status, JSON.stringify(sub.body)).toBe(200);
    expect(sub.body.data.payment).toMatchObject({ status: 'paid', kind: 'plan', total: 48, credits: 10000, provider: 'stripe' });
    expect(await balance(o)).toBe(before + 10000);
    const first = await row(o);
    expect(first).toMatchObject({ provider: 'stripe', status: 'active', planId: 'starter-monthly-usd' });
    expect(first.providerRef).toMatch(/^sub_/);
    const atStripe = await (await stripe()).subscriptions.retrieve(first.providerRef!);
    expect(atStripe.items.data[0]!.price.unit_amount).toBe(4800);
    const plan = await t.call({ method: 'GET', url: '/api/v1/user/current_plan', token: o.token });
    expect(plan.body.data).toMatchObject({ interval: 'monthly', credits: 10000 });
    const same = await t.call({ method: 'GET', url: '/api/v1/payment/upgrade?plan_id=starter-monthly-usd', token: o.token });
    expect(same.status).toBe(409);

    // Upgrading now: Stripe credits the unused part of the month on the invoice.
    const up = await t.call({ method: 'GET', url: '/api/v1/payment/upgrade?plan_id=growth-monthly-usd', token: o.token });
    expect(up.body.data.payment.status).toBe('paid');
    expect(up.body.data.payment.discount).toBeGreaterThan(47);
    expect(up.body.data.payment.total).toBeLessThan(193);
    expect(await balance(o)).toBe(before + 60000);
    await t.deps.queue.runUntilIdle(); // the webhooks of these invoices: already settled, nothing more
    expect(await balance(o)).toBe(before + 60000);

    // The clock passes the period end: Stripe bills the next period; invoice.paid grants it once.
    const now = await advance(o, 32);
    expect(await balance(o)).toBe(before + 110000);
    const renewed = await row(o);
    expect(renewed.status).toBe('active');
    expect(renewed.currentPeriodEnd.getTime() / 1000).toBeGreaterThan(now + 25 * DAY);
    const paid = fake.events.filter((e) => e.type === 'invoice.paid');
    expect(paid.length).toBe(3);
    await Promise.all(paid.flatMap((e) => [fake.resend(e.id), fake.resend(e.id)]));
    // A stale subscription event delivered late changes nothing either: the row is read again from Stripe.
    await fake.resend(fake.events.find((e) => e.type === 'customer.subscription.created')!.id);
    await t.deps.queue.runUntilIdle();
    expect(await balance(o)).toBe(before + 110000);
    expect(await planGrants(o)).toBe(3);
    expect((await row(o)).currentPeriodEnd.getTime()).toBe(renewed.currentPeriodEnd.getTime());
    const stored = await t.db.db.select().from(paymentEvents).where(eq(paymentEvents.provider, 'stripe'));
    expect(new Set(stored.map((e) => e.eventId)).size).toBe(stored.length);

    const noReason = await t.call({ method: 'GET', url: '/api/v1/payment/subscription/cancel', token: o.token });
    expect(noReason.status).toBe(400);
    expect(noReason.body.error.message).toBe('Please tell us why you cancel.');
    const other = await t.call({ method: 'GET', url: '/api/v1/payment/subscription/cancel?reason=too%20expensive', token: stranger.token });
    expect(other.status).toBe(404);
    const cancelled = await t.call({ method: 'GET', url: '/api/v1/payment/subscription/cancel?reason=too%20expensive', token: o.token });
    expect(cancelled.body.data).toMatchObject({ cancel_at_period_end: true, cancel_reason: 'too expensive', status: 'active' });
    expect((await (await stripe()).subscriptions.retrieve(first.providerRef!)).cancellation_details?.comment).toBe('too expensive');
    await advance(o, 10); // the paid period runs on
    expect((await row(o)).status).toBe('active');
    await advance(o, 30); // past its end: Stripe ends it (customer.subscription.deleted)
    expect((await row(o)).status).toBe('cancelled');
    expect((await t.call({ method: 'GET', url: '/api/v1/user/current_plan', token: o.token })).body.data.interval).toBe('free');
    expect(await balance(o)).toBe(before + 110000);
  });

  it('downgrades with proration: the unused time pays the cheaper plan, Stripe keeps the rest as credit for the next renewals', async () => {
    const o = await t.createOwner('downgrade@subs.test');
    await t.call({ method: 'POST', url: '/api/v1/payment/card/add', token: o.token, payload: { payment_method: 'pm_card_visa' } });
    const before = await balance(o);
    const growth = await t.call({ method: 'GET', url: '/api/v1/payment/upgrade?plan_id=growth-monthly-usd', token: o.token });
    expect(growth.body.data.payment).toMatchObject({ status: 'paid', kind: 'plan', total: 240, credits: 50000 });
    const first = await row(o);
    const start = first.currentPeriodStart.getTime() / 1000;
    const end = first.currentPeriodEnd.getTime() / 1000;

    // Half-way through Growth's month the owner moves down to Starter: Growth's unused time is credited by the second.
    await advance(o, 15);
    const unused = Math.round((24000 * (end - (start + 15 * DAY))) / (end - start));
    expect(unused).toBeGreaterThan(9600);
    const down = await t.call({ method: 'GET', url: '/api/v1/payment/upgrade?plan_id=starter-monthly-usd', token: o.token });
    expect(down.status, JSON.stringify(down.body)).toBe(200);
    // Nothing is charged (the credit covers Starter); the receipt shows the credit, never a negative total.
    expect(down.body.data.payment).toMatchObject({ status: 'paid', kind: 'plan', credits: 10000, subtotal: 48, discount: 48, tax: 0, total: 0 });
    expect(down.body.data.balance).toBe(before + 60000);
    expect(await row(o)).toMatchObject({ planId: 'starter-monthly-usd', status: 'active' });
    expect((await t.call({ method: 'GET', url: '/api/v1/user/current_plan', token: o.token })).body.data).toMatchObject({ interval: 'monthly', credits: 10000 });
    const s = await stripe();
    const atStripe = await s.subscriptions.retrieve(first.providerRef!, { expand: ['latest_invoice'] });
    expect(atStripe.items.data[0]!.price.unit_amount).toBe(4800);
    const invoice = atStripe.latest_invoice as { total: number; amount_due: number };
    expect(invoice).toMatchObject({ total: 4800 - unused, amount_due: 0 });
    const customerId = (await selectCustomer(t.db.db, o.orgId))!.providerCustomerId;
    const creditLeft = async () => 0 - ((await s.customers.retrieve(customerId)) as { balance: number }).balance;
    expect(await creditLeft()).toBe(unused - 4800);

    // The next renewal is paid from that credit (nothing charged to the card), its credits granted once.
    await advance(o, 31);
    expect(await balance(o)).toBe(before + 70000);
    const receipts = async () => (await t.call({ method: 'GET', url: '/api/v1/receipt/list', token: o.token })).body.data.items as { total: number; discount: number }[];
    expect((await receipts())[0]).toMatchObject({ total: 0, discount: 48 });
    expect(await creditLeft()).toBe(unused - 9600);
    // The one after: the credit left pays part of it, the card the rest.
    await advance(o, 31);
    expect(await balance(o)).toBe(before + 80000);
    expect((await receipts())[0]!.total).toBe((14400 - unused) / 100);
    expect(await creditLeft()).toBe(0);
    expect(await planGrants(o)).toBe(4);
  });

  it('a renewal the bank wants authenticated waits, mails the owner once, and pays on the hosted invoice page', async () => {
    const o = await t.createOwner('sca@subs.test');
    await t.call({ method: 'POST', url: '/api/v1/payment/card/add', token: o.token, payload: { payment_method: 'pm_card_visa' } });
    const before = await balance(o);
    const sub = await t.call({ method: 'GET', url: '/api/v1/payment/upgrade?plan_id=starter-monthly-usd', token: o.token });
    expect(sub.body.data.payment.status).toBe('paid');
    // The owner makes a card that asks for authentication the default: the renewal is charged to it.
    const sca = await t.call({ method: 'POST', url: '/api/v1/payment/card/add', token: o.token, payload: { payment_method: 'pm_card_authenticationRequired' } });
    await t.call({ method: 'POST', url: '/api/v1/payment/card/default', token: o.token, payload: { payment_method: sca.body.data.id } });

    await advance(o, 31);
    expect(await balance(o)).toBe(before + 10000);
    expect((await row(o)).status).toBe('past_due');
    const pending = await t.call({ method: 'GET', url: '/api/v1/invoice/pending_list', token: o.token });
    const waiting = pending.body.data.items.find((p: { status: string }) => p.status === 'requires_action');
    expect(waiting).toMatchObject({ kind: 'plan', total: 48, provider: 'stripe' });
    expect(waiting.action_url).toMatch(/\/i\/in_/);
    const mails = async () => (await t.db.db.select().from(outbox).where(eq(outbox.toAddress, 'sca@subs.test'))).filter((m) => m.template === 'payment_action_required');
    expect(await mails()).toHaveLength(1);
    // Replayed, the event mails nobody again; another organisation never sees the invoice.
    for (const e of fake.events.filter((x) => x.type === 'invoice.payment_action_required')) await fake.resend(e.id);
    await t.deps.queue.runUntilIdle();
    expect(await mails()).toHaveLength(1);
    const foreign = await t.call({ method: 'GET', url: `/api/v1/invoice/download?id=${waiting.id}`, token: stranger.token });
    expect(foreign.status).toBe(404);

    // The owner opens the link and passes the bank's check: the invoice is paid and the renewal granted once.
    const page = await (await fetch(waiting.action_url)).text();
    const auth = /href="([^"]+\/authenticate\/[^"]+)"/.exec(page)![1]!.replace(/&amp;/g, '&');
    const done = await fetch(auth, { method: 'POST', body: new URLSearchParams({ outcome: 'complete' }), redirect: 'manual' });
    expect(done.status).toBe(303);
    await t.deps.queue.runUntilIdle();
    expect(await balance(o)).toBe(before + 20000);
    expect((await row(o)).status).toBe('active');
    const settled = (await t.db.db.select().from(payments).where(eq(payments.id, waiting.id)))[0]!;
    expect(settled).toMatchObject({ status: 'paid', actionUrl: null });
    expect(await (await fetch(waiting.action_url)).text()).toContain('This invoice is paid');
  });
});
