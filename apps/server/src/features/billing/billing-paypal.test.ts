import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { TTestApp } from '../../test/test-app';
import type { TFakePayPal } from '@verilead/test-doubles/payments';
import { subscriptions } from './tables';
import { billingCalls, startBillingWorld, type TBillingOwner, type TBillingWorld } from './test-support';

// Paying through PayPal: orders for credits and subscriptions to plans, with their webhooks.

type TOwner = TBillingOwner;

describe('billing API', () => {
  let world: TBillingWorld;
  let t: TTestApp;
  let paypal: TFakePayPal;
  let owner: TOwner;
  let stranger: TOwner;

  const { balance, confirm } = billingCalls(() => t);

  beforeAll(async () => {
    world = await startBillingWorld();
    ({ t, paypal, owner, stranger } = world);
  });
  afterAll(async () => {
    await world.close();
  });

  describe('PayPal', () => {
    const approve = async (url: string, choice: 'approve' | 'declined' | 'cancel') => {
      const res = await fetch(url, { method: 'POST', body: new URLSearchParams({ choice }), redirect: 'manual' });
      return res.headers.get('location') ?? '';
    };

    it('buys credits through an order approved on the PayPal page, captured once', async () => {
      const inr = await t.call({ method: 'POST', url: '/api/v1/payment/paypal/order/create', token: owner.token, payload: { credits: 1000, currency: 'INR' } });
      expect(inr.status).toBe(400);
      expect(inr.body.error.message).toBe('PayPal takes payments in USD only. Please pay INR by card.');
      const before = await balance(owner);
      const order = await t.call({ method: 'POST', url: '/api/v1/payment/paypal/order/create', token: owner.token, payload: { credits: 3000, currency: 'USD' } });
      expect(order.status, JSON.stringify(order.body)).toBe(200);
      expect(order.body.data.payment).toMatchObject({ provider: 'paypal', total: 24, status: 'pending' });
      const orderId = order.body.data.order_id as string;
      const early = await t.call({ method: 'POST', url: '/api/v1/payment/paypal/capture', token: owner.token, payload: { order_id: orderId } });
      expect(early.status).toBe(409);
      const back = await approve(order.body.data.approve_url, 'approve');
      expect(back).toContain(`/payment/thank-you?payment_id=${order.body.data.payment.id}`);
      expect(back).toContain(`token=${orderId}`);
      const verified = await t.call({ method: 'POST', url: '/api/v1/payment/paypal/verify', token: owner.token, payload: { order_id: orderId } });
      expect(verified.body.data.order_status).toBe('APPROVED');
      const foreign = await t.call({ method: 'POST', url: '/api/v1/payment/paypal/capture', token: stranger.token, payload: { order_id: orderId } });
      expect(foreign.status).toBe(404);
      const captures = await Promise.all([1, 2, 3].map(() => t.call({ method: 'POST', url: '/api/v1/payment/paypal/capture', token: owner.token, payload: { order_id: orderId } })));
      expect(captures.filter((c) => c.status === 200).length, JSON.stringify(captures.map((c) => c.body))).toBeGreaterThan(0);
      const again = await t.call({ method: 'POST', url: '/api/v1/payment/paypal/capture', token: owner.token, payload: { order_id: orderId } });
      expect(again.body.data.payment.status).toBe('paid');
      await t.deps.queue.runUntilIdle();
      expect(await balance(owner)).toBe(before + 3000);
      // PayPal's PAYMENT.CAPTURE.COMPLETED came too; replayed, it grants nothing; a forged one is refused.
      const captured = paypal.events.filter((e) => e.event_type === 'PAYMENT.CAPTURE.COMPLETED').at(-1)!;
      await Promise.all([paypal.resend(captured.id), paypal.resend(captured.id)]);
      await t.deps.queue.runUntilIdle();
      expect(await balance(owner)).toBe(before + 3000);
      const forged = await t.call({ method: 'POST', url: '/api/v1/payment/webhook/paypal', headers: { ...captured.headers, 'paypal-transmission-sig': 'forged' }, payload: JSON.parse(captured.body) });
      expect(forged.status).toBe(400);
      const bad = await t.call({ method: 'POST', url: '/api/v1/payment/paypal/verify', token: owner.token, payload: { order_id: 'no such/order' } });
      expect(bad.status).toBe(400);
    });

    it('records a payment PayPal declines as failed', async () => {
      const before = await balance(owner);
      const order = await t.call({ method: 'POST', url: '/api/v1/payment/paypal/order/create', token: owner.token, payload: { credits: 1000, currency: 'USD' } });
      await approve(order.body.data.approve_url, 'declined');
      const res = await t.call({ method: 'POST', url: '/api/v1/payment/paypal/capture', token: owner.token, payload: { order_id: order.body.data.order_id } });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'card_declined', message: 'PayPal declined the payment. Please choose another way to pay.' });
      const paid = await confirm(owner, order.body.data.payment.id);
      expect(paid.body.data.payment.status).toBe('failed');
      expect(await balance(owner)).toBe(before);
    });

    it('subscribes to a plan through a PayPal subscription', async () => {
      const o = await t.createOwner('paypal-sub@billing.test');
      const plan = await t.call({ method: 'POST', url: '/api/v1/payment/paypal/plan/subscription', token: o.token, payload: { plan_id: 'starter-monthly-usd' } });
      expect(plan.body.data.paypal_plan_id).toMatch(/^P-/);
      const inr = await t.call({ method: 'POST', url: '/api/v1/payment/paypal/create/subscription', token: o.token, payload: { plan_id: 'starter-monthly-inr' } });
      expect(inr.status).toBe(400);
      const created = await t.call({ method: 'POST', url: '/api/v1/payment/paypal/create/subscription', token: o.token, payload: { plan_id: 'starter-monthly-usd' } });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const subId = created.body.data.subscription_id as string;
      const early = await t.call({ method: 'POST', url: '/api/v1/payment/paypal/subscription', token: o.token, payload: { subscription_id: subId } });
      expect(early.status).toBe(409);
      const back = await approve(created.body.data.approve_url, 'approve');
      expect(back).toContain(`subscription_id=${subId}`);
      const before = await balance(o);
      const [a, b] = await Promise.all([1, 2].map(() => t.call({ method: 'POST', url: '/api/v1/payment/paypal/subscription', token: o.token, payload: { subscription_id: subId } })));
      expect([a!.status, b!.status]).toEqual([200, 200]);
      expect(a!.body.data.payment).toMatchObject({ status: 'paid', kind: 'plan', provider: 'paypal' });
      expect(await balance(o)).toBe(before + 10000);
      const row = (await t.db.db.select().from(subscriptions).where(eq(subscriptions.orgId, o.orgId)))[0]!;
      expect(row).toMatchObject({ provider: 'paypal', providerRef: subId, status: 'active', planId: 'starter-monthly-usd' });
      const foreign = await t.call({ method: 'POST', url: '/api/v1/payment/paypal/subscription', token: stranger.token, payload: { subscription_id: subId } });
      expect(foreign.status).toBe(404);
      await t.deps.queue.runUntilIdle(); // BILLING.SUBSCRIPTION.ACTIVATED: already active, nothing more
      expect(await balance(o)).toBe(before + 10000);

      // A month later PayPal bills the next cycle: one renewal, however often the event arrives.
      await t.db.db.update(subscriptions).set({ currentPeriodStart: new Date(Date.now() - 31 * 86_400_000), currentPeriodEnd: new Date(Date.now() - 60_000) }).where(eq(subscriptions.orgId, o.orgId));
      await paypal.billNextCycle(subId);
      const sale = paypal.events.filter((e) => e.event_type === 'PAYMENT.SALE.COMPLETED').at(-1)!;
      await Promise.all([paypal.resend(sale.id), paypal.resend(sale.id)]);
      await t.deps.queue.runUntilIdle();
      expect(await balance(o)).toBe(before + 20000);
      const renewed = (await t.db.db.select().from(subscriptions).where(eq(subscriptions.orgId, o.orgId)))[0]!;
      expect(renewed.currentPeriodEnd.getTime()).toBeGreaterThan(Date.now() + 27 * 86_400_000);
      const cancelled = await t.call({ method: 'GET', url: '/api/v1/payment/subscription/cancel?reason=moving%20on', token: o.token });
      expect(cancelled.body.data).toMatchObject({ cancel_at_period_end: true, cancel_reason: 'moving on' });
      const client = await t.deps.payments.paypal.get();
      const atPayPal = await client.getSubscription(subId);
      expect(atPayPal.status).toBe('CANCELLED');
    });
  });
});
