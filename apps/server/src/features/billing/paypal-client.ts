import type { TConfig } from '../../config';
import { paymentsNotConfigured } from './payments-not-configured';
import { getPublicBaseUrl } from '../../platform/http/public-url';
import { PAYPAL_LIVE_HOST, type TPayPalClient, type TPayPalLink } from './paypal-api';
import type { TLazyClient } from '../../platform/payments';

/**
 * PayPal for the billing use cases: the client of a configuration (its shape and errors are paypal-api.ts'). The SDK
 * behind it lives in paypal-sdk-client.ts and is loaded on the first PayPal call.
 */
export { PAYPAL_LIVE_HOST, PAYPAL_SANDBOX_HOST, PayPalApiError, type TPayPalClient, type TPayPalLink, type TPayPalOrder, type TPayPalSubscription } from './paypal-api';

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
 * The PayPal client of this configuration: credentials and PAYPAL_API_BASE, or a local fake PayPal (the composition
 * root's `config.testDoubles`) started on first use (test mode). The SDK (several hundred modules) is loaded on that
 * first use too, never by a server that takes no payment. Without credentials and with test mode not allowed (or no
 * fakes wired), it answers 503 "Payments are not configured". The composition root builds one per process.
 */
export function createPayPalClient(config: TConfig): TLazyClient<TPayPalClient> {
  let client: Promise<TPayPalClient> | null = null;
  return {
    get() {
      if (!paypalAvailable(config)) return Promise.reject(paymentsNotConfigured());
      if (!client) {
        const { clientId, clientSecret, apiBase } = config.paypal;
        const doubles = config.testDoubles;
        client =
          clientId && clientSecret && apiBase
            ? import('./paypal-sdk-client').then(({ makePayPalClient }) =>
                makePayPalClient({ base: apiBase, clientId, clientSecret, testMode: apiBase !== PAYPAL_LIVE_HOST, close: async () => undefined }),
              )
            : !doubles
              ? Promise.reject(paymentsNotConfigured())
              : Promise.all([
                  import('./paypal-sdk-client'),
                  doubles.paypal({ webhookId: FAKE_PAYPAL_WEBHOOK_ID, webhookUrl: `${getPublicBaseUrl(config)}/api/v1/payment/webhook/paypal` }),
                ]).then(([{ makePayPalClient }, fake]) =>
                  makePayPalClient({ base: fake.baseUrl, clientId: 'fake-client', clientSecret: 'fake-secret', testMode: true, close: () => fake.close() }),
                );
      }
      return client;
    },
    async close() {
      if (client) await (await client).close();
    },
  };
}

export function approveLink(list: TPayPalLink[] | undefined): string {
  return list?.find((l) => l.rel === 'approve' || l.rel === 'payer-action')?.href ?? '';
}
