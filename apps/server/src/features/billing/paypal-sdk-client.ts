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
import { PAYPAL_LIVE_HOST, PAYPAL_SANDBOX_HOST, PayPalApiError, type TPayPalClient, type TPayPalLink, type TPayPalOrder, type TPayPalSubscription } from './paypal-api';

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

