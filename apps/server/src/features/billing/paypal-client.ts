import type { TConfig } from '../../config';
import { paymentsNotConfigured } from './payments-not-configured';
import { getPublicBaseUrl } from '../../platform/http/public-url';

/**
 * PayPal for the billing use cases: the client's shape, its errors, and the client of a configuration. The SDK behind
 * it lives in paypal-sdk-client.ts and is loaded on the first PayPal call.
 */
export const PAYPAL_SANDBOX_HOST = 'https://api-m.sandbox.paypal.com';
export const PAYPAL_LIVE_HOST = 'https://api-m.paypal.com';

export class PayPalApiError extends Error {
  constructor(
    public status: number,
    public issue: string | null,
    message: string,
  ) {
    super(message);
  }
}

export type TPayPalLink = { href: string; rel: string };
export type TPayPalOrder = { id: string; status: string; links: TPayPalLink[]; customId: string | null; amount: { currency_code: string; value: string } | null };
export type TPayPalSubscription = { id: string; status: string; plan_id: string; custom_id: string | null; links: TPayPalLink[] };

export type TPayPalClient = {
  testMode: boolean;
  createOrder(input: { paymentId: string; description: string; value: string; returnUrl: string }): Promise<TPayPalOrder>;
  getOrder(id: string): Promise<TPayPalOrder>;
  captureOrder(id: string, requestId: string): Promise<TPayPalOrder>;
  createProduct(input: { name: string; requestId: string }): Promise<{ id: string }>;
  createPlan(input: { productId: string; name: string; interval: 'MONTH' | 'YEAR'; value: string; currency: string; requestId: string }): Promise<{ id: string }>;
  createSubscription(input: { planId: string; customId: string; returnUrl: string; requestId: string }): Promise<TPayPalSubscription>;
  getSubscription(id: string): Promise<TPayPalSubscription>;
  cancelSubscription(id: string, reason: string): Promise<void>;
  verifyWebhook(input: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
};

const shared = new WeakMap<TConfig, Promise<TPayPalClient>>();

export const FAKE_PAYPAL_WEBHOOK_ID = 'WH-LOCAL-FAKE';

/** The webhook id events are verified against: the configured one, or the local fake's. */
export function getPayPalWebhookId(config: TConfig): string {
  return config.paypal.clientId && config.paypal.apiBase ? (config.paypal.webhookId ?? '') : FAKE_PAYPAL_WEBHOOK_ID;
}

/** PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET and PAYPAL_API_BASE are all set. */
export function paypalConfigured(config: TConfig): boolean {
  return Boolean(config.paypal.clientId && config.paypal.clientSecret && config.paypal.apiBase);
}

/** PayPal payments can be taken: its keys are set, or the local fake may stand in (test mode). */
export function paypalAvailable(config: TConfig): boolean {
  return paypalConfigured(config) || config.paymentsTestMode;
}

/** PayPal runs against the sandbox or the local fake: no money moves. */
export function paypalTestMode(config: TConfig): boolean {
  return !paypalConfigured(config) || config.paypal.apiBase !== PAYPAL_LIVE_HOST;
}

/**
 * The PayPal client of this configuration: credentials and PAYPAL_API_BASE, or a local fake PayPal started on first use
 * (test mode). The SDK (several hundred modules) is loaded on that first use too, never by a server that takes no payment.
 * Without credentials and with test mode not allowed, it answers 503 "Payments are not configured".
 */
export function getPayPalClient(config: TConfig): Promise<TPayPalClient> {
  if (!paypalAvailable(config)) return Promise.reject(paymentsNotConfigured());
  let client = shared.get(config);
  if (!client) {
    const { clientId, clientSecret, apiBase } = config.paypal;
    client =
      clientId && clientSecret && apiBase
        ? import('./paypal-sdk-client').then(({ makePayPalClient }) =>
            makePayPalClient({ base: apiBase, clientId, clientSecret, testMode: apiBase !== PAYPAL_LIVE_HOST, close: async () => undefined }),
          )
        : Promise.all([import('./paypal-sdk-client'), import('./fake-paypal/fake-paypal-server')]).then(async ([{ makePayPalClient }, { startFakePayPal }]) => {
            const fake = await startFakePayPal({ webhookId: FAKE_PAYPAL_WEBHOOK_ID, webhookUrl: `${getPublicBaseUrl(config)}/api/v1/payment/webhook/paypal` });
            return makePayPalClient({ base: fake.baseUrl, clientId: 'fake-client', clientSecret: 'fake-secret', testMode: true, close: () => fake.close() });
          });
    shared.set(config, client);
  }
  return client;
}

export async function closePayPalClient(config: TConfig) {
  const client = shared.get(config);
  if (client) await (await client).close();
}

export function approveLink(list: TPayPalLink[] | undefined): string {
  return list?.find((l) => l.rel === 'approve' || l.rel === 'payer-action')?.href ?? '';
}
