import type { TDeps } from '../../platform/deps';
import type Stripe from 'stripe';
import { MAX_PURCHASE_CREDITS, MIN_PURCHASE_CREDITS, type TCurrency } from '@verilead/contracts';
import type { TDatabase } from '../../platform/db/database';
import { AppError } from '../../platform/errors/app-error';
import { getOrgBalance } from '../../platform/credits/ledger';
import type { TCallerContext } from '../../platform/tenancy/context';
import { selectCustomer, selectPayment, selectPaymentByRef, updatePayment, updateUnpaidStatus, type TPaymentRow } from './queries';
import { paymentsNotConfigured } from './payments-not-configured';
import { paypalAvailable, paypalTestMode } from './paypal-client';
import { stripeAvailable, type TStripeGateway } from './stripe-gateway';
import { stripeErrors } from './stripe-sdk';
import { callStripe, checkoutUrl, createIntent, ensureCustomer, markPaid, newCreditsPayment, ownPayment, paymentOutcome, paymentToApi, returnUrl } from './payments';
import { getPublicBaseUrl } from '../../platform/http/public-url';

/** Buying credits with Stripe: the Checkout Session, a saved card, a pending invoice, and settling what the provider says. */
/**
 * POST /payment/getPaymentIntent: a payment and its Stripe Checkout Session; the browser pays on the session's hosted
 * page (checkout.stripe.com with live keys, the fake's page in test mode: one code path) and comes back to the
 * thank-you page. The session's PaymentIntent carries the payment id.
 */
