/**
 * PayPal's shape for the billing use cases: its hosts, the client's interface and its error. Both the client of a
 * configuration (paypal-client.ts) and the SDK behind it (paypal-sdk-client.ts) use it, so neither imports the other's
 * module for it: the client loads the SDK module on the first PayPal call, and the SDK module needs only this one.
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
