import { AppError } from '../../platform/errors/app-error';

export const PAYMENTS_NOT_CONFIGURED_MESSAGE = 'Payments are not configured on this server. Please ask the operator to set up Stripe or PayPal.';

/** The answer to a payment call when its provider has no keys and test mode is not allowed (NODE_ENV=production). */
export function paymentsNotConfigured(): AppError {
  return new AppError('payments_not_configured', PAYMENTS_NOT_CONFIGURED_MESSAGE);
}
