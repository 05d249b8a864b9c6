// The payment providers' fakes: Stripe (payments, Billing, Checkout, test clocks) and PayPal (Orders, Subscriptions).
export { signStripePayload, startFakeStripe, TEST_CARDS, type TFakeStripe, type TFakeStripeEvent, type TFakeStripeOptions } from './stripe/server';
export { startFakePayPal, type TFakePayPal, type TFakePayPalEvent, type TFakePayPalOptions } from './paypal/server';
