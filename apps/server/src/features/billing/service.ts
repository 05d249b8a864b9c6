import Stripe from 'stripe';
import { and, count, eq } from 'drizzle-orm';
import {
  MAX_PURCHASE_CREDITS,
  MIN_PURCHASE_CREDITS,
  ZCardBrand,
  type TCard,
  type TCurrency,
  type TPayment,
  type TPaymentProvider,
  type TPaymentStatus,
  type TPlan,
  type TPriceQuote,
} from '@verilead/contracts';
import type { TDatabase, TDb } from '../../platform/db/database';
import type { TDeps } from '../../platform/deps';
import { AppError } from '../../platform/errors/app-error';
import { getOrgBalance, grantCredits, purchaseCredits } from '../../platform/credits/ledger';
import type { TCallerContext } from '../../platform/tenancy/context';
import { compareAnnual, computeQuote, findSlab, microsToMajor, toMajor, type TQuoteMinor } from './pricing';
import {
  claimPaid,
  insertCustomer,
  insertPayment,
  selectCouponByCode,
  selectCustomer,
  selectPayment,
  selectPaymentByRef,
  selectPaymentsPage,
  selectPlans,
  selectSlabs,
  setDefaultPaymentMethod,
  updatePayment,
  updateUnpaidStatus,
  type TCouponRow,
  type TPaymentRow,
} from './queries';
import { couponRedemptions } from './tables';
import { renderInvoicePdf } from './invoice-pdf';
import { activateSubscription } from './subscriptions';
import { organisations, users } from '../../platform/tenancy/tables';
import type { TStripeGateway } from './stripe-gateway';

export type TBillingDeps = TDeps & { gateway: { get(): Promise<TStripeGateway> } };

// ---------- pricing ----------

export async function getSlabs(db: TDb, currency: TCurrency) {
  const slabs = await selectSlabs(db, currency);
  return {
    currency,
    min_credit: slabs[0]?.minCredits ?? MIN_PURCHASE_CREDITS,
    slabs: slabs.map((s) => ({
      id: s.id,
      currency: s.currency,
      min_credits: s.minCredits,
      max_credits: s.maxCredits,
      unit_price: microsToMajor(s.unitPriceMicros),
      kind: s.kind,
      bonus_percent: s.bonusPercent,
    })),
  };
}

function quoteToApi(q: TQuoteMinor, couponCode: string | null): TPriceQuote {
  return {
    currency: q.currency,
    credits: q.credits,
    bonus_credits: q.bonusCredits,
    kind: q.kind,
    unit_price: microsToMajor(q.unitPriceMicros),
    subtotal: toMajor(q.subtotalMinor),
    discount: toMajor(q.discountMinor),
    tax: toMajor(q.taxMinor),
    tax_percent: q.currency === 'INR' ? 18 : 0,
    total: toMajor(q.totalMinor),
    coupon_code: couponCode,
  };
}

async function slabFor(db: TDb, currency: TCurrency, credits: number) {
  const slab = findSlab(await selectSlabs(db, currency), credits);
  if (!slab) throw new AppError(400, 'validation_failed', `No price is set for ${credits.toLocaleString('en-US')} credits in ${currency}.`);
  return slab;
}

/** A percent coupon the organisation may still use on a purchase (400 with a readable reason otherwise). */
async function usablePercentCoupon(db: TDb, orgId: string, code: string): Promise<TCouponRow> {
  const coupon = await checkCoupon(db, orgId, code);
  if (coupon.kind !== 'percent') throw new AppError(400, 'validation_failed', 'This coupon gives free credits: apply it on the coupons page.');
  return coupon;
}

async function checkCoupon(db: TDb, orgId: string, code: string): Promise<TCouponRow> {
  const coupon = await selectCouponByCode(db, code);
  if (!coupon || !coupon.active) throw new AppError(400, 'validation_failed', 'This coupon code is not valid.');
  if (coupon.expiresAt && coupon.expiresAt.getTime() < Date.now()) throw new AppError(400, 'validation_failed', 'This coupon has expired.');
  const used = await db.select({ n: count() }).from(couponRedemptions).where(eq(couponRedemptions.couponId, coupon.id));
  const own = await db
    .select({ id: couponRedemptions.id })
    .from(couponRedemptions)
    .where(and(eq(couponRedemptions.couponId, coupon.id), eq(couponRedemptions.orgId, orgId)))
    .limit(1);
  if (own.length > 0) throw new AppError(409, 'conflict', 'Your organisation has already used this coupon.');
  if (coupon.maxRedemptions !== null && (used[0]?.n ?? 0) >= coupon.maxRedemptions) throw new AppError(400, 'validation_failed', 'This coupon has been fully used.');
  return coupon;
}

