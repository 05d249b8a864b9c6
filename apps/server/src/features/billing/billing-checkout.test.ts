import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZPaymentOutcomeResponse, ZPriceResponse } from '@verilead/contracts';
import { createTestApp, type TTestApp } from '../../test/test-app';
import type { TFakeStripe } from '@verilead/test-doubles/payments';
import { billingCalls, payOnCheckout, startBillingWorld, type TBillingOwner, type TBillingWorld } from './test-support';
import { applyPriceConfig, ZPriceConfig } from './price-config';
import { PAYMENTS_NOT_CONFIGURED_MESSAGE } from './payments-not-configured';

// Prices, card checkout, saved cards and the operator's price file; coupons and invoices are in
// billing-coupons-invoices.test.ts, PayPal in billing-paypal.test.ts.

type TOwner = TBillingOwner;

describe('billing API', () => {
  let world: TBillingWorld;
  let t: TTestApp;
  let fake: TFakeStripe;
  let owner: TOwner;
  let stranger: TOwner;
  let manager: { token: string };

  const { balance, purchases, startPayment, confirm } = billingCalls(() => t);

  beforeAll(async () => {
    world = await startBillingWorld();
    ({ t, fake, owner, stranger, manager } = world);
  });
  afterAll(async () => {
    await world.close();
  });

  describe('pricing', () => {
    it('answers the slabs of each currency, with kinds', async () => {
      const usd = await t.call({ method: 'GET', url: '/api/v1/price/slab?currency=USD', token: owner.token });
      expect(usd.status).toBe(200);
      expect(usd.body.data.min_credit).toBe(1000);
      expect(usd.body.data.slabs.map((s: { kind: string }) => s.kind)).toEqual(['standard', 'discount', 'discount', 'bonus']);
      const inr = await t.call({ method: 'GET', url: '/api/v1/price/slab?currency=INR', token: owner.token });
      expect(inr.body.data.slabs[0]).toMatchObject({ currency: 'INR', unit_price: 0.6 });
      const bad = await t.call({ method: 'GET', url: '/api/v1/price/slab?currency=EUR', token: owner.token });
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toBe('Please choose USD or INR.');
    });

    it('prices credits with the INR tax rounded down', async () => {
      const res = await t.call({ method: 'GET', url: '/api/v1/price?credits=1234&currency=INR', token: owner.token });
      const q = ZPriceResponse.parse(res.body).data;
      // 1234 × 0.60 = 740.40; 18% = 133.272 → 133.27
      expect(q).toMatchObject({ subtotal: 740.4, tax: 133.27, total: 873.67, tax_percent: 18, kind: 'standard' });
      const usd = await t.call({ method: 'GET', url: '/api/v1/price?credits=2000000&currency=USD', token: owner.token });
      expect(usd.body.data).toMatchObject({ subtotal: 6000, tax: 0, total: 6000, kind: 'bonus', bonus_credits: 200000 });
      const few = await t.call({ method: 'GET', url: '/api/v1/price?credits=10', token: owner.token });
      expect(few.status).toBe(400);
      expect(few.body.error.message).toBe('You can buy at least 1,000 credits.');
      const text = await t.call({ method: 'GET', url: '/api/v1/price?credits=lots', token: owner.token });
      expect(text.status).toBe(400);
    });

    it('compares one time with annual (20% cheaper) and lists plans', async () => {
      const c = await t.call({ method: 'GET', url: '/api/v1/price/compare?credits=50000&currency=USD', token: owner.token });
      expect(c.body.data).toMatchObject({ one_time: { total: 300 }, annual: { total: 240, per_month: 20, saving_percent: 20 } });
      const plans = await t.call({ method: 'GET', url: '/api/v1/price/products?currency=USD&interval=annual', token: owner.token });
      expect(plans.status).toBe(200);
      expect(plans.body.data.items.length).toBeGreaterThan(0);
      expect(plans.body.data.items.every((p: { interval: string }) => p.interval === 'annual')).toBe(true);
    });

    it('keeps pricing and billing owner-only', async () => {
      for (const url of ['/api/v1/price/slab', '/api/v1/price?credits=1000', '/api/v1/payment/cards', '/api/v1/invoice/list', '/api/v1/payment/buyCredits']) {
        const res = await t.call({ method: 'GET', url, token: manager.token });
        expect(res.status, url).toBe(403);
      }
      const noLogin = await t.call({ method: 'GET', url: '/api/v1/price/slab' });
      expect(noLogin.status).toBe(401);
    });
  });

  describe('buying credits through the checkout page', () => {
    it('says test mode and what the modal needs', async () => {
      const res = await t.call({ method: 'GET', url: '/api/v1/payment/buyCredits', token: owner.token });
      expect(res.body.data).toMatchObject({ test_mode: true, has_card: false, min_credit: 1000, currencies: ['USD', 'INR'] });
    });

    it('grants the credits once when the test card succeeds, whatever is replayed', async () => {
      const before = await balance(owner);
      const started = await startPayment(owner);
      expect(started.payment).toMatchObject({ status: 'pending', total: 40, credits: 5000 });
      expect(started.checkout_url).toContain(`${fake.baseUrl}/c/pay/cs_test_`);
      const paid = await payOnCheckout(started.checkout_url, 'pm_card_visa');
      expect(paid.status).toBe(303);
      expect(paid.location).toContain(`/payment/thank-you?payment_id=${started.payment.id}`);
      await t.deps.queue.runUntilIdle();
      expect(await balance(owner)).toBe(before + 5000);
      // The thank-you page confirms too: nothing more is granted.
      const c1 = ZPaymentOutcomeResponse.parse((await confirm(owner, started.payment.id)).body).data;
      expect(c1.payment.status).toBe('paid');
      expect(c1.balance).toBe(before + 5000);
      // A replayed event, and several at once, grant nothing.
      const succeeded = fake.events.filter((e) => e.type === 'checkout.session.completed').at(-1)!;
      await fake.resend(succeeded.id);
      await Promise.all([fake.resend(succeeded.id), fake.resend(succeeded.id), fake.resend(succeeded.id), confirm(owner, started.payment.id), confirm(owner, started.payment.id)]);
      await t.deps.queue.runUntilIdle();
      expect(await balance(owner)).toBe(before + 5000);
      const rows = (await purchases(owner)).filter((r) => r.objectId === started.payment.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ amount: 5000, objectType: 'payment' });
    });

    it('answers a replayed webhook as a duplicate and refuses a bad signature', async () => {
      const e = fake.events.at(-1)!;
      const res = await t.call({ method: 'POST', url: '/api/v1/payment/webhook/stripe', headers: { 'content-type': 'application/json', 'stripe-signature': fake.sign(e.body) }, payload: e.body });
      expect(res.status).toBe(200);
      // Its first delivery's job has run (the test before ran the jobs): the answer says so.
      expect(res.body.data).toEqual({ received: true, duplicate: true, processed: true });
      // A new event whose job has not run yet: its replay is a duplicate that says so, until the job ran.
      const started = await startPayment(owner, { credits: 1000, currency: 'USD' });
      await payOnCheckout(started.checkout_url, 'pm_card_visa');
      const fresh = fake.events.at(-1)!;
      const replay = () => t.call({ method: 'POST', url: '/api/v1/payment/webhook/stripe', headers: { 'content-type': 'application/json', 'stripe-signature': fake.sign(fresh.body) }, payload: fresh.body });
      expect((await replay()).body.data).toEqual({ received: true, duplicate: true, processed: false });
      await t.deps.queue.runUntilIdle();
      expect((await replay()).body.data).toEqual({ received: true, duplicate: true, processed: true });
      const forged = await t.call({ method: 'POST', url: '/api/v1/payment/webhook/stripe', headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' }, payload: e.body });
      expect(forged.status).toBe(400);
      expect(forged.body.error.message).toBe('The webhook signature is not valid.');
    });

    it('records a declined card as failed and grants nothing', async () => {
      const before = await balance(owner);
      const started = await startPayment(owner);
      const declined = await payOnCheckout(started.checkout_url, 'pm_card_chargeDeclined');
      expect(declined.status).toBe(402);
      expect(declined.text).toContain('Your card was declined.');
      await t.deps.queue.runUntilIdle();
      const c = (await confirm(owner, started.payment.id)).body.data;
      expect(c.payment).toMatchObject({ status: 'failed', failure_message: 'Your card was declined.' });
      expect(await balance(owner)).toBe(before);
    });

    it('asks for authentication, then pays when it passes and fails when it does not', async () => {
      const before = await balance(owner);
      const ok = await startPayment(owner, { credits: 1000, currency: 'INR' });
      expect(ok.payment).toMatchObject({ subtotal: 600, tax: 108, total: 708 });
      const passed = await payOnCheckout(ok.checkout_url, 'pm_card_authenticationRequired', 'complete');
      expect(passed.location).toContain(`/payment/thank-you?payment_id=${ok.payment.id}&session_id=cs_test_`);
      const failed = await startPayment(owner, { credits: 1000, currency: 'USD' });
      const refused = await payOnCheckout(failed.checkout_url, 'pm_card_authenticationRequired', 'fail');
      // Failed authentication keeps the payer on the checkout page with the reason, as Stripe Checkout does.
      expect(refused.status).toBe(402);
      expect(refused.text).toContain('unable to authenticate');
      await t.deps.queue.runUntilIdle();
      expect((await confirm(owner, ok.payment.id)).body.data.payment.status).toBe('paid');
      expect((await confirm(owner, failed.payment.id)).body.data.payment.status).toBe('failed');
      expect(await balance(owner)).toBe(before + 1000);
    });

    it('answers 404 for another organisation’s payment and 400 for a bad id', async () => {
      const mine = await startPayment(owner);
      for (const [method, url] of [
        ['POST', '/api/v1/payment/confirm'],
        ['PATCH', '/api/v1/payment/cancel'],
      ] as const) {
        const res = await t.call({ method, url, token: stranger.token, payload: { payment_id: mine.payment.id } });
        expect(res.status, url).toBe(404);
      }
      const pdf = await t.call({ method: 'GET', url: `/api/v1/invoice/download?id=${mine.payment.id}`, token: stranger.token });
      expect(pdf.status).toBe(404);
      const bad = await t.call({ method: 'POST', url: '/api/v1/payment/confirm', token: owner.token, payload: { payment_id: 'nope' } });
      expect(bad.status).toBe(400);
      const cancelled = await t.call({ method: 'PATCH', url: '/api/v1/payment/cancel', token: owner.token, payload: { payment_id: mine.payment.id } });
      expect(cancelled.body.data.payment.status).toBe('cancelled');
      const again = await t.call({ method: 'POST', url: '/api/v1/payment/confirmPaymentIntent', token: owner.token, payload: { payment_id: mine.payment.id, payment_method: 'pm_card_visa' } });
      expect(again.status).toBe(409);
    });
  });

  describe('saved cards', () => {
    it('saves cards, makes one default, buys with it and removes it', async () => {
      const first = await t.call({ method: 'POST', url: '/api/v1/payment/card/add', token: owner.token, payload: { payment_method: 'pm_card_visa' } });
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      expect(first.body.data).toMatchObject({ brand: 'visa', last4: '4242', is_default: true });
      const second = await t.call({ method: 'POST', url: '/api/v1/payment/card/add', token: owner.token, payload: { payment_method: 'pm_card_mastercard' } });
      expect(second.body.data).toMatchObject({ brand: 'mastercard', is_default: false });
      const declined = await t.call({ method: 'POST', url: '/api/v1/payment/card/add', token: owner.token, payload: { payment_method: 'pm_card_chargeDeclined' } });
      expect(declined.status).toBe(400);
      expect(declined.body.error).toMatchObject({ code: 'card_declined', message: 'Your card was declined.' });
      const list = await t.call({ method: 'GET', url: '/api/v1/payment/cards', token: owner.token });
      expect(list.body.data.items).toHaveLength(2);
      const def = await t.call({ method: 'POST', url: '/api/v1/payment/card/default', token: owner.token, payload: { payment_method: second.body.data.id } });
      expect(def.body.data.is_default).toBe(true);
      const current = await t.call({ method: 'POST', url: '/api/v1/payment/defaultcard', token: owner.token });
      expect(current.body.data.card.id).toBe(second.body.data.id);

      const before = await balance(owner);
      const bought = await t.call({ method: 'POST', url: '/api/v1/payment/buy', token: owner.token, payload: { credits: 2000, currency: 'USD' } });
      expect(bought.status, JSON.stringify(bought.body)).toBe(200);
      expect(bought.body.data.payment.status).toBe('paid');
      expect(bought.body.data.balance).toBe(before + 2000);
      await t.deps.queue.runUntilIdle();
      expect(await balance(owner)).toBe(before + 2000);

      // Another organisation cannot touch these cards.
      const foreign = await t.call({ method: 'POST', url: '/api/v1/payment/card/delete', token: stranger.token, payload: { payment_method: first.body.data.id } });
      expect(foreign.status).toBe(404);
      const removed = await t.call({ method: 'POST', url: '/api/v1/payment/card/delete', token: owner.token, payload: { payment_method: second.body.data.id } });
      expect(removed.status).toBe(200);
      const after = await t.call({ method: 'POST', url: '/api/v1/payment/defaultcard', token: owner.token });
      expect(after.body.data.card).toBeNull();
      const none = await t.call({ method: 'POST', url: '/api/v1/payment/buy', token: owner.token, payload: { credits: 2000, currency: 'USD' } });
      expect(none.status).toBe(409);
    });

    it('sends an off-session purchase needing authentication to the checkout page', async () => {
      const card = await t.call({ method: 'POST', url: '/api/v1/payment/card/add', token: stranger.token, payload: { payment_method: 'pm_card_authenticationRequired' } });
      expect(card.body.data.is_default).toBe(true);
      const before = await balance(stranger);
      const res = await t.call({ method: 'POST', url: '/api/v1/payment/buy', token: stranger.token, payload: { credits: 1000, currency: 'USD' } });
      expect(res.status).toBe(200);
      expect(res.body.data.payment.status).toBe('failed');
      expect(res.body.data.next_action_url).toContain('/checkout/');
      const paid = await payOnCheckout(res.body.data.next_action_url, 'pm_card_visa');
      expect(paid.location).toContain('redirect_status=succeeded');
      await t.deps.queue.runUntilIdle();
      expect(await balance(stranger)).toBe(before + 1000);
    });

    it('saves a card through a setup-mode Checkout Session', async () => {
      const si = await t.call({ method: 'POST', url: '/api/v1/payment/setup_intent/create', token: stranger.token });
      expect(si.status).toBe(200);
      // A Checkout Session in setup mode: the same hosted-page path as with live keys.
      expect(si.body.data.checkout_url).toContain(`${fake.baseUrl}/c/pay/cs_test_`);
      const early = await t.call({ method: 'POST', url: '/api/v1/payment/setup_intent/confirm', token: stranger.token, payload: { setup_intent_id: si.body.data.setup_intent_id } });
      expect(early.status).toBe(409);
      const page = await fetch(si.body.data.checkout_url, { method: 'POST', body: new URLSearchParams({ payment_method: 'pm_card_amex' }), redirect: 'manual' });
      expect(page.status).toBe(303);
      const foreign = await t.call({ method: 'POST', url: '/api/v1/payment/setup_intent/confirm', token: owner.token, payload: { setup_intent_id: si.body.data.setup_intent_id } });
      expect(foreign.status).toBe(404);
      const done = await t.call({ method: 'POST', url: '/api/v1/payment/setup_intent/confirm', token: stranger.token, payload: { setup_intent_id: si.body.data.setup_intent_id } });
      expect(done.body.data).toMatchObject({ brand: 'amex', last4: '8431' });
    });
  });

  describe('operator price file', () => {
    it('replaces the slabs and plans and adds coupons', async () => {
      const input = ZPriceConfig.parse({
        slabs: [{ currency: 'USD', min_credits: 500, unit_price: 0.01 }],
        plans: [{ id: 'solo-monthly-usd', name: 'Solo', interval: 'monthly', currency: 'USD', price: 9.5, credits: 1000 }],
        coupons: [{ code: 'OPS50', kind: 'credits', value: 50 }],
      });
      await applyPriceConfig(t.db, input);
      const slabs = await t.call({ method: 'GET', url: '/api/v1/price/slab?currency=USD', token: owner.token });
      expect(slabs.body.data).toMatchObject({ min_credit: 500, slabs: [{ min_credits: 500, unit_price: 0.01, kind: 'standard' }] });
      const price = await t.call({ method: 'GET', url: '/api/v1/price?credits=1000&currency=USD', token: owner.token });
      expect(price.body.data.total).toBe(10);
      const plans = await t.call({ method: 'GET', url: '/api/v1/price/products?currency=USD', token: owner.token });
      expect(plans.body.data.items).toEqual([{ id: 'solo-monthly-usd', name: 'Solo', interval: 'monthly', currency: 'USD', price: 9.5, credits: 1000, seats: 1 }]);
      const coupon = await t.call({ method: 'POST', url: '/api/v1/coupon/apply', token: owner.token, payload: { code: 'OPS50' } });
      expect(coupon.body.data.credits_granted).toBe(50);
    });
  });
});

describe('billing without payment keys where test mode is not allowed (NODE_ENV=production)', () => {
  let t: TTestApp;
  let owner: TOwner;
  beforeAll(async () => {
    t = await createTestApp({ stripe: {}, paypal: {}, paymentsTestMode: false });
    owner = await t.createOwner('nokeys@billing.test');
  });
  afterAll(async () => {
    await t.close();
  });

  it('says payments are not configured instead of taking them in test mode, and every payment call answers 503', async () => {
    const info = await t.call({ method: 'GET', url: '/api/v1/payment/buyCredits', token: owner.token });
    expect(info.status).toBe(200);
    expect(info.body.data).toMatchObject({ configured: false, test_mode: false, providers: [] });
    const calls = [
      ['POST', '/api/v1/payment/getPaymentIntent', { credits: 5000, currency: 'USD' }],
      ['POST', '/api/v1/payment/buy', { credits: 5000, currency: 'USD' }],
      ['POST', '/api/v1/payment/buy/request', { credits: 5000, currency: 'USD' }],
      ['POST', '/api/v1/payment/setup_intent/create', undefined],
      ['POST', '/api/v1/payment/paypal/order/create', { credits: 5000, currency: 'USD' }],
      ['POST', '/api/v1/payment/paypal/create/subscription', { plan_id: 'starter-monthly-usd' }],
    ] as const;
    for (const [method, url, payload] of calls) {
      const res = await t.call({ method, url, token: owner.token, ...(payload ? { payload } : {}) });
      expect(res.status, url).toBe(503);
      expect(res.body.error, url).toEqual({ code: 'payments_not_configured', message: PAYMENTS_NOT_CONFIGURED_MESSAGE });
    }
    expect(PAYMENTS_NOT_CONFIGURED_MESSAGE).toMatch(/^Payments are not configured/);
    // Pricing still answers (the operator's slabs), and no pending invoice was left behind.
    expect((await t.call({ method: 'GET', url: '/api/v1/price?credits=5000&currency=USD', token: owner.token })).body.data.total).toBe(40);
    expect((await t.call({ method: 'GET', url: '/api/v1/invoice/list', token: owner.token })).body.data.total).toBe(0);
  });

  it('with PAYMENTS_TEST_MODE=true the local fakes take payments again, in test mode', async () => {
    // Webhooks of the fake go to a closed loopback port (the test reads the API, not the events).
    const allowed = await createTestApp({ stripe: {}, paypal: {}, paymentsTestMode: true, configuredPublicUrl: 'http://127.0.0.1:9' });
    try {
      const o = await allowed.createOwner('testmode@billing.test');
      const info = await allowed.call({ method: 'GET', url: '/api/v1/payment/buyCredits', token: o.token });
      expect(info.body.data).toMatchObject({ configured: true, test_mode: true, providers: ['stripe', 'paypal'] });
      const started = await allowed.call({ method: 'POST', url: '/api/v1/payment/getPaymentIntent', token: o.token, payload: { credits: 1000, currency: 'USD' } });
      expect(started.status, JSON.stringify(started.body)).toBe(200);
      expect(started.body.data).toMatchObject({ test_mode: true, checkout_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/c\/pay\/cs_test_/) });
    } finally {
      await allowed.close();
    }
  });
});
