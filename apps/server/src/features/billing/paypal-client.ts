import {
  ApiError,
  CheckoutPaymentIntent,
  Client,
  Environment,
  IntervalUnit,
  OrdersController,
  SubscriptionsController,
  TenureType,
  type LinkDescription,
  type Order,
  type Subscription,
} from '@paypal/paypal-server-sdk';
import type { TConfig } from '../../config';
import { startFakePayPal, type TFakePayPal } from './fake-paypal/fake-paypal-server';
import { paymentsNotConfigured } from './payments-not-configured';

/**
 * PayPal through its official server SDK (`@paypal/paypal-server-sdk`): Orders and Subscriptions with the SDK's
 * controllers and OAuth client credentials; catalog products and webhook verification (which the SDK has no
 * controller for) through the SDK's own request builder, so every call shares its authentication and error handling.
 *
 * The SDK fixes its hosts: `getBaseUri` in its `client.ts` answers `https://api-m.paypal.com` for
 * `Environment.Production`, `https://api-m.sandbox.paypal.com` for `Environment.Sandbox` and throws for anything else;
 * there is no base-URI option. Its documented extension point is the request builder's `interceptRequest` (the SDK
 * adds its user agent that way), so a Client subclass rewrites the host of each request to a configured base URL
 * (PAYPAL_API_BASE: a local fake in tests and demos); the official hosts are left untouched.
 */
export const PAYPAL_SANDBOX_HOST = 'https://api-m.sandbox.paypal.com';
export const PAYPAL_LIVE_HOST = 'https://api-m.paypal.com';

type TRequestBuilderFactory = ReturnType<Client['getRequestBuilderFactory']>;

export class BaseUrlClient extends Client {
  private rebaseFrom: string | null = null;
  private rebaseTo: string | null = null;

  /** Sends every request of this client to `base` instead of the SDK's host for its environment. */
  rebase(sdkHost: string, base: string): this {
    this.rebaseFrom = sdkHost;
    this.rebaseTo = base.replace(/\/+$/, '');
    return this;
  }

  override getRequestBuilderFactory(): TRequestBuilderFactory {
    const factory = super.getRequestBuilderFactory();
    return (...args: Parameters<TRequestBuilderFactory>) => {
      const rb = factory(...args);
      rb.interceptRequest((req) => {
        const from = this.rebaseFrom;
        const to = this.rebaseTo;
        return from && to && req.url.startsWith(from) ? { ...req, url: to + req.url.slice(from.length) } : req;
      });
      return rb;
    };
  }
}

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

/** Turns the SDK's errors into PayPalApiError (status, PayPal's issue code, its description). */
async function sdk<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof ApiError) {
      let parsed: { message?: string; details?: { issue?: string; description?: string }[] } = {};
      try {
        parsed = typeof err.body === 'string' && err.body ? (JSON.parse(err.body) as typeof parsed) : ((err.result as typeof parsed | undefined) ?? {});
      } catch {
        parsed = {};
      }
      throw new PayPalApiError(err.statusCode, parsed.details?.[0]?.issue ?? null, parsed.details?.[0]?.description ?? parsed.message ?? 'PayPal request failed');
    }
    throw err;
  }
}

function links(list: LinkDescription[] | undefined): TPayPalLink[] {
  return (list ?? []).map((l) => ({ href: l.href, rel: l.rel }));
}

function orderOf(o: Order): TPayPalOrder {
  const unit = o.purchaseUnits?.[0];
  const captured = unit?.payments?.captures?.[0]?.amount;
  const amount = captured ?? unit?.amount;
  return {
    id: o.id ?? '',
    status: o.status ?? '',
    links: links(o.links),
    customId: unit?.customId ?? null,
    amount: amount ? { currency_code: amount.currencyCode, value: amount.value } : null,
  };
}

function subscriptionOf(s: Subscription): TPayPalSubscription {
  return { id: s.id ?? '', status: s.status ?? '', plan_id: s.planId ?? '', custom_id: s.customId ?? null, links: links(s.links) };
}