export async function quotePrice(db: TDb, orgId: string, input: { credits: number; currency: TCurrency; coupon_code?: string }) {
  const slab = await slabFor(db, input.currency, input.credits);
  const coupon = input.coupon_code ? await usablePercentCoupon(db, orgId, input.coupon_code) : null;
  return { quote: computeQuote(slab, input.credits, coupon?.value ?? 0), coupon };
}

export async function getPrice(db: TDb, ctx: TCallerContext, input: { credits: number; currency: TCurrency; coupon_code?: string }): Promise<TPriceQuote> {
  const { quote, coupon } = await quotePrice(db, ctx.orgId, input);
  return quoteToApi(quote, coupon?.code ?? null);
}

export async function comparePrices(db: TDb, input: { credits: number; currency: TCurrency }) {
  const slab = await slabFor(db, input.currency, input.credits);
  const c = compareAnnual(slab, input.credits);
  return {
    currency: input.currency,
    credits: input.credits,
    one_time: { total: toMajor(c.oneTimeMinor), unit_price: microsToMajor(slab.unitPriceMicros) },
    annual: {
      total: toMajor(c.annualMinor),
      unit_price: c.annualMinor / 100 / input.credits,
      per_month: toMajor(c.perMonthMinor),
      saving_percent: Math.round(((c.oneTimeMinor - c.annualMinor) / c.oneTimeMinor) * 100),
    },
  };
}

export async function listPlans(db: TDb, input: { currency: TCurrency; interval?: string }): Promise<{ items: TPlan[] }> {
  const rows = await selectPlans(db, input.currency, input.interval);
  return {
    items: rows.map((p) => ({ id: p.id, name: p.name, interval: p.interval as TPlan['interval'], currency: p.currency as TCurrency, price: toMajor(p.priceMinor), credits: p.credits, seats: p.seats })),
  };
}

// ---------- coupons ----------

export async function applyCoupon(deps: TDeps, ctx: TCallerContext, input: { code: string; credits?: number; currency: TCurrency }) {
  const db = deps.database.db;
  const coupon = await checkCoupon(db, ctx.orgId, input.code);
  if (coupon.kind === 'percent') {
    const credits = input.credits ?? MIN_PURCHASE_CREDITS;
    const slab = await slabFor(db, input.currency, credits);
    return {
      code: coupon.code,
      kind: 'percent' as const,
      message: `${coupon.value}% off your next purchase of credits.`,
      credits_granted: 0,
      quote: quoteToApi(computeQuote(slab, credits, coupon.value), coupon.code),
    };
  }
  await deps.database.transaction(async (tx) => {
    const inserted = await tx
      .insert(couponRedemptions)
      .values({ couponId: coupon.id, orgId: ctx.orgId, userId: ctx.userId, creditsGranted: coupon.value })
      .onConflictDoNothing()
      .returning({ id: couponRedemptions.id });
    if (inserted.length === 0) throw new AppError(409, 'conflict', 'Your organisation has already used this coupon.');
    if (coupon.maxRedemptions !== null) {
      const used = await tx.select({ n: count() }).from(couponRedemptions).where(eq(couponRedemptions.couponId, coupon.id));
      if ((used[0]?.n ?? 0) > coupon.maxRedemptions) throw new AppError(400, 'validation_failed', 'This coupon has been fully used.');
    }
    await grantCredits(tx, { orgId: ctx.orgId, userId: null, amount: coupon.value, reason: `Coupon ${coupon.code}`, objectType: 'coupon', objectId: coupon.id });
  });
  return { code: coupon.code, kind: 'credits' as const, message: `${coupon.value.toLocaleString('en-US')} free credits were added to your balance.`, credits_granted: coupon.value, quote: null };
}

// ---------- payments ----------

