import type Stripe from 'stripe';
import type { TCurrency } from '@verilead/contracts';
import type { TDatabase } from '../../platform/db/database';
import { AppError } from '../../platform/errors/app-error';
import type { TJobQueue } from '../../platform/jobs/jobs';
import { createMailer } from '../../platform/mailer/mailer';
import { computeTaxMinor } from './pricing';
import { insertInvoicePayment, selectActiveOwners, selectPaymentByRef, selectPlan, updateOpenPayment, type TPaymentRow } from './queries';
import { selectSubscription, setOrgPlanFree, upsertSubscription, type TPlanRow } from './subscription-queries';
import type { TStripeGateway } from './stripe-gateway';
import { stripeErrors } from './stripe-sdk';

/**
 * Subscriptions billed by Stripe Billing: each plan is a Product with a recurring Price (tax included, found again by
 * its `lookup_key`), each organisation's subscription a Stripe Subscription whose invoices Stripe charges itself,
 * period after period. The app mirrors them: a paid invoice becomes a paid payment that grants the plan's credits
 * once (its invoice id is the payment's reference), and the local subscription row follows the Subscription.
 */
export function grossMinor(plan: Pick<TPlanRow, 'currency' | 'priceMinor'>): number {
  return plan.priceMinor + computeTaxMinor(plan.currency as TCurrency, plan.priceMinor);
}

/** The Stripe Price of a plan at its current price, created (with its Product) the first time it is needed. */
export async function ensureStripePrice(gw: TStripeGateway, plan: TPlanRow): Promise<string> {
  const gross = grossMinor(plan);
  const lookupKey = `verilead_${plan.id}_${plan.currency.toLowerCase()}_${gross}`;
  const found = await gw.stripe.prices.list({ lookup_keys: [lookupKey], limit: 1 });
  if (found.data[0]) return found.data[0].id;
  const productId = `verilead_${plan.id}`;
  await gw.stripe.products.retrieve(productId).catch(async (err: unknown) => {
    const errors = stripeErrors();
    if (!errors || !(err instanceof errors.StripeInvalidRequestError) || err.code !== 'resource_missing') throw err;
    await gw.stripe.products.create({ id: productId, name: `Verilead ${plan.name}`, metadata: { plan_id: plan.id } }, { idempotencyKey: `product-${productId}` });
  });
  const price = await gw.stripe.prices.create(
    {
      product: productId,
      currency: plan.currency.toLowerCase(),
      unit_amount: gross,
      recurring: { interval: plan.interval === 'annual' ? 'year' : 'month' },
      lookup_key: lookupKey,
      metadata: { plan_id: plan.id },
    },
    { idempotencyKey: `price-${lookupKey}` },
  );
  return price.id;
}

function toDate(unix: number | null | undefined): Date {
  return new Date((unix ?? Math.floor(Date.now() / 1000)) * 1000);
}

function localStatus(s: Stripe.Subscription.Status): 'active' | 'past_due' | 'cancelled' | null {
  if (s === 'active' || s === 'trialing') return 'active';
  if (s === 'past_due' || s === 'unpaid' || s === 'paused') return 'past_due';
  if (s === 'canceled' || s === 'incomplete_expired') return 'cancelled';
  return null; // incomplete: the first payment is not made yet
}

/** Brings the organisation's subscription row (and its current plan) in line with a Stripe Subscription. */
export async function syncStripeSubscription(database: TDatabase, sub: Stripe.Subscription) {
  const orgId = sub.metadata?.org_id;
  const planId = sub.metadata?.plan_id;
  const status = localStatus(sub.status);
  if (!orgId || !planId || !status) return;
  const item = sub.items.data[0];
  await database.transaction(async (tx) => {
    const current = await selectSubscription(tx, orgId);
    // An older subscription ending never overwrites the one that replaced it.
    if (current && current.providerRef !== sub.id && status === 'cancelled') return;
    const values = {
      planId,
      provider: 'stripe' as const,
      providerRef: sub.id,
      status,
      currentPeriodStart: toDate(item?.current_period_start),
      currentPeriodEnd: toDate(item?.current_period_end),
      cancelAtPeriodEnd: sub.cancel_at_period_end,
      cancelReason: sub.cancellation_details?.comment ?? (current?.providerRef === sub.id ? current.cancelReason : null),
    };
    await upsertSubscription(tx, orgId, values);
    if (status === 'cancelled') await setOrgPlanFree(tx, orgId);
  });
}

