import { and, eq, lte, sql } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { TDb } from '../../platform/db/database';
import { AppError } from '../../platform/errors/app-error';
import type { TCallerContext } from '../../platform/tenancy/context';
import { computeTaxMinor } from './pricing';
import { insertPayment, selectCustomer, type TPaymentRow } from './queries';
import { billingPlans, payments, subscriptions } from './tables';
import { organisations } from '../../platform/tenancy/tables';
import { getPayPalClient, PayPalApiError } from './paypal-client';
import { markPaid, paymentOutcome, syncPaymentIntent, type TBillingDeps } from './service';
import type { TStripeGateway } from './stripe-gateway';
import type { TCurrency } from '@verilead/contracts';

type TSubscriptionRow = typeof subscriptions.$inferSelect;

function intervalSql(interval: string) {
  return interval === 'annual' ? sql`interval '1 year'` : sql`interval '1 month'`;
}

export function subscriptionToApi(s: TSubscriptionRow) {
  return {
    id: s.id,
    plan_id: s.planId,
    status: s.status as 'active' | 'past_due' | 'cancelled',
    current_period_end: s.currentPeriodEnd.toISOString(),
    cancel_at_period_end: s.cancelAtPeriodEnd,
    cancel_reason: s.cancelReason,
  };
}

async function selectSubscription(db: TDb, orgId: string): Promise<TSubscriptionRow | null> {
  const rows = await db.select().from(subscriptions).where(eq(subscriptions.orgId, orgId)).limit(1);
  return rows[0] ?? null;
}

async function selectPlan(db: TDb, id: string) {
  const rows = await db.select().from(billingPlans).where(and(eq(billingPlans.id, id), eq(billingPlans.active, true))).limit(1);
  return rows[0] ?? null;
}

/**
 * Called inside the transaction that marks a plan payment paid: a new or changed plan starts now; a renewal
 * extends the period it renews by one interval.
 */
export async function activateSubscription(tx: TDb, p: TPaymentRow) {
  if (p.kind !== 'plan' || !p.planId) return;
  const plan = await selectPlan(tx, p.planId);
  const step = intervalSql(plan?.interval ?? 'monthly');
  if (p.renewalKey) {
    await tx
      .update(subscriptions)
      .set({
        status: 'active',
        currentPeriodStart: sql`${subscriptions.currentPeriodEnd}`,
        currentPeriodEnd: sql`${subscriptions.currentPeriodEnd} + ${step}`,
      })
      .where(eq(subscriptions.orgId, p.orgId));
    await tx.update(organisations).set({ planStartedAt: sql`now()` }).where(eq(organisations.id, p.orgId));
    return;
  }
  const values = {
    planId: p.planId,
    provider: p.provider,
    providerRef: p.provider === 'paypal' ? p.providerRef : null,
    status: 'active',
    currentPeriodStart: sql`now()`,
    currentPeriodEnd: sql`now() + ${step}`,
    cancelAtPeriodEnd: false,
    cancelReason: null,
  };
  await tx
    .insert(subscriptions)
    .values({ orgId: p.orgId, ...values })
    .onConflictDoUpdate({ target: subscriptions.orgId, set: values });
  // The organisation's current plan (what /user/current_plan answers) follows the subscription.
  if (plan) {
    await tx
      .update(organisations)
      .set({
        planInterval: plan.interval,
        planStartedAt: sql`now()`,
        recurCredits: plan.credits,
        recurInterval: plan.interval,
        userCreateLimit: sql`greatest(${organisations.userCreateLimit}, ${plan.seats})`,
      })
      .where(eq(organisations.id, p.orgId));
  }
}

/** The part of the current plan's price not yet used, credited against a new plan of the same currency. */
function prorationCreditMinor(sub: TSubscriptionRow | null, oldPrice: { priceMinor: number; currency: string } | null, currency: TCurrency, now = Date.now()): number {
  if (!sub || sub.status !== 'active' || !oldPrice || oldPrice.currency !== currency) return 0;
  const total = sub.currentPeriodEnd.getTime() - sub.currentPeriodStart.getTime();
  const left = sub.currentPeriodEnd.getTime() - now;
  if (total <= 0 || left <= 0) return 0;
  return Math.floor((oldPrice.priceMinor * left) / total);
}

