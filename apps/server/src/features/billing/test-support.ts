import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { ZPaymentIntentResponse } from '@verilead/contracts';
import { startFakePayPal, startFakeStripe, type TFakePayPal, type TFakeStripe } from '@verilead/test-doubles/payments';
import { creditTransactions } from '../../platform/credits/tables';
import { createTestApp, TEST_PASSWORD, type TTestApp } from '../../test/test-app';

export const TEST_WEBHOOK_SECRET = 'whsec_test_billing';

/** A test app whose Stripe SDK talks to a local fake Stripe; the fake hands its signed webhooks to the app in-process. */
export async function createBillingTestApp(): Promise<{ t: TTestApp; fake: TFakeStripe; paypal: TFakePayPal }> {
  let app: TTestApp | null = null;
  const fake = await startFakeStripe({
    webhookSecret: TEST_WEBHOOK_SECRET,
    deliver: async (event) => {
      if (!app) return;
      await app.app.inject({ method: 'POST', url: '/api/v1/payment/webhook/stripe', headers: { 'content-type': 'application/json', 'stripe-signature': event.header }, payload: event.body });
    },
  });
  const paypal = await startFakePayPal({
    webhookId: 'WH-TEST',
    deliver: async (event) => {
      if (!app) return;
      await app.app.inject({ method: 'POST', url: '/api/v1/payment/webhook/paypal', headers: { 'content-type': 'application/json', ...event.headers }, payload: event.body });
    },
  });
  app = await createTestApp({
    stripe: { secretKey: 'sk_test_billing', apiBase: fake.baseUrl, webhookSecret: TEST_WEBHOOK_SECRET },
    paypal: { clientId: 'test-client', clientSecret: 'test-secret', apiBase: paypal.baseUrl, webhookId: 'WH-TEST' },
  });
  return { t: app, fake, paypal };
}

/**
 * What a browser does on the fake's checkout page: picks a test card and, when asked, passes or fails authentication;
 * after authentication the browser comes back to the checkout page, which sends it on (or shows the error).
 */
export async function payOnCheckout(checkoutUrl: string, card: string, authenticate: 'complete' | 'fail' = 'complete'): Promise<{ status: number; location: string | null; text: string }> {
  const res = await fetch(checkoutUrl, { method: 'POST', body: new URLSearchParams({ payment_method: card }), redirect: 'manual' });
  let location = res.headers.get('location');
  if (location && location.includes('/authenticate/')) {
    const auth = await fetch(location, { method: 'POST', body: new URLSearchParams({ outcome: authenticate }), redirect: 'manual' });
    location = auth.headers.get('location');
    if (location && location.startsWith(new URL(checkoutUrl).origin)) {
      const back = await fetch(location, { redirect: 'manual' });
      return { status: back.status, location: back.headers.get('location'), text: await back.text() };
    }
    return { status: auth.status, location, text: await auth.text() };
  }
  return { status: res.status, location, text: await res.text() };
}

export type TBillingOwner = { token: string; userId: string; orgId: string };

/** The billing API tests' world: the app with its fake Stripe and PayPal, two organisations' owners and the first one's admin. */
export type TBillingWorld = { t: TTestApp; fake: TFakeStripe; paypal: TFakePayPal; owner: TBillingOwner; stranger: TBillingOwner; manager: { token: string }; close: () => Promise<void> };

export async function startBillingWorld(): Promise<TBillingWorld> {
  const { t, fake, paypal } = await createBillingTestApp();
  const owner = await t.createOwner('owner@billing.test');
  const stranger = await t.createOwner('stranger@billing.test');
  const invited = await t.call({ method: 'POST', url: '/api/v1/admin/member/add', token: owner.token, payload: { email: 'manager@billing.test', name: 'Manager', role: 'admin' } });
  expect(invited.status, JSON.stringify(invited.body)).toBe(200);
  const setup = await t.mailedToken('manager@billing.test', '/setup_password');
  await t.call({ method: 'POST', url: '/api/v1/user/password/setup', payload: { token: setup, password: TEST_PASSWORD } });
  const l = await t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email: 'manager@billing.test', password: TEST_PASSWORD } });
  const manager = { token: l.body.data.token };
  return {
    t,
    fake,
    paypal,
    owner,
    stranger,
    manager,
    close: async () => {
      await t.close();
      await fake.close();
      await paypal.close();
    },
  };
}

/** The calls the billing API tests make again and again, on the app `app()` answers (set once the world started). */
export function billingCalls(app: () => TTestApp) {
  const balance = async (o: TBillingOwner) => (await app().call({ method: 'GET', url: '/api/v1/user/credits_and_limits', token: o.token })).body.data.org_credits as number;
  const purchases = async (o: TBillingOwner) =>
    app()
      .db.db.select()
      .from(creditTransactions)
      .where(and(eq(creditTransactions.orgId, o.orgId), eq(creditTransactions.kind, 'purchase')));
  const startPayment = async (o: TBillingOwner, payload: Record<string, unknown> = { credits: 5000, currency: 'USD' }) => {
    const res = await app().call({ method: 'POST', url: '/api/v1/payment/getPaymentIntent', token: o.token, payload });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return ZPaymentIntentResponse.parse(res.body).data;
  };
  const confirm = async (o: TBillingOwner, paymentId: string) => {
    const res = await app().call({ method: 'POST', url: '/api/v1/payment/confirm', token: o.token, payload: { payment_id: paymentId } });
    return res;
  };
  return { balance, purchases, startPayment, confirm };
}