/**
 * Splits what an invoice charges (its `amount_due`, tax included) into the plan price, the credit and the tax. The
 * credit is the unused time of the plan left (a change of plan) and the customer's credit balance at Stripe: a
 * downgrade's invoice totals less than nothing, Stripe keeps the difference as credit for the next invoices, and
 * nothing is charged now (never a negative receipt).
 */
function amountsOf(plan: TPlanRow, totalMinor: number) {
  const gross = grossMinor(plan);
  const net = gross > 0 ? Math.round((totalMinor * plan.priceMinor) / gross) : 0;
  return { subtotalMinor: plan.priceMinor, discountMinor: Math.max(0, plan.priceMinor - net), taxMinor: totalMinor - net, totalMinor };
}

/** Why an open invoice is not paid: its bank wants the payer to authenticate, or the card was refused. */
async function openInvoiceState(gw: TStripeGateway, invoice: Stripe.Invoice): Promise<{ status: 'requires_action' | 'failed'; message: string | null }> {
  const ref = invoice.payments?.data?.at(-1)?.payment?.payment_intent;
  if (!ref) return { status: 'failed', message: 'The payment did not go through.' };
  const pi = typeof ref === 'string' ? await gw.stripe.paymentIntents.retrieve(ref) : ref;
  if (pi.status === 'requires_action') return { status: 'requires_action', message: null };
  return { status: 'failed', message: pi.last_payment_error?.message ?? 'The payment did not go through.' };
}

export type TSettleDeps = { database: TDatabase; queue?: TJobQueue; markPaid(database: TDatabase, paymentId: string): Promise<boolean> };

/**
 * Records a subscription invoice as a payment (once: the invoice id is its reference) and settles it: paid grants the
 * plan's credits once, open needing authentication keeps the hosted invoice page for the payer (a renewal also mails
 * the owners, once), open otherwise is a failed payment.
 */
export async function settleStripeInvoice(deps: TSettleDeps, gw: TStripeGateway, invoice: Stripe.Invoice): Promise<TPaymentRow | null> {
  const details = invoice.parent?.subscription_details;
  const orgId = details?.metadata?.org_id;
  const planId = details?.metadata?.plan_id;
  if (!orgId || !planId || !invoice.id || invoice.status === 'draft' || invoice.status === 'void') return null;
  const db = deps.database.db;
  const plan = await selectPlan(db, planId);
  if (!plan) return null;
  // The subscription first, so the organisation's plan follows the period this invoice pays.
  const subRef = details.subscription;
  if (subRef) await syncStripeSubscription(deps.database, typeof subRef === 'string' ? await gw.stripe.subscriptions.retrieve(subRef) : subRef);
  // The period paid for: the plan's line (a change's invoice also has the credit line for the unused time).
  const period = invoice.lines?.data?.find((l) => l.amount > 0)?.period;
  await insertInvoicePayment(db, {
    orgId,
    provider: 'stripe',
    providerRef: invoice.id,
    kind: 'plan',
    planId,
    credits: plan.credits,
    currency: plan.currency,
    ...amountsOf(plan, invoice.amount_due),
    periodStart: period ? new Date(period.start * 1000) : null,
    periodEnd: period ? new Date(period.end * 1000) : null,
  });
  const payment = await selectPaymentByRef(db, 'stripe', invoice.id);
  if (!payment || payment.orgId !== orgId) return null;
  if (invoice.status === 'paid') await deps.markPaid(deps.database, payment.id);
  else if (invoice.status === 'uncollectible') await updateOpen(deps, payment.id, 'failed', 'The payment could not be collected.', null);
  else if (invoice.status === 'open' && (invoice.attempt_count ?? 0) > 0) {
    const state = await openInvoiceState(gw, invoice);
    const changed = await updateOpen(deps, payment.id, state.status, state.message, state.status === 'requires_action' ? (invoice.hosted_invoice_url ?? null) : null);
    if (changed && state.status === 'requires_action' && invoice.billing_reason === 'subscription_cycle' && deps.queue && invoice.hosted_invoice_url) {
      await mailOwners(deps.database, deps.queue, orgId, invoice.hosted_invoice_url);
    }
  }
  return selectPaymentByRef(db, 'stripe', invoice.id);
}