export function paymentToApi(p: TPaymentRow): TPayment {
  return {
    id: p.id,
    number: `INV-${String(p.number).padStart(6, '0')}`,
    provider: p.provider as TPaymentProvider,
    kind: p.kind as TPayment['kind'],
    status: p.status as TPaymentStatus,
    credits: p.credits,
    bonus_credits: p.bonusCredits,
    currency: p.currency as TCurrency,
    subtotal: toMajor(p.subtotalMinor),
    discount: toMajor(p.discountMinor),
    tax: toMajor(p.taxMinor),
    total: toMajor(p.totalMinor),
    failure_message: p.failureMessage,
    created_at: p.createdAt.toISOString(),
    paid_at: p.paidAt ? p.paidAt.toISOString() : null,
  };
}

/** Maps the SDK's errors to answers for people: a declined card is 400, a provider outage 502, never a 500. */
async function callStripe<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof Stripe.errors.StripeCardError) throw new AppError(400, 'card_declined', err.message || 'Your card was declined.');
    if (err instanceof Stripe.errors.StripeInvalidRequestError && err.code === 'resource_missing') throw new AppError(404, 'not_found', 'This card was not found.');
    if (err instanceof Stripe.errors.StripeError) {
      throw new AppError(502, 'payment_provider_error', 'The payment provider could not complete the request. Please try again in a moment.');
    }
    throw err;
  }
}

async function ensureCustomer(deps: TBillingDeps, gw: TStripeGateway, ctx: TCallerContext): Promise<string> {
  const db = deps.database.db;
  const existing = await selectCustomer(db, ctx.orgId);
  if (existing) return existing.providerCustomerId;
  const customer = await callStripe(() => gw.stripe.customers.create({ metadata: { org_id: ctx.orgId } }, { idempotencyKey: `customer-${ctx.orgId}` }));
  await insertCustomer(db, ctx.orgId, customer.id);
  return (await selectCustomer(db, ctx.orgId))!.providerCustomerId;
}

function returnUrl(deps: TDeps, paymentId: string): string {
  return `${deps.config.publicUrl}/payment/thank-you?payment_id=${paymentId}`;
}

function checkoutUrl(gw: TStripeGateway, path: string, back: string): string {
  return gw.checkoutBase ? `${gw.checkoutBase}/${path}?return_url=${encodeURIComponent(back)}` : back;
}

