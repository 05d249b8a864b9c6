import type { TDeps } from '../../platform/deps';
import type Stripe from 'stripe';
import { recordAudit } from '../../platform/audit/record';
import type { TCurrency, TPlan, TPlanPreview, TPlanStatus } from '@verilead/contracts';
import { AppError } from '../../platform/errors/app-error';
import type { TCallerContext } from '../../platform/tenancy/context';
import { selectCustomer, selectSubscriptionWithPlan } from './queries';
import { selectActivePlan, setCancelAtPeriodEnd, type TPlanRow, type TSubscriptionRow } from './subscription-queries';
import { ensureCustomer } from './payments';
import { toMajor } from './pricing';
import type { TStripeGateway } from './stripe-gateway';
import { callStripeBilling, ensureStripePrice, grossMinor, syncStripeSubscription } from './stripe-subscriptions';
import { upgradePlan } from './subscriptions';

/**
 * What a person sees before a plan is charged (the preview, computed by the provider: Stripe's upcoming-invoice
 * preview of exactly the change `upgradePlan` makes), resuming a plan set to end, and the plan screen's state.
 */
export function planToApi(p: TPlanRow): TPlan {
  return { id: p.id, name: p.name, interval: p.interval, currency: p.currency as TCurrency, price: toMajor(p.priceMinor), credits: p.credits, seats: p.seats };
}

export async function selectSalePlan(deps: Pick<TDeps, 'database'>, id: string): Promise<TPlanRow> {
  const plan = await selectActivePlan(deps.database.db, id);
  if (!plan || plan.interval === 'one_time') throw new AppError('not_found', 'This plan is not on sale.');
  return plan;
}

/** The organisation's Stripe subscription still running (its id), or null. */
export function liveStripeRef(current: TSubscriptionRow | null | undefined): string | null {
  return current?.provider === 'stripe' && current.providerRef && current.status !== 'cancelled' ? current.providerRef : null;
}

async function cardSummary(deps: TDeps, gw: TStripeGateway, orgId: string): Promise<{ brand: string; last4: string } | null> {
  const saved = await selectCustomer(deps.database.db, orgId);
  if (!saved?.defaultPaymentMethod) return null;
  const pmId = saved.defaultPaymentMethod;
  const pm = await gw.stripe.paymentMethods.retrieve(pmId).catch(() => null);
  return pm?.card ? { brand: pm.card.brand, last4: pm.card.last4 } : { brand: 'card', last4: '' };
}

function lineIsProration(l: Stripe.InvoiceLineItem): boolean {
  const parent = (l as unknown as { parent?: { subscription_item_details?: { proration?: boolean } } }).parent;
  return parent?.subscription_item_details?.proration ?? l.amount < 0;
}

/**
 * GET /payment/upgrade/preview: what subscribing to (or moving to) a plan charges today. A change is previewed by
 * Stripe (`invoices.createPreview` with the very items, proration and anchor `subscribeWithStripe` sends), so the
 * amount shown is the amount the change invoices: the unused time credited, the credit kept from earlier changes
 * used, the rest charged to the card.
 */
export async function previewPlanChange(deps: TDeps, ctx: TCallerContext, input: { plan_id: string; proration_date?: number }): Promise<TPlanPreview> {
  const plan = await selectSalePlan(deps, input.plan_id);
  const row = await selectSubscriptionWithPlan(deps.database.db, ctx.orgId);
  const current = row?.sub ?? null;
  if (current && current.status === 'active' && current.planId === plan.id && !current.cancelAtPeriodEnd) throw new AppError('conflict', 'You are already on this plan.');
  const gw = await deps.payments.stripe.get();
  const customer = await ensureCustomer(deps, gw, ctx);
  const card = await cardSummary(deps, gw, ctx.orgId);
  const live = liveStripeRef(current);
  const base = { plan: planToApi(plan), currency: plan.currency as TCurrency, credits_granted: plan.credits, card };
  if (live && current?.planId === plan.id) {
    return { ...base, change: 'resume', proration_date: null, lines: [], proration_credit: 0, balance_applied: 0, amount_due: 0, credit_carried: 0, credits_granted: 0, renews_on: current.currentPeriodEnd.toISOString() };
  }
  const price = await callStripeBilling(() => ensureStripePrice(gw, plan));
  let invoice: Stripe.Invoice;
  if (live) {
    const existing = await callStripeBilling(() => gw.stripe.subscriptions.retrieve(live));
    invoice = await callStripeBilling(() =>
      gw.stripe.invoices.createPreview({
        customer,
        subscription: live,
        subscription_details: {
          items: [{ id: existing.items.data[0]!.id, price }],
          proration_behavior: 'always_invoice',
          billing_cycle_anchor: { type: 'now' },
          ...(input.proration_date ? { proration_date: input.proration_date } : {}),
        },
      }),
    );
  } else {
    invoice = await callStripeBilling(() => gw.stripe.invoices.createPreview({ customer, subscription_details: { items: [{ price }] } }));
  }
  const lines = invoice.lines.data.map((l) => ({ description: l.description ?? '', amount: toMajor(l.amount), proration: lineIsProration(l) }));
  const credit = invoice.lines.data.filter((l) => l.amount < 0).reduce((a, l) => a - l.amount, 0);
  const startingCredit = Math.max(0, -(invoice.starting_balance ?? 0));
  const total = invoice.total;
  const renewsOn = invoice.lines.data.find((l) => l.amount > 0)?.period.end ?? invoice.period_end;
  const currentGross = row?.plan ? grossMinor(row.plan) : 0;
  // The instant the unused time was counted from: the change sends it back, so it invoices what was shown.
  const prorated = invoice.lines.data.find((l) => lineIsProration(l));
  return {
    ...base,
    proration_date: live ? (input.proration_date ?? prorated?.period.start ?? invoice.period_start) : null,
    change: live ? (grossMinor(plan) >= currentGross ? 'upgrade' : 'downgrade') : 'subscribe',
    lines,
    proration_credit: toMajor(credit),
    balance_applied: toMajor(Math.min(startingCredit, Math.max(0, total))),
    amount_due: toMajor(invoice.amount_due),
    credit_carried: toMajor(Math.max(0, -(invoice.ending_balance ?? 0))),
    renews_on: new Date(renewsOn * 1000).toISOString(),
  };
}