export async function createPaymentIntent(deps: TDeps, ctx: TCallerContext, input: { credits: number; currency: TCurrency; coupon_code?: string }) {
  const gw = await deps.payments.stripe.get();
  const customer = await ensureCustomer(deps, gw, ctx);
  const payment = await newCreditsPayment(deps, ctx, input);
  const description = `${payment.credits.toLocaleString('en-US')} Verilead credits`;
  const metadata = { payment_id: payment.id, org_id: payment.orgId };
  const session = await callStripe(() =>
    gw.stripe.checkout.sessions.create(
      {
        mode: 'payment',
        customer,
        client_reference_id: payment.id,
        line_items: [{ quantity: 1, price_data: { currency: payment.currency.toLowerCase(), unit_amount: payment.totalMinor, product_data: { name: description } } }],
        success_url: `${returnUrl(deps, payment.id)}&session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: `${getPublicBaseUrl(deps.config)}/pricing`,
        metadata,
        payment_intent_data: { description, metadata },
      },
      { idempotencyKey: `cs-${payment.id}` },
    ),
  );
  await updatePayment(deps.database.db, payment.id, { providerRef: session.id });
  return { payment: paymentToApi(payment), client_secret: session.client_secret ?? '', checkout_url: session.url ?? returnUrl(deps, payment.id), test_mode: gw.testMode };
}

export function isCheckoutSession(ref: string | null): ref is string {
  return Boolean(ref?.startsWith('cs_'));
}

/**
 * Brings a payment in line with its Checkout Session: paid (for exactly its amount and currency) grants the credits
 * once; an unpaid session whose card was refused records the refusal.
 */
export async function syncCheckoutSession(database: TDatabase, gw: TStripeGateway, session: Stripe.Checkout.Session): Promise<TPaymentRow | null> {
  const db = database.db;
  const payment = await selectPaymentByRef(db, 'stripe', session.id);
  if (!payment) return null;
  if (session.amount_total !== payment.totalMinor || session.currency?.toUpperCase() !== payment.currency) return payment;
  if (session.payment_status === 'paid') await markPaid(database, payment.id);
  else if (session.status === 'expired') await updateUnpaidStatus(db, payment.id, 'cancelled', null);
  else if (session.payment_intent) {
    const pi = typeof session.payment_intent === 'string' ? await gw.stripe.paymentIntents.retrieve(session.payment_intent) : session.payment_intent;
    if (pi.status === 'requires_action') await updateUnpaidStatus(db, payment.id, 'requires_action', null);
    else if (pi.last_payment_error) await updateUnpaidStatus(db, payment.id, 'failed', pi.last_payment_error.message ?? 'The payment failed.');
  }
  return selectPayment(db, payment.orgId, payment.id);
}

/** Brings a payment in line with its PaymentIntent; credits are granted once, when it first becomes paid. */
export async function syncPaymentIntent(database: TDatabase, pi: Stripe.PaymentIntent): Promise<TPaymentRow | null> {
  const db = database.db;
  const payment = await selectPaymentByRef(db, 'stripe', pi.id);
  if (!payment) return null;
  // Only an intent for exactly this payment's amount and currency pays it.
  if (pi.amount !== payment.totalMinor || pi.currency.toUpperCase() !== payment.currency) return payment;
  if (pi.status === 'succeeded') await markPaid(database, payment.id);
  else if (pi.status === 'requires_action') await updateUnpaidStatus(db, payment.id, 'requires_action', null);
  else if (pi.status === 'canceled') await updateUnpaidStatus(db, payment.id, 'cancelled', null);
  else if (pi.status === 'requires_payment_method' && pi.last_payment_error) {
    await updateUnpaidStatus(db, payment.id, 'failed', pi.last_payment_error.message ?? 'The payment failed.');
  }
  return selectPayment(db, payment.orgId, payment.id);
}

/** Runs a confirm call; a declined card marks the payment failed (from the intent) before answering 400. */
export async function confirmWith(deps: TDeps, gw: TStripeGateway, payment: TPaymentRow, call: () => Promise<Stripe.PaymentIntent>) {
  try {
    const pi = await call();
    await syncPaymentIntent(deps.database, pi);
    return pi;
  } catch (err) {
    const errors = stripeErrors();
    if (errors && err instanceof errors.StripeCardError && payment.providerRef) {
      const pi = await callStripe(() => gw.stripe.paymentIntents.retrieve(payment.providerRef!));
      await syncPaymentIntent(deps.database, pi);
      if (err.code === 'authentication_required') return pi;
    }
    return callStripe(() => Promise.reject(err));
  }
}

/** POST /payment/confirmPaymentIntent: pays a payment (or a pending invoice) with a given card, on session. */
export async function confirmPaymentIntent(deps: TDeps, ctx: TCallerContext, input: { payment_id: string; payment_method: string }) {
  let payment = await ownPayment(deps, ctx, input.payment_id);
  if (payment.status === 'paid') return paymentOutcome(deps, ctx, payment.id, null);
  if (payment.status === 'cancelled') throw new AppError('conflict', 'This payment was cancelled.');
  if (payment.provider !== 'stripe') throw new AppError('conflict', 'This payment is made with PayPal: finish it on the PayPal page.');
  const gw = await deps.payments.stripe.get();
  const customer = await ensureCustomer(deps, gw, ctx);
  if (isCheckoutSession(payment.providerRef)) {
    // Paid with a card here instead of on the checkout page: that page closes first.
    const ref = payment.providerRef;
    const session = await callStripe(() => gw.stripe.checkout.sessions.retrieve(ref));
    if (session.payment_status === 'paid') {
      await syncCheckoutSession(deps.database, gw, session);
      return paymentOutcome(deps, ctx, payment.id, null);
    }
    if (session.status === 'open') await callStripe(() => gw.stripe.checkout.sessions.expire(ref));
    payment = { ...payment, providerRef: null };
  }
  if (!payment.providerRef) {
    const pi = await createIntent(gw, customer, payment);
    await updatePayment(deps.database.db, payment.id, { providerRef: pi.id });
    payment = { ...payment, providerRef: pi.id };
  }
  const ref = payment.providerRef!;
  const pi = await confirmWith(deps, gw, payment, () =>
    gw.stripe.paymentIntents.confirm(ref, { payment_method: input.payment_method, return_url: returnUrl(deps, payment.id) }),
  );
  return paymentOutcome(deps, ctx, payment.id, pi.status === 'requires_action' ? (pi.next_action?.redirect_to_url?.url ?? null) : null);
}

/** POST /payment/buy: buys credits with the default card at once (off session). */
export async function buyWithDefaultCard(deps: TDeps, ctx: TCallerContext, input: { credits: number; currency: TCurrency; coupon_code?: string }) {
  const gw = await deps.payments.stripe.get();
  const customer = await ensureCustomer(deps, gw, ctx);
  const saved = await selectCustomer(deps.database.db, ctx.orgId);
  if (!saved?.defaultPaymentMethod) throw new AppError('conflict', 'Add a card first: there is no default card to charge.');
  const payment = await newCreditsPayment(deps, ctx, input);
  const pi = await createIntent(gw, customer, payment);
  await updatePayment(deps.database.db, payment.id, { providerRef: pi.id });
  const confirmed = await confirmWith(deps, gw, { ...payment, providerRef: pi.id }, () =>
    gw.stripe.paymentIntents.confirm(pi.id, { payment_method: saved.defaultPaymentMethod!, off_session: true }),
  );
  // The bank asks for authentication: the owner finishes the payment on the checkout page.
  const next = confirmed.status === 'succeeded' ? null : checkoutUrl(gw, `checkout/${pi.id}`, returnUrl(deps, payment.id));
  return paymentOutcome(deps, ctx, payment.id, next);
}

/** POST /payment/buy/request: a pending invoice to pay later (listed with the pending invoices). */
export async function requestInvoice(deps: TDeps, ctx: TCallerContext, input: { credits: number; currency: TCurrency; coupon_code?: string }) {
  if (!stripeAvailable(deps.config)) throw paymentsNotConfigured();
  const payment = await newCreditsPayment(deps, ctx, input);
  return paymentToApi(payment);
}

/** POST /payment/confirm: after the checkout page, asks the provider and settles the payment (idempotent). */
export async function confirmPayment(deps: TDeps, ctx: TCallerContext, input: { payment_id: string }) {
  const payment = await ownPayment(deps, ctx, input.payment_id);
  if (payment.provider === 'stripe' && isCheckoutSession(payment.providerRef) && payment.status !== 'paid') {
    const gw = await deps.payments.stripe.get();
    const ref = payment.providerRef;
    await syncCheckoutSession(deps.database, gw, await callStripe(() => gw.stripe.checkout.sessions.retrieve(ref)));
  } else if (payment.provider === 'stripe' && payment.providerRef?.startsWith('pi_') && payment.status !== 'paid') {
    const gw = await deps.payments.stripe.get();
    const pi = await callStripe(() => gw.stripe.paymentIntents.retrieve(payment.providerRef!));
    await syncPaymentIntent(deps.database, pi);
  }
  return paymentOutcome(deps, ctx, payment.id, null);
}

/** PATCH /payment/cancel: cancels an unpaid payment or pending invoice. */
export async function cancelPayment(deps: TDeps, ctx: TCallerContext, input: { payment_id: string }) {
  const payment = await ownPayment(deps, ctx, input.payment_id);
  if (payment.status === 'paid') throw new AppError('conflict', 'This payment is already paid and cannot be cancelled.');
  if (payment.provider === 'stripe' && isCheckoutSession(payment.providerRef) && payment.status !== 'cancelled') {
    const gw = await deps.payments.stripe.get();
    const ref = payment.providerRef;
    const session = await callStripe(() => gw.stripe.checkout.sessions.retrieve(ref));
    if (session.payment_status === 'paid') {
      await syncCheckoutSession(deps.database, gw, session);
      throw new AppError('conflict', 'This payment is already paid and cannot be cancelled.');
    }
    if (session.status === 'open') await callStripe(() => gw.stripe.checkout.sessions.expire(ref));
  } else if (payment.provider === 'stripe' && payment.providerRef?.startsWith('pi_') && payment.status !== 'cancelled') {
    const gw = await deps.payments.stripe.get();
    const pi = await callStripe(() => gw.stripe.paymentIntents.retrieve(payment.providerRef!));
    if (pi.status === 'succeeded') {
      await syncPaymentIntent(deps.database, pi);
      throw new AppError('conflict', 'This payment is already paid and cannot be cancelled.');
    }
    if (pi.status !== 'canceled') await callStripe(() => gw.stripe.paymentIntents.cancel(pi.id));
  }
  await updateUnpaidStatus(deps.database.db, payment.id, 'cancelled', null);
  return paymentOutcome(deps, ctx, payment.id, null);
}

export async function getBuyCreditsInfo(deps: TDeps, ctx: TCallerContext) {
  const stripe = stripeAvailable(deps.config);
  const paypal = paypalAvailable(deps.config);
  const gw = stripe ? await deps.payments.stripe.get() : null;
  const saved = await selectCustomer(deps.database.db, ctx.orgId);
  return {
    configured: stripe || paypal,
    test_mode: Boolean(gw?.testMode) || (paypal && paypalTestMode(deps.config)),
    providers: [...(stripe ? (['stripe'] as const) : []), ...(paypal ? (['paypal'] as const) : [])],
    currencies: ['USD' as const, 'INR' as const],
    min_credit: MIN_PURCHASE_CREDITS,
    max_credit: MAX_PURCHASE_CREDITS,
    tax_percent: { USD: 0, INR: 18 },
    has_card: Boolean(saved?.defaultPaymentMethod),
    balance: await getOrgBalance(deps.database.db, ctx.orgId),
  };
}