/** A pending payment for credits at today's price (coupon included), to be paid with `provider`. */
export async function newCreditsPayment(
  deps: Pick<TBillingDeps, 'database'>,
  ctx: TCallerContext,
  input: { credits: number; currency: TCurrency; coupon_code?: string },
  provider: TPaymentProvider = 'stripe',
) {
  const { quote, coupon } = await quotePrice(deps.database.db, ctx.orgId, input);
  return insertPayment(deps.database.db, {
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
}

async function createIntent(gw: TStripeGateway, customer: string, payment: TPaymentRow, extra: Stripe.PaymentIntentCreateParams | object = {}) {
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

/** POST /payment/getPaymentIntent: a payment and its PaymentIntent; the browser completes it on the checkout page. */
export async function createPaymentIntent(deps: TBillingDeps, ctx: TCallerContext, input: { credits: number; currency: TCurrency; coupon_code?: string }) {
  const gw = await deps.gateway.get();
  const customer = await ensureCustomer(deps, gw, ctx);
  const payment = await newCreditsPayment(deps, ctx, input);
  const pi = await createIntent(gw, customer, payment);
  await updatePayment(deps.database.db, payment.id, { providerRef: pi.id });
  return {
    payment: paymentToApi(payment),
    client_secret: pi.client_secret ?? '',
    checkout_url: checkoutUrl(gw, `checkout/${pi.id}`, returnUrl(deps, payment.id)),
    test_mode: gw.testMode,
  };
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

/** Marks the payment paid and adds its credits in one transaction; a second call (replay, race) adds nothing. */
export async function markPaid(database: TDatabase, paymentId: string): Promise<boolean> {
  return database.transaction(async (tx) => {
    const p = await claimPaid(tx, paymentId);
    if (!p) return false;
    const grant = await purchaseCredits(tx, {
      orgId: p.orgId,
      userId: p.userId,
      amount: p.credits + p.bonusCredits,
      reason: `Purchase INV-${String(p.number).padStart(6, '0')}`,
      objectType: 'payment',
      objectId: p.id,
    });
    await updatePayment(tx, p.id, { creditTransactionId: grant.transactionId });
    await activateSubscription(tx, p);
    if (p.couponId) await tx.insert(couponRedemptions).values({ couponId: p.couponId, orgId: p.orgId, userId: p.userId }).onConflictDoNothing();
    return true;
  });
}

export async function paymentOutcome(deps: TBillingDeps, ctx: TCallerContext, paymentId: string, nextActionUrl: string | null) {
  const payment = await selectPayment(deps.database.db, ctx.orgId, paymentId);
  if (!payment) throw new AppError(404, 'not_found', 'Payment not found');
  return { payment: paymentToApi(payment), balance: await getOrgBalance(deps.database.db, ctx.orgId), next_action_url: nextActionUrl };
}

async function ownPayment(deps: TBillingDeps, ctx: TCallerContext, id: string): Promise<TPaymentRow> {
  const payment = await selectPayment(deps.database.db, ctx.orgId, id);
  if (!payment) throw new AppError(404, 'not_found', 'Payment not found');
  return payment;
}

/** Runs a confirm call; a declined card marks the payment failed (from the intent) before answering 400. */
async function confirmWith(deps: TBillingDeps, gw: TStripeGateway, payment: TPaymentRow, call: () => Promise<Stripe.PaymentIntent>) {
  try {
    const pi = await call();
    await syncPaymentIntent(deps.database, pi);
    return pi;
  } catch (err) {
    if (err instanceof Stripe.errors.StripeCardError && payment.providerRef) {
      const pi = await callStripe(() => gw.stripe.paymentIntents.retrieve(payment.providerRef!));
      await syncPaymentIntent(deps.database, pi);
      if (err.code === 'authentication_required') return pi;
    }
    return callStripe(() => Promise.reject(err));
  }
}

/** POST /payment/confirmPaymentIntent: pays a payment (or a pending invoice) with a given card, on session. */
export async function confirmPaymentIntent(deps: TBillingDeps, ctx: TCallerContext, input: { payment_id: string; payment_method: string }) {
  let payment = await ownPayment(deps, ctx, input.payment_id);
  if (payment.status === 'paid') return paymentOutcome(deps, ctx, payment.id, null);
  if (payment.status === 'cancelled') throw new AppError(409, 'conflict', 'This payment was cancelled.');
  if (payment.provider !== 'stripe') throw new AppError(409, 'conflict', 'This payment is made with PayPal: finish it on the PayPal page.');
  const gw = await deps.gateway.get();
  const customer = await ensureCustomer(deps, gw, ctx);
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
export async function buyWithDefaultCard(deps: TBillingDeps, ctx: TCallerContext, input: { credits: number; currency: TCurrency; coupon_code?: string }) {
  const gw = await deps.gateway.get();
  const customer = await ensureCustomer(deps, gw, ctx);
  const saved = await selectCustomer(deps.database.db, ctx.orgId);
  if (!saved?.defaultPaymentMethod) throw new AppError(409, 'conflict', 'Add a card first: there is no default card to charge.');
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
export async function requestInvoice(deps: TBillingDeps, ctx: TCallerContext, input: { credits: number; currency: TCurrency; coupon_code?: string }) {
  const payment = await newCreditsPayment(deps, ctx, input);
  return paymentToApi(payment);
}

/** POST /payment/confirm: after the checkout page, asks the provider and settles the payment (idempotent). */
export async function confirmPayment(deps: TBillingDeps, ctx: TCallerContext, input: { payment_id: string }) {
  const payment = await ownPayment(deps, ctx, input.payment_id);
  if (payment.provider === 'stripe' && payment.providerRef && payment.status !== 'paid') {
    const gw = await deps.gateway.get();
    const pi = await callStripe(() => gw.stripe.paymentIntents.retrieve(payment.providerRef!));
    await syncPaymentIntent(deps.database, pi);
  }
  return paymentOutcome(deps, ctx, payment.id, null);
}

/** PATCH /payment/cancel: cancels an unpaid payment or pending invoice. */
export async function cancelPayment(deps: TBillingDeps, ctx: TCallerContext, input: { payment_id: string }) {
  const payment = await ownPayment(deps, ctx, input.payment_id);
  if (payment.status === 'paid') throw new AppError(409, 'conflict', 'This payment is already paid and cannot be cancelled.');
  if (payment.provider === 'stripe' && payment.providerRef && payment.status !== 'cancelled') {
    const gw = await deps.gateway.get();
    const pi = await callStripe(() => gw.stripe.paymentIntents.retrieve(payment.providerRef!));
    if (pi.status === 'succeeded') {
      await syncPaymentIntent(deps.database, pi);
      throw new AppError(409, 'conflict', 'This payment is already paid and cannot be cancelled.');
    }
    if (pi.status !== 'canceled') await callStripe(() => gw.stripe.paymentIntents.cancel(pi.id));
  }
  await updateUnpaidStatus(deps.database.db, payment.id, 'cancelled', null);
  return paymentOutcome(deps, ctx, payment.id, null);
}

export async function getBuyCreditsInfo(deps: TBillingDeps, ctx: TCallerContext) {
  const gw = await deps.gateway.get();
  const saved = await selectCustomer(deps.database.db, ctx.orgId);
  return {
    test_mode: gw.testMode,
    providers: ['stripe' as const, 'paypal' as const],
    currencies: ['USD' as const, 'INR' as const],
    min_credit: MIN_PURCHASE_CREDITS,
    max_credit: MAX_PURCHASE_CREDITS,
    tax_percent: { USD: 0, INR: 18 },
    has_card: Boolean(saved?.defaultPaymentMethod),
    balance: await getOrgBalance(deps.database.db, ctx.orgId),
  };
}

// ---------- cards ----------

function cardToApi(pm: Stripe.PaymentMethod, defaultId: string | null): TCard {
  const brand = ZCardBrand.safeParse(pm.card?.brand);
  return {
    id: pm.id,
    brand: brand.success ? brand.data : 'unknown',
    last4: pm.card?.last4 ?? '',
    exp_month: pm.card?.exp_month ?? 0,
    exp_year: pm.card?.exp_year ?? 0,
    is_default: pm.id === defaultId,
  };
}

async function cardsOf(deps: TBillingDeps, gw: TStripeGateway, ctx: TCallerContext) {
  const customer = await ensureCustomer(deps, gw, ctx);
  const list = await callStripe(() => gw.stripe.paymentMethods.list({ customer, type: 'card' }));
  const saved = await selectCustomer(deps.database.db, ctx.orgId);
  return { customer, methods: list.data, defaultId: saved?.defaultPaymentMethod ?? null };
}

export async function listCards(deps: TBillingDeps, ctx: TCallerContext) {
  const gw = await deps.gateway.get();
  const { methods, defaultId } = await cardsOf(deps, gw, ctx);
  return { items: methods.map((m) => cardToApi(m, defaultId)), default_card: defaultId };
}

async function ownCard(deps: TBillingDeps, gw: TStripeGateway, ctx: TCallerContext, id: string) {
  const cards = await cardsOf(deps, gw, ctx);
  const pm = cards.methods.find((m) => m.id === id);
  if (!pm) throw new AppError(404, 'not_found', 'This card was not found.');
  return { pm, ...cards };
}

async function makeDefault(deps: TBillingDeps, gw: TStripeGateway, ctx: TCallerContext, customer: string, pmId: string) {
  await callStripe(() => gw.stripe.customers.update(customer, { invoice_settings: { default_payment_method: pmId } }));
  await setDefaultPaymentMethod(deps.database.db, ctx.orgId, pmId);
}

/** POST /payment/card/add: attaches a card (a payment method id) to the organisation; the first card becomes the default. */
export async function addCard(deps: TBillingDeps, ctx: TCallerContext, input: { payment_method: string }) {
  const gw = await deps.gateway.get();
  const customer = await ensureCustomer(deps, gw, ctx);
  const pm = await callStripe(() => gw.stripe.paymentMethods.attach(input.payment_method, { customer }));
  const saved = await selectCustomer(deps.database.db, ctx.orgId);
  let defaultId = saved?.defaultPaymentMethod ?? null;
  if (!defaultId) {
    await makeDefault(deps, gw, ctx, customer, pm.id);
    defaultId = pm.id;
  }
  return cardToApi(pm, defaultId);
}

export async function deleteCard(deps: TBillingDeps, ctx: TCallerContext, input: { payment_method: string }) {
  const gw = await deps.gateway.get();
  const { pm, defaultId } = await ownCard(deps, gw, ctx, input.payment_method);
  await callStripe(() => gw.stripe.paymentMethods.detach(pm.id));
  if (defaultId === pm.id) await setDefaultPaymentMethod(deps.database.db, ctx.orgId, null);
  return { message: 'The card was removed.' };
}

export async function setDefaultCard(deps: TBillingDeps, ctx: TCallerContext, input: { payment_method: string }) {
  const gw = await deps.gateway.get();
  const { pm, customer } = await ownCard(deps, gw, ctx, input.payment_method);
  await makeDefault(deps, gw, ctx, customer, pm.id);
  return cardToApi(pm, pm.id);
}

export async function getDefaultCard(deps: TBillingDeps, ctx: TCallerContext) {
  const gw = await deps.gateway.get();
  const { methods, defaultId } = await cardsOf(deps, gw, ctx);
  const pm = methods.find((m) => m.id === defaultId);
  return { card: pm ? cardToApi(pm, defaultId) : null };
}

export async function createSetupIntent(deps: TBillingDeps, ctx: TCallerContext) {
  const gw = await deps.gateway.get();
  const customer = await ensureCustomer(deps, gw, ctx);
  const si = await callStripe(() => gw.stripe.setupIntents.create({ customer, usage: 'off_session', metadata: { org_id: ctx.orgId } }));
  return {
    setup_intent_id: si.id,
    client_secret: si.client_secret ?? '',
    checkout_url: checkoutUrl(gw, `setup/${si.id}`, `${deps.config.publicUrl}/account/billing`),
    test_mode: gw.testMode,
  };
}

export async function confirmSetupIntent(deps: TBillingDeps, ctx: TCallerContext, input: { setup_intent_id: string }) {
  const gw = await deps.gateway.get();
  const customer = await ensureCustomer(deps, gw, ctx);
  const si = await callStripe(() => gw.stripe.setupIntents.retrieve(input.setup_intent_id)).catch((err: unknown) => {
    if (err instanceof AppError && err.httpStatus === 404) throw new AppError(404, 'not_found', 'This card set-up was not found.');
    throw err;
  });
  if (si.customer !== customer) throw new AppError(404, 'not_found', 'This card set-up was not found.');
  if (si.status !== 'succeeded' || typeof si.payment_method !== 'string') throw new AppError(409, 'conflict', 'The card set-up is not finished yet.');
  const saved = await selectCustomer(deps.database.db, ctx.orgId);
  if (!saved?.defaultPaymentMethod) await makeDefault(deps, gw, ctx, customer, si.payment_method);
  const { pm, defaultId } = await ownCard(deps, gw, ctx, si.payment_method);
  return cardToApi(pm, defaultId);
}

// ---------- invoices and receipts ----------

export async function listPayments(db: TDb, ctx: TCallerContext, which: 'invoices' | 'pending' | 'receipts', page: { page: number; limit: number }) {
  const statuses: TPaymentStatus[] | null = which === 'pending' ? ['pending', 'requires_action'] : which === 'receipts' ? ['paid'] : null;
  const { items, total } = await selectPaymentsPage(db, ctx.orgId, statuses, page.page, page.limit);
  return { items: items.map(paymentToApi), total };
}

export async function getPaymentForDocument(db: TDb, ctx: TCallerContext, id: string, kind: 'invoice' | 'receipt') {
  const p = await selectPayment(db, ctx.orgId, id);
  if (!p || (kind === 'receipt' && p.status !== 'paid')) throw new AppError(404, 'not_found', kind === 'receipt' ? 'Receipt not found' : 'Invoice not found');
  return p;
}

/** The invoice or receipt of a payment of the caller's organisation, as a PDF. */
export async function renderPaymentDocument(db: TDb, ctx: TCallerContext, id: string, kind: 'invoice' | 'receipt') {
  const p = await getPaymentForDocument(db, ctx, id, kind);
  const org = await db.select({ name: organisations.name }).from(organisations).where(eq(organisations.id, ctx.orgId)).limit(1);
  const user = await db.select({ email: users.email }).from(users).where(eq(users.id, p.userId ?? ctx.userId)).limit(1);
  const api = paymentToApi(p);
  const pdf = await renderInvoicePdf(kind, api, { orgName: org[0]?.name ?? '', email: user[0]?.email ?? '' });
  return { pdf, fileName: `${kind}-${api.number}.pdf` };
}