/** Charges a payment with the organisation's default card off session; authentication sends the owner to the checkout page. */
type TRenewalDeps = Pick<TBillingDeps, 'database' | 'config' | 'gateway'>;

async function chargeDefaultCard(deps: TRenewalDeps, gw: TStripeGateway, payment: TPaymentRow): Promise<{ nextActionUrl: string | null }> {
  const saved = await selectCustomer(deps.database.db, payment.orgId);
  if (!saved?.defaultPaymentMethod) throw new AppError(409, 'conflict', 'Add a card first: there is no default card to charge.');
  let pi: Stripe.PaymentIntent;
  try {
    pi = await gw.stripe.paymentIntents.create(
      {
        amount: payment.totalMinor,
        currency: payment.currency.toLowerCase(),
        customer: saved.providerCustomerId,
        payment_method: saved.defaultPaymentMethod,
        confirm: true,
        off_session: true,
        description: `Verilead plan ${payment.planId ?? ''}`,
        metadata: { payment_id: payment.id, org_id: payment.orgId },
      },
      { idempotencyKey: `pi-${payment.id}` },
    );
  } catch (err) {
    const raw = (err as { raw?: { payment_intent?: Stripe.PaymentIntent } }).raw;
    const failed = raw?.payment_intent;
    if (!failed) throw new AppError(502, 'payment_provider_error', 'The payment provider could not complete the request. Please try again in a moment.');
    pi = failed;
  }
  await deps.database.db.update(payments).set({ providerRef: pi.id }).where(eq(payments.id, payment.id));
  await syncPaymentIntent(deps.database, pi);
  const needsAction = pi.status !== 'succeeded';
  return { nextActionUrl: needsAction && gw.checkoutBase ? `${gw.checkoutBase}/checkout/${pi.id}?return_url=${encodeURIComponent(`${deps.config.publicUrl}/payment/thank-you?payment_id=${payment.id}`)}` : null };
}

/** GET /payment/upgrade?plan_id: subscribes to a plan or changes plan now, the unused part of the current one credited. */
export async function upgradePlan(deps: TBillingDeps, ctx: TCallerContext, input: { plan_id: string }) {
  const db = deps.database.db;
  const plan = await selectPlan(db, input.plan_id);
  if (!plan || plan.interval === 'one_time') throw new AppError(404, 'not_found', 'This plan is not on sale.');
  const current = await selectSubscription(db, ctx.orgId);
  if (current && current.status === 'active' && current.planId === plan.id && !current.cancelAtPeriodEnd) {
    throw new AppError(409, 'conflict', 'You are already on this plan.');
  }
  const oldPlan = current ? await selectPlan(db, current.planId) : null;
  const currency = plan.currency as TCurrency;
  const credit = Math.min(plan.priceMinor, prorationCreditMinor(current, oldPlan, currency));
  const net = plan.priceMinor - credit;
  const tax = computeTaxMinor(currency, net);
  const payment = await insertPayment(db, {
    orgId: ctx.orgId,
    userId: ctx.userId,
    provider: 'stripe',
    kind: 'plan',
    planId: plan.id,
    credits: plan.credits,
    currency,
    subtotalMinor: plan.priceMinor,
    discountMinor: credit,
    taxMinor: tax,
    totalMinor: net + tax,
  });
  let next: string | null = null;
  if (payment.totalMinor === 0) await markPaid(deps.database, payment.id);
  else next = (await chargeDefaultCard(deps, await deps.gateway.get(), payment)).nextActionUrl;
  return paymentOutcome(deps, ctx, payment.id, next);
}

