import type Stripe from 'stripe';
import { type TCurrency, type TPayment, type TPaymentProvider } from '@verilead/contracts';
import type { TDatabase } from '../../platform/db/database';
import type { TDeps } from '../../platform/deps';
import { AppError } from '../../platform/errors/app-error';
import { getOrgBalance, purchaseCredits } from '../../platform/credits/ledger';
import type { TCallerContext } from '../../platform/tenancy/context';
import { invoiceNumber, toMajor } from './pricing';
import { claimPaid, insertCustomer, insertPayment, selectCustomer, selectPayment, updatePayment, type TPaymentRow } from './queries';
import { couponRedemptions } from './tables';
import { activateSubscription } from './activate-plan';
import type { TStripeGateway } from './stripe-gateway';
import { stripeErrors } from './stripe-sdk';
import { lockCouponByCode, quotePrice } from './pricing-service';
import { getPublicBaseUrl } from '../../platform/http/public-url';

export function paymentToApi(p: TPaymentRow, planName: string | null = null): TPayment {
  return {
    id: p.id,
    number: invoiceNumber(p.number),
    provider: p.provider,
    kind: p.kind,
    status: p.status,
    credits: p.credits,
    bonus_credits: p.bonusCredits,
    currency: p.currency as TCurrency,
    subtotal: toMajor(p.subtotalMinor),
    discount: toMajor(p.discountMinor),
    tax: toMajor(p.taxMinor),
    total: toMajor(p.totalMinor),
    failure_message: p.failureMessage,
    action_url: p.status === 'requires_action' ? p.actionUrl : null,
    created_at: p.createdAt.toISOString(),
    paid_at: p.paidAt ? p.paidAt.toISOString() : null,
    plan_name: p.kind === 'plan' ? planName : null,
    period_start: p.periodStart ? p.periodStart.toISOString() : null,
    period_end: p.periodEnd ? p.periodEnd.toISOString() : null,
  };
}

/** Maps the SDK's errors to answers for people: a declined card is 400, a provider outage 502, never a 500. */
export async function callStripe<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const errors = stripeErrors();
    if (!errors) throw err;
    if (err instanceof errors.StripeCardError) throw new AppError('card_declined', err.message || 'Your card was declined.');
    if (err instanceof errors.StripeInvalidRequestError && err.code === 'resource_missing') throw new AppError('not_found', 'This card was not found.');
    if (err instanceof errors.StripeError) {
      throw new AppError('payment_provider_error', 'The payment provider could not complete the request. Please try again in a moment.');
    }
    throw err;
  }
}

/**
 * The organisation's Stripe customer, created on first use. Against a test-mode fake, each customer gets its own
 * test clock (as Stripe's docs do for testing subscriptions), so a renewal comes by advancing the clock.
 */
export async function ensureCustomer(deps: Pick<TDeps, 'database'>, gw: TStripeGateway, ctx: Pick<TCallerContext, 'orgId'>): Promise<string> {
  const db = deps.database.db;
  const existing = await selectCustomer(db, ctx.orgId);
  if (existing) return existing.providerCustomerId;
  let testClock: string | undefined;
  if (gw.testClocks) {
    const clock = await callStripe(() =>
      gw.stripe.testHelpers.testClocks.create({ frozen_time: Math.floor(Date.now() / 1000), name: `org ${ctx.orgId}` }, { idempotencyKey: `clock-${ctx.orgId}` }),
    );
    testClock = clock.id;
  }
  const customer = await callStripe(() =>
    gw.stripe.customers.create({ metadata: { org_id: ctx.orgId }, ...(testClock ? { test_clock: testClock } : {}) }, { idempotencyKey: `customer-${ctx.orgId}` }),
  );
  await insertCustomer(db, ctx.orgId, customer.id);
  return (await selectCustomer(db, ctx.orgId))!.providerCustomerId;
}

