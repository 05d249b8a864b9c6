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

// The client's shape is the platform's (platform/payments.ts): the dependency record names it.
export type { TPayPalClient, TPayPalLink, TPayPalOrder, TPayPalSubscription } from '../../platform/payments';
