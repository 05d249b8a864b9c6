import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, Environment, OrdersController } from '@paypal/paypal-server-sdk';
import { startFakePayPal, type TFakePayPal } from '@verilead/test-doubles/payments';
import { PayPalApiError } from './paypal-client';
import { makePayPalClient } from './paypal-sdk-client';

describe('PayPal through its server SDK', () => {
  let fake: TFakePayPal;
  beforeAll(async () => {
    fake = await startFakePayPal({ webhookId: 'WH-SDK' });
  });
  afterAll(() => fake.close());

  it('cannot be given another host through its configuration (its getBaseUri knows only the two official hosts)', async () => {
    const client = new Client({ environment: 'Local' as Environment, clientCredentialsAuthCredentials: { oAuthClientId: 'a', oAuthClientSecret: 'b' } });
    await expect(new OrdersController(client).getOrder({ id: 'O-1' })).rejects.toThrow('Could not get Base URL. Invalid environment or server.');
  });

  it('talks to the configured base URL: OAuth, orders, plans and subscriptions, with PayPal’s errors', async () => {
    const paypal = makePayPalClient({ base: fake.baseUrl, clientId: 'sdk-client', clientSecret: 'sdk-secret', testMode: true, close: async () => undefined });
    const order = await paypal.createOrder({ paymentId: 'pay-1', description: '1000 credits', value: '8.00', returnUrl: 'http://127.0.0.1:1/back' });
    expect(order).toMatchObject({ status: 'CREATED', customId: 'pay-1', amount: { currency_code: 'USD', value: '8.00' } });
    expect(order.links.find((l) => l.rel === 'approve')?.href).toContain(`${fake.baseUrl}/checkoutnow?token=`);
    // The same PayPal-Request-Id answers the same order.
    const again = await paypal.createOrder({ paymentId: 'pay-1', description: '1000 credits', value: '8.00', returnUrl: 'http://127.0.0.1:1/back' });
    expect(again.id).toBe(order.id);
    const early = await paypal.captureOrder(order.id, 'cap-1').catch((e: unknown) => e);
    expect(early).toBeInstanceOf(PayPalApiError);
    expect(early).toMatchObject({ status: 422, issue: 'ORDER_NOT_APPROVED' });
    const missing = await paypal.getOrder('O-NOPE').catch((e: unknown) => e);
    expect(missing).toMatchObject({ status: 404 });

    const product = await paypal.createProduct({ name: 'Verilead Starter', requestId: 'prod-1' });
    const plan = await paypal.createPlan({ productId: product.id, name: 'Starter', interval: 'MONTH', value: '48.00', currency: 'USD', requestId: 'plan-1' });
    const sub = await paypal.createSubscription({ planId: plan.id, customId: 'pay-2', returnUrl: 'http://127.0.0.1:1/back', requestId: 'sub-1' });
    expect(sub).toMatchObject({ status: 'APPROVAL_PENDING', plan_id: plan.id, custom_id: 'pay-2' });
    expect((await paypal.getSubscription(sub.id)).status).toBe('APPROVAL_PENDING');
    expect(await paypal.verifyWebhook({ transmission_id: 'x', transmission_sig: 'y', webhook_id: 'WH-SDK', webhook_event: { id: 'WH-1' } })).toBe('FAILURE');
  });
});
