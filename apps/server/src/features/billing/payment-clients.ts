import type { TConfig } from '../../config';
import type { TPayments } from '../../platform/payments';
import { createPayPalClient } from './paypal-client';
import { createStripeGateway } from './stripe-gateway';

/**
 * The process's payment providers, built once by the composition root and shared by the billing routes and jobs (so
 * both reach the same test-mode fakes). Neither SDK is loaded, nor a fake started, until the first payment call.
 */
export function createPayments(config: TConfig): TPayments {
  return { stripe: createStripeGateway(config), paypal: createPayPalClient(config) };
}