/** Moves an unpaid payment to a new state; true when it changed (so the authentication mail goes once). */
async function updateOpen(deps: TSettleDeps, id: string, status: 'requires_action' | 'failed', message: string | null, actionUrl: string | null): Promise<boolean> {
  return updateOpenPayment(deps.database.db, id, { status, failureMessage: message, actionUrl });
}

async function mailOwners(database: TDatabase, queue: TJobQueue, orgId: string, url: string) {
  const owners = await selectActiveOwners(database.db, orgId);
  const mailer = createMailer(queue);
  for (const o of owners) await mailer.send({ to: o.email, template: 'payment_action_required', vars: { name: o.name, url, orgName: o.orgName } }, { orgId });
}

/** Maps the SDK's errors on subscription calls to answers for people (never a 500). */
export async function callStripeBilling<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const errors = stripeErrors();
    if (!errors) throw err;
    if (err instanceof errors.StripeCardError) throw new AppError('card_declined', err.message || 'Your card was declined.');
    if (err instanceof errors.StripeInvalidRequestError && err.code === 'resource_missing') throw new AppError('not_found', 'Stripe does not know this subscription.');
    if (err instanceof errors.StripeError) throw new AppError('payment_provider_error', 'The payment provider could not complete the request. Please try again in a moment.');
    throw err;
  }
}

/**
 * Creates the organisation's Stripe Subscription to a plan, or moves the current one to it (prorated, a new period
 * from now). Invoices are charged to the customer's default card (`invoice_settings.default_payment_method`), so
 * changing the default card changes what the next renewal is charged to.
 */
export async function subscribeWithStripe(
  gw: TStripeGateway,
  input: { orgId: string; customer: string; plan: TPlanRow; currentRef: string | null; samePlanResume: boolean; prorationDate?: number },
): Promise<Stripe.Subscription> {
  const price = await callStripeBilling(() => ensureStripePrice(gw, input.plan));
  const metadata = { org_id: input.orgId, plan_id: input.plan.id };
  const expand = ['latest_invoice.payments'];
  if (input.currentRef) {
    const ref = input.currentRef;
    if (input.samePlanResume) return callStripeBilling(() => gw.stripe.subscriptions.update(ref, { cancel_at_period_end: false, expand }));
    const existing = await callStripeBilling(() => gw.stripe.subscriptions.retrieve(ref));
    const change: Stripe.SubscriptionUpdateParams = {
      items: [{ id: existing.items.data[0]!.id, price }],
      proration_behavior: 'always_invoice',
      // The instant the preview the person confirmed counted the unused time from: the invoice is that amount.
      ...(input.prorationDate ? { proration_date: input.prorationDate } : {}),
      billing_cycle_anchor: { type: 'now' },
      cancel_at_period_end: false,
      payment_behavior: 'allow_incomplete',
      metadata,
      expand,
    };
    return callStripeBilling(() => gw.stripe.subscriptions.update(ref, change));
  }
  return callStripeBilling(() =>
    gw.stripe.subscriptions.create({
      customer: input.customer,
      items: [{ price }],
      payment_behavior: 'allow_incomplete',
      metadata,
      expand,
    }),
  );
}
