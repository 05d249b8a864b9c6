import { startFakePayPal, startFakeStripe, type TFakePayPal, type TFakeStripe } from '@verilead/test-doubles/payments';
import { createTestApp, type TTestApp } from '../../test/test-app';

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
