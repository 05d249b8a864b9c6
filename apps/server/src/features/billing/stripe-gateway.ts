import { createHash } from 'node:crypto';
import type Stripe from 'stripe';
import type { TConfig } from '../../config';
import { paymentsNotConfigured } from './payments-not-configured';
import { loadStripeSdk } from './stripe-sdk';
import { getPublicBaseUrl } from '../../platform/http/public-url';
import type { TLazyClient, TStripeGateway } from '../../platform/payments';
import type { TStandIn } from '../../platform/test-doubles';

export type { TStripeGateway } from '../../platform/payments';

export const STRIPE_WEBHOOK_PATH = '/api/v1/payment/webhook/stripe';

/** Card payments can be taken: Stripe keys are set, or the local fake may stand in (test mode). */
export function stripeAvailable(config: TConfig): boolean {
  return Boolean(config.stripe.secretKey) || config.paymentsTestMode;
}

async function sdkFor(key: string, apiBase?: string): Promise<Stripe> {
  const Stripe = await loadStripeSdk();
  if (!apiBase) return new Stripe(key, { maxNetworkRetries: 2, telemetry: false });
  const url = new URL(apiBase);
  return new Stripe(key, {
    host: url.hostname,
    port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
    protocol: url.protocol === 'https:' ? 'https' : 'http',
    maxNetworkRetries: 0,
    telemetry: false,
  });
}

/**
 * Builds the gateway from configuration: the official SDK on the configured keys (and base URL), or, with no
 * keys, the SDK pointed at a local fake Stripe (the composition root's `config.testDoubles`) started on 127.0.0.1 that
 * posts signed webhooks to this server. The SDK is loaded and the fake started on first use, so processes that never
 * take a payment hold neither. With no keys and test mode not allowed (`config.paymentsTestMode`) or no fakes wired,
 * every payment call answers 503 "Payments are not configured".
 */
export function createStripeGateway(config: TConfig): TLazyClient<TStripeGateway> {
  let pending: Promise<TStripeGateway> | null = null;
  let fake: TStandIn | null = null;
  const build = async (): Promise<TStripeGateway> => {
    const { secretKey, apiBase } = config.stripe;
    if (secretKey) {
      return {
        stripe: await sdkFor(secretKey, apiBase),
        testMode: secretKey.startsWith('sk_test_'),
        checkoutBase: apiBase ?? null,
        webhookSecret: config.stripe.webhookSecret ?? '',
        testClocks: secretKey.startsWith('sk_test_') && Boolean(apiBase && /^http:\/\/(127\.0\.0\.1|localhost)[:/]/.test(apiBase)),
        close: async () => undefined,
      };
    }
    const doubles = config.testDoubles;
    if (!config.paymentsTestMode || !doubles) throw paymentsNotConfigured();
    const webhookSecret = `whsec_${createHash('sha256').update(`stripe-fake:${config.appSecret}`).digest('hex').slice(0, 32)}`;
    fake = await doubles.stripe({ webhookSecret, webhookUrl: `${getPublicBaseUrl(config)}${STRIPE_WEBHOOK_PATH}` });
    return { stripe: await sdkFor('sk_test_local_fake', fake.baseUrl), testMode: true, checkoutBase: fake.baseUrl, webhookSecret, testClocks: true, close: () => fake!.close() };
  };
  return {
    get() {
      pending ??= build();
      return pending;
    },
    async close() {
      if (fake) await fake.close();
    },
  };
}
