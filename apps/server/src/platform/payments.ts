import type Stripe from 'stripe';

/**
 * The payment providers as the product sees them: the shapes of the Stripe gateway and the PayPal client the
 * composition root builds once (features/billing's `createPayments`) and hands over in the dependency record. They
 * live below the features so the record (platform/deps.ts) can name them; billing builds and uses them.
 */

/** The Stripe client the payments module uses, with where its browser pages live and how webhooks are verified. */
export type TStripeGateway = {
  stripe: Stripe;
  /** True with test keys or the built-in fake: the screens say "test mode". */
  testMode: boolean;
  /** Base of the test checkout pages (the fake's), or null with live keys. */
  checkoutBase: string | null;
  webhookSecret: string;
  /** Customers get a test clock (a local test-mode fake only): subscriptions renew when the clock is advanced. */
  testClocks: boolean;
  close(): Promise<void>;
};

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

/** A provider's client, built on first use (its SDK loaded, a test-mode fake started then), then the same one. */
export type TLazyClient<T> = { get(): Promise<T>; close(): Promise<void> };

/** Stripe and PayPal, one of each per process: the routes and the jobs share them (and so the same test-mode fakes). */
export type TPayments = {
  stripe: TLazyClient<TStripeGateway>;
  paypal: TLazyClient<TPayPalClient>;
};