export function makePayPalClient(opts: { base: string; clientId: string; clientSecret: string; testMode: boolean; close: () => Promise<void> }): TPayPalClient {
  const base = opts.base.replace(/\/+$/, '');
  const environment = base === PAYPAL_LIVE_HOST ? Environment.Production : Environment.Sandbox;
  const client = new BaseUrlClient({
    environment,
    timeout: 15_000,
    clientCredentialsAuthCredentials: { oAuthClientId: opts.clientId, oAuthClientSecret: opts.clientSecret },
  });
  if (base !== PAYPAL_LIVE_HOST && base !== PAYPAL_SANDBOX_HOST) client.rebase(PAYPAL_SANDBOX_HOST, base);
  const orders = new OrdersController(client);
  const subscriptions = new SubscriptionsController(client);
  const prefer = 'return=representation';

  /** A call the SDK has no controller for, made with its request builder (its OAuth token, its errors). */
  async function raw(path: string, body: unknown, requestId?: string): Promise<Record<string, unknown>> {
    const rb = client.getRequestBuilderFactory()('POST', path);
    rb.header('Content-Type', 'application/json');
    rb.header('Prefer', prefer);
    if (requestId) rb.header('PayPal-Request-Id', requestId);
    rb.json(body);
    rb.authenticate([{ oauth2: true }]);
    const res = await rb.callAsText();
    return res.result ? (JSON.parse(res.result) as Record<string, unknown>) : {};
  }

  return {
    testMode: opts.testMode,
    close: opts.close,
    createOrder: (input) =>
      sdk(async () =>
        orderOf(
          (
            await orders.createOrder({
              body: {
                intent: CheckoutPaymentIntent.Capture,
                purchaseUnits: [{ referenceId: input.paymentId, customId: input.paymentId, description: input.description, amount: { currencyCode: 'USD', value: input.value } }],
                applicationContext: { returnUrl: input.returnUrl, cancelUrl: input.returnUrl },
              },
              paypalRequestId: `order-${input.paymentId}`,
              prefer,
            })
          ).result,
        ),
      ),
    getOrder: (id) => sdk(async () => orderOf((await orders.getOrder({ id })).result)),
    captureOrder: (id, requestId) => sdk(async () => orderOf((await orders.captureOrder({ id, paypalRequestId: requestId, prefer, body: {} })).result)),
    createProduct: (input) => sdk(async () => ({ id: String((await raw('/v1/catalogs/products', { name: input.name, type: 'SERVICE' }, input.requestId)).id) })),
    createPlan: (input) =>
      sdk(async () => {
        const plan = await subscriptions.createBillingPlan({
          body: {
            productId: input.productId,
            name: input.name,
            billingCycles: [
              {
                frequency: { intervalUnit: input.interval === 'YEAR' ? IntervalUnit.Year : IntervalUnit.Month, intervalCount: 1 },
                tenureType: TenureType.Regular,
                sequence: 1,
                totalCycles: 0,
                pricingScheme: { fixedPrice: { value: input.value, currencyCode: input.currency } },
              },
            ],
            paymentPreferences: { autoBillOutstanding: true, paymentFailureThreshold: 1 },
          },
          paypalRequestId: input.requestId,
          prefer,
        });
        return { id: plan.result.id ?? '' };
      }),
    createSubscription: (input) =>
      sdk(async () =>
        subscriptionOf(
          (
            await subscriptions.createSubscription({
              body: { planId: input.planId, customId: input.customId, applicationContext: { returnUrl: input.returnUrl, cancelUrl: input.returnUrl } },
              paypalRequestId: input.requestId,
              prefer,
            })
          ).result,
        ),
      ),
    getSubscription: (id) => sdk(async () => subscriptionOf((await subscriptions.getSubscription({ id })).result)),
    cancelSubscription: (id, reason) =>
      sdk(async () => {
        await subscriptions.cancelSubscription({ id, body: { reason } });
      }),
    verifyWebhook: (input) => sdk(async () => String((await raw('/v1/notifications/verify-webhook-signature', input)).verification_status ?? 'FAILURE')),
  };
}

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
 * (test mode). Without credentials and with test mode not allowed, it answers 503 "Payments are not configured".
 */
export function getPayPalClient(config: TConfig): Promise<TPayPalClient> {
  if (!paypalAvailable(config)) return Promise.reject(paymentsNotConfigured());
  let client = shared.get(config);
  if (!client) {
    const { clientId, clientSecret, apiBase } = config.paypal;
    client =
      clientId && clientSecret && apiBase
        ? Promise.resolve(makePayPalClient({ base: apiBase, clientId, clientSecret, testMode: apiBase !== PAYPAL_LIVE_HOST, close: async () => undefined }))
        : startFakePayPal({ webhookId: FAKE_PAYPAL_WEBHOOK_ID, webhookUrl: `${config.publicUrl}/api/v1/payment/webhook/paypal` }).then((fake: TFakePayPal) =>
            makePayPalClient({ base: fake.baseUrl, clientId: 'fake-client', clientSecret: 'fake-secret', testMode: true, close: () => fake.close() }),
          );
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