/** GET /payment/subscription/resume: a plan set to end at the period end renews again (nothing is charged now). */
export async function resumeSubscription(deps: TDeps, ctx: TCallerContext) {
  const db = deps.database.db;
  const row = await selectSubscriptionWithPlan(db, ctx.orgId);
  const current = row?.sub;
  if (!current || current.status === 'cancelled') throw new AppError('not_found', 'You have no subscription to resume.');
  if (!current.cancelAtPeriodEnd) throw new AppError('conflict', 'Your subscription is not set to end: there is nothing to resume.');
  if (current.provider === 'paypal') throw new AppError('conflict', 'PayPal ended this subscription for good: subscribe again when this period ends.');
  const live = liveStripeRef(current);
  if (live) {
    const gw = await deps.payments.stripe.get();
    const sub = await callStripeBilling(() => gw.stripe.subscriptions.update(live, { cancel_at_period_end: false }));
    await syncStripeSubscription(deps.database, sub);
  }
  const s = (await setCancelAtPeriodEnd(db, ctx.orgId, { cancelAtPeriodEnd: false, cancelReason: null }))!;
  return { id: s.id, plan_id: s.planId, status: s.status, current_period_end: s.currentPeriodEnd.toISOString(), cancel_at_period_end: s.cancelAtPeriodEnd, cancel_reason: s.cancelReason };
}

/** GET /payment/plan: the plan, its period, renewal or end, and what pays for it (owners and managers). */
export async function getPlanStatus(deps: TDeps, ctx: TCallerContext): Promise<TPlanStatus> {
  const row = await selectSubscriptionWithPlan(deps.database.db, ctx.orgId);
  if (!row || !row.plan || row.sub.status === 'cancelled') {
    return { plan: null, provider: null, status: null, current_period_start: null, current_period_end: null, cancel_at_period_end: false, renews_on: null, cancels_on: null, payment_method: null };
  }
  const { sub, plan } = row;
  let paymentMethod: TPlanStatus['payment_method'] = null;
  if (sub.provider === 'paypal') paymentMethod = { kind: 'paypal', brand: null, last4: null };
  else {
    const gw = await deps.payments.stripe.get().catch(() => null);
    const card = gw ? await cardSummary(deps, gw, ctx.orgId) : null;
    if (card) paymentMethod = { kind: 'card', brand: card.brand, last4: card.last4 || null };
  }
  const end = sub.currentPeriodEnd.toISOString();
  return {
    plan: planToApi(plan),
    provider: sub.provider,
    status: sub.status as 'active' | 'past_due',
    current_period_start: sub.currentPeriodStart.toISOString(),
    current_period_end: end,
    cancel_at_period_end: sub.cancelAtPeriodEnd,
    renews_on: sub.cancelAtPeriodEnd ? null : end,
    cancels_on: sub.cancelAtPeriodEnd ? end : null,
    payment_method: paymentMethod,
  };
}

/** How old a preview's proration instant may be when its change is confirmed. */
export const PRORATION_DATE_MAX_AGE_S = 600;

/**
 * GET /payment/upgrade with the amount the person confirmed and the preview's proration instant: the instant must be
 * the preview's own (not in the future, at most PRORATION_DATE_MAX_AGE_S old: an older one would credit unused time
 * that was used since); when the preview now answers another amount (a price, a period or the credit changed), nothing
 * is charged and the answer is 409 with the new preview to confirm.
 */
export async function confirmPlanChange(deps: TDeps, ctx: TCallerContext, input: { plan_id: string; expected_amount?: number; proration_date?: number }) {
  if (input.proration_date !== undefined) {
    const fresh = await previewPlanChange(deps, ctx, { plan_id: input.plan_id });
    const now = fresh.proration_date;
    if (now === null || input.proration_date > now || now - input.proration_date > PRORATION_DATE_MAX_AGE_S) {
      throw new AppError('conflict', 'This price preview has expired: please look at the amount again and confirm it.', { additional_info: { preview: fresh } });
    }
  }
  if (input.expected_amount !== undefined) {
    const preview = await previewPlanChange(deps, ctx, input);
    if (Math.round(preview.amount_due * 100) !== Math.round(input.expected_amount * 100)) {
      throw new AppError('conflict', `The amount to pay changed to ${preview.currency} ${preview.amount_due.toFixed(2)}: please confirm it again.`, { additional_info: { preview } });
    }
  }
  const result = await upgradePlan(deps, ctx, input);
  await recordAudit(deps.database.db, ctx, { action: 'billing.plan_changed', targetType: 'plan', targetId: input.plan_id, details: { change: 'confirmed' } });
  return result;
}