/** GET /payment/subscription/cancel?reason: the plan ends at the end of the paid period. */
export async function cancelSubscription(deps: Pick<TBillingDeps, 'database' | 'config'>, ctx: TCallerContext, input: { reason: string }) {
  const db = deps.database.db;
  const current = await selectSubscription(db, ctx.orgId);
  if (current?.provider === 'paypal' && current.providerRef && current.status !== 'cancelled' && !current.cancelAtPeriodEnd) {
    // PayPal bills the subscription itself: stop it there (the paid period still runs here to its end).
    const client = await getPayPalClient(deps.config);
    await client.request('POST', `/v1/billing/subscriptions/${encodeURIComponent(current.providerRef)}/cancel`, { reason: input.reason.slice(0, 128) }).catch((err: unknown) => {
      if (!(err instanceof PayPalApiError) || err.status !== 422) throw new AppError(502, 'payment_provider_error', 'PayPal could not cancel the subscription. Please try again in a moment.');
    });
  }
  const rows = await db
    .update(subscriptions)
    .set({ cancelAtPeriodEnd: true, cancelReason: input.reason })
    .where(and(eq(subscriptions.orgId, ctx.orgId), sql`${subscriptions.status} <> 'cancelled'`))
    .returning();
  if (!rows[0]) throw new AppError(404, 'not_found', 'You have no subscription to cancel.');
  return subscriptionToApi(rows[0]);
}

/**
 * Renews the subscriptions whose period has ended (a maintenance task): one payment per subscription and period
 * (its renewal key is unique), charged to the default card off session. A cancelled one ends instead; a failed
 * charge leaves it past due.
 */
export async function renewDueSubscriptions(deps: TRenewalDeps, now: Date = new Date()) {
  const db = deps.database.db;
  const due = await db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.provider, 'stripe'), sql`${subscriptions.status} in ('active', 'past_due')`, lte(subscriptions.currentPeriodEnd, now)));
  // PayPal bills its subscriptions itself.
  const result = { renewed: 0, ended: 0, failed: 0 };
  for (const sub of due) {
    if (sub.cancelAtPeriodEnd) {
      await db.transaction(async (tx) => {
        await tx.update(subscriptions).set({ status: 'cancelled' }).where(eq(subscriptions.id, sub.id));
        await tx.update(organisations).set({ planInterval: 'free', recurCredits: null, recurInterval: null }).where(eq(organisations.id, sub.orgId));
      });
      result.ended += 1;
      continue;
    }
    const plan = await selectPlan(db, sub.planId);
    if (!plan) continue;
    const key = `${sub.id}:${sub.currentPeriodEnd.toISOString()}`;
    const currency = plan.currency as TCurrency;
    const tax = computeTaxMinor(currency, plan.priceMinor);
    const inserted = await db
      .insert(payments)
      .values({ orgId: sub.orgId, provider: 'stripe', kind: 'plan', planId: plan.id, credits: plan.credits, currency, subtotalMinor: plan.priceMinor, taxMinor: tax, totalMinor: plan.priceMinor + tax, renewalKey: key })
      .onConflictDoNothing()
      .returning();
    // The run that created the period's payment charges it; a later run retries only a failed charge.
    const payment = inserted[0] ?? (await db.select().from(payments).where(eq(payments.renewalKey, key)).limit(1))[0];
    if (!payment || (!inserted[0] && payment.status !== 'failed')) continue;
    try {
      await chargeDefaultCard(deps, await deps.gateway.get(), payment);
    } catch {
      // No card or the provider is down: past due, tried again next time.
    }
    const after = (await db.select().from(payments).where(eq(payments.id, payment.id)).limit(1))[0];
    if (after?.status === 'paid') result.renewed += 1;
    else {
      await db.update(subscriptions).set({ status: 'past_due' }).where(eq(subscriptions.id, sub.id));
      result.failed += 1;
    }
  }
  return result;
}

export function createSubscriptionRenewalTask(deps: TRenewalDeps) {
  return { name: 'subscriptionRenewals', run: () => renewDueSubscriptions(deps) };
}


