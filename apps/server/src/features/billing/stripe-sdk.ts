import type Stripe from 'stripe';

/**
 * The Stripe SDK, loaded on the first payment call: it is about 200 modules, and a server that takes no payment never
 * loads it. Its error classes are read through `stripeErrors()`; before the SDK is loaded no error can be one of them.
 */
let sdk: typeof Stripe | null = null;

export async function loadStripeSdk(): Promise<typeof Stripe> {
  sdk ??= (await import('stripe')).default;
  return sdk;
}

/** The SDK's error classes, or null while no Stripe call has been made in this process. */
export function stripeErrors(): typeof Stripe.errors | null {
  return sdk?.errors ?? null;
}