export function returnUrl(deps: TDeps, paymentId: string): string {
  return `${getPublicBaseUrl(deps.config)}/payment/thank-you?payment_id=${paymentId}`;
}

export function checkoutUrl(gw: TStripeGateway, path: string, back: string): string {
  return gw.checkoutBase ? `${gw.checkoutBase}/${path}?return_url=${encodeURIComponent(back)}` : back;
}

/**
 * A pending payment for credits at today's price (coupon included), to be paid with `provider`. With a coupon, the
 * coupon row is locked and checked again in the transaction that records the payment: an open payment holds one of
 * the coupon's `max_redemptions` until it is paid (redeemed), failed or cancelled.
 */
export async function newCreditsPayment(
  deps: Pick<TDeps, 'database'>,
  ctx: TCallerContext,
  input: { credits: number; currency: TCurrency; coupon_code?: string },
  provider: TPaymentProvider = 'stripe',
) {
  return deps.database.transaction(async (tx) => {
    if (input.coupon_code) await lockCouponByCode(tx, input.coupon_code);
    const { quote, coupon } = await quotePrice(tx, ctx.orgId, input);
    return insertPayment(tx, {
      orgId: ctx.orgId,
      userId: ctx.userId,
      provider,
      kind: 'credits',
      credits: quote.credits,
      bonusCredits: quote.bonusCredits,
      currency: quote.currency,
      subtotalMinor: quote.subtotalMinor,
      discountMinor: quote.discountMinor,
      taxMinor: quote.taxMinor,
      totalMinor: quote.totalMinor,
      couponId: coupon?.id ?? null,
    });
  });
}

export async function createIntent(gw: TStripeGateway, customer: string, payment: TPaymentRow, extra: Stripe.PaymentIntentCreateParams | object = {}) {
  return callStripe(() =>
    gw.stripe.paymentIntents.create(
      {
        amount: payment.totalMinor,
        currency: payment.currency.toLowerCase(),
        customer,
        description: `${payment.credits.toLocaleString('en-US')} Verilead credits`,
        metadata: { payment_id: payment.id, org_id: payment.orgId },
        ...extra,
      },
      { idempotencyKey: `pi-${payment.id}-${Object.keys(extra).length ? 'confirm' : 'open'}` },
    ),
  );
}

/** Marks the payment paid and adds its credits in one transaction; a second call (replay, race) adds nothing. */
export async function markPaid(database: TDatabase, paymentId: string): Promise<boolean> {
  return database.transaction(async (tx) => {
    const p = await claimPaid(tx, paymentId);
    if (!p) return false;
    const grant = await purchaseCredits(tx, {
      orgId: p.orgId,
      userId: p.userId,
      amount: p.credits + p.bonusCredits,
      reason: `Purchase ${invoiceNumber(p.number) ?? ''}`,
      objectType: 'payment',
      objectId: p.id,
    });
    await updatePayment(tx, p.id, { creditTransactionId: grant.transactionId });
    await activateSubscription(tx, p);
    if (p.couponId) await tx.insert(couponRedemptions).values({ couponId: p.couponId, orgId: p.orgId, userId: p.userId }).onConflictDoNothing();
    return true;
  });
}

export async function paymentOutcome(deps: TDeps, ctx: TCallerContext, paymentId: string, nextActionUrl: string | null) {
  const payment = await selectPayment(deps.database.db, ctx.orgId, paymentId);
  if (!payment) throw new AppError('not_found', 'Payment not found');
  return { payment: paymentToApi(payment), balance: await getOrgBalance(deps.database.db, ctx.orgId), next_action_url: nextActionUrl };
}

export async function ownPayment(deps: TDeps, ctx: TCallerContext, id: string): Promise<TPaymentRow> {
  const payment = await selectPayment(deps.database.db, ctx.orgId, id);
  if (!payment) throw new AppError('not_found', 'Payment not found');
  return payment;
}
