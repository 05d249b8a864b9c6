import type { TDeps } from '../../platform/deps';
import { recordAudit } from '../../platform/audit/record';
import { AppError } from '../../platform/errors/app-error';
import type { TCallerContext } from '../../platform/tenancy/context';
import { selectCustomer } from './queries';
import { PayPalApiError } from './paypal-client';
import { ensureCustomer, markPaid, paymentOutcome } from './payments';
import {
  markSubscriptionCancelled,
  selectActivePlan,
  selectLapsedPayPalSubscriptions,
  selectLatestPlanPaymentId,
  selectSubscription,
  setCancelAtPeriodEnd,
  setOrgPlanFree,
  type TSubscriptionRow,
} from './subscription-queries';
import { callStripeBilling, settleStripeInvoice, subscribeWithStripe, syncStripeSubscription } from './stripe-subscriptions';

export function subscriptionToApi(s: TSubscriptionRow) {
  return {
    id: s.id,
    plan_id: s.planId,
    status: s.status,
    current_period_end: s.currentPeriodEnd.toISOString(),
    cancel_at_period_end: s.cancelAtPeriodEnd,
    cancel_reason: s.cancelReason,
  };
}

type TRenewalDeps = Pick<TDeps, 'database' | 'config' | 'payments'>;

/**
 * GET /payment/upgrade?plan_id: subscribes to a plan through Stripe Billing, or changes plan now (Stripe prorates:
 * the unused part of the current period is credited on the invoice). The first invoice is charged to the default
 * card at once; a card that asks for authentication answers the hosted invoice page to finish on.
 */
export async function upgradePlan(deps: TDeps, ctx: TCallerContext, input: { plan_id: string; proration_date?: number }) {
  const db = deps.database.db;
  const plan = await selectActivePlan(db, input.plan_id);
  if (!plan || plan.interval === 'one_time') throw new AppError('not_found', 'This plan is not on sale.');
  const current = await selectSubscription(db, ctx.orgId);
  if (current && current.status === 'active' && current.planId === plan.id && !current.cancelAtPeriodEnd) {
    throw new AppError('conflict', 'You are already on this plan.');
  }
  const saved = await selectCustomer(db, ctx.orgId);
  if (!saved?.defaultPaymentMethod) throw new AppError('conflict', 'Add a card first: there is no default card to charge.');
  const gw = await deps.payments.stripe.get();
  const customer = await ensureCustomer(deps, gw, ctx);
  const live = current?.provider === 'stripe' && current.providerRef && current.status !== 'cancelled' ? current.providerRef : null;
  const sub = await subscribeWithStripe(gw, {
    orgId: ctx.orgId,
    customer,
    plan,
    currentRef: live,
    samePlanResume: Boolean(live && current?.planId === plan.id),
    prorationDate: input.proration_date,
  });
  await syncStripeSubscription(deps.database, sub);
  const invoice = typeof sub.latest_invoice === 'object' && sub.latest_invoice ? sub.latest_invoice : null;
  const payment = invoice ? await settleStripeInvoice({ database: deps.database, markPaid }, gw, invoice) : null;
  if (!payment) {
    // Resuming a plan set to end: nothing to pay now.
    const row = await selectSubscription(db, ctx.orgId);
    const lastId = await selectLatestPlanPaymentId(db, ctx.orgId);
    if (!row || !lastId) throw new AppError('payment_provider_error', 'The payment provider did not answer an invoice. Please try again in a moment.');
    return paymentOutcome(deps, ctx, lastId, null);
  }
  return paymentOutcome(deps, ctx, payment.id, payment.status === 'requires_action' ? payment.actionUrl : null);
}

/** GET /payment/subscription/cancel?reason: the plan ends at the end of the paid period. */
export async function cancelSubscription(deps: Pick<TDeps, 'database' | 'config' | 'payments'>, ctx: TCallerContext, input: { reason: string }) {
  const db = deps.database.db;
  const current = await selectSubscription(db, ctx.orgId);
  if (current?.provider === 'paypal' && current.providerRef && current.status !== 'cancelled' && !current.cancelAtPeriodEnd) {
    // PayPal bills the subscription itself: stop it there (the paid period still runs here to its end).
    const client = await deps.payments.paypal.get();
    await client.cancelSubscription(current.providerRef, input.reason.slice(0, 128)).catch((err: unknown) => {
      if (!(err instanceof PayPalApiError) || err.status !== 422) throw new AppError('payment_provider_error', 'PayPal could not cancel the subscription. Please try again in a moment.');
    });
  }
  if (current?.provider === 'stripe' && current.providerRef && current.status !== 'cancelled') {
    // Stripe ends the subscription at the period end (customer.subscription.deleted); the row follows it.
    const gw = await deps.payments.stripe.get();
    const ref = current.providerRef;
    const sub = await callStripeBilling(() => gw.stripe.subscriptions.update(ref, { cancel_at_period_end: true, cancellation_details: { comment: input.reason.slice(0, 500) } }));
    await syncStripeSubscription(deps.database, sub);
  }
  const row = await setCancelAtPeriodEnd(db, ctx.orgId, { cancelAtPeriodEnd: true, cancelReason: input.reason });
  if (!row) throw new AppError('not_found', 'You have no subscription to cancel.');
  await recordAudit(db, ctx, { action: 'billing.plan_changed', targetType: 'subscription', targetId: row.id, details: { change: 'cancel_at_period_end', reason: input.reason } });
  return subscriptionToApi(row);
}

/**
 * Ends the PayPal subscriptions cancelled at period end once the period is over (a maintenance task). Stripe
 * subscriptions need no task: Stripe bills each period itself and ends a cancelled one (webhooks update the rows).
 */
export async function endLapsedSubscriptions(deps: Pick<TRenewalDeps, 'database'>, now: Date = new Date()) {
  const db = deps.database.db;
  const due = await selectLapsedPayPalSubscriptions(db, now);
  for (const sub of due) {
    await db.transaction(async (tx) => {
      await markSubscriptionCancelled(tx, sub.id);
      await setOrgPlanFree(tx, sub.orgId);
    });
  }
  return { ended: due.length };
}

export function createSubscriptionRenewalTask(deps: TRenewalDeps) {
  return { name: 'subscriptionRenewals', run: () => endLapsedSubscriptions(deps) };
}
