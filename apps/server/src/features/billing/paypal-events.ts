import { and, eq, sql } from 'drizzle-orm';
import type { TDatabase } from '../../platform/db/database';
import { markPaid } from './payments';
import { billingPlans, paymentEvents, payments, subscriptions } from './tables';
import { computeTaxMinor } from './pricing';
import type { TCurrency } from '@verilead/contracts';

type TResource = Record<string, unknown>;

async function paymentByRef(database: TDatabase, ref: string) {
  const rows = await database.db.select().from(payments).where(and(eq(payments.provider, 'paypal'), eq(payments.providerRef, ref))).limit(1);
  return rows[0] ?? null;
}

/** A PayPal subscription billed its next cycle: one renewal payment per sale (its id is the renewal key), paid at once. */
async function recordRenewal(database: TDatabase, sale: TResource) {
  const subRef = String(sale.billing_agreement_id ?? '');
  const subRows = await database.db.select().from(subscriptions).where(and(eq(subscriptions.provider, 'paypal'), eq(subscriptions.providerRef, subRef))).limit(1);
  const sub = subRows[0];
  // The first cycle's sale is the activation itself (granted when the subscription became active).
  if (!sub || sub.status === 'cancelled' || sub.currentPeriodStart.getTime() > Date.now() - 86_400_000) return;
  const plan = (await database.db.select().from(billingPlans).where(eq(billingPlans.id, sub.planId)).limit(1))[0];
  if (!plan) return;
  const tax = computeTaxMinor(plan.currency as TCurrency, plan.priceMinor);
  const inserted = await database.db
    .insert(payments)
    .values({ orgId: sub.orgId, provider: 'paypal', kind: 'plan', planId: plan.id, credits: plan.credits, currency: plan.currency, subtotalMinor: plan.priceMinor, taxMinor: tax, totalMinor: plan.priceMinor + tax, renewalKey: `paypal:${String(sale.id)}` })
    .onConflictDoNothing()
    .returning({ id: payments.id });
  if (inserted[0]) await markPaid(database, inserted[0].id);
}

/** Processes a stored, verified PayPal event (idempotent: a payment becomes paid once; a sale renews once). */
export async function processPayPalEvent(database: TDatabase, eventId: string) {
  const rows = await database.db.select().from(paymentEvents).where(and(eq(paymentEvents.provider, 'paypal'), eq(paymentEvents.eventId, eventId))).limit(1);
  const event = rows[0];
  if (!event) return { processed: false };
  const resource = ((event.payload as { resource?: TResource }).resource ?? {}) as TResource;
  if (event.type === 'PAYMENT.CAPTURE.COMPLETED') {
    const orderId = String(((resource.supplementary_data as TResource | undefined)?.related_ids as TResource | undefined)?.order_id ?? '');
    const payment = await paymentByRef(database, orderId);
    const amount = resource.amount as { value?: string; currency_code?: string } | undefined;
    if (payment && amount?.currency_code === payment.currency && amount.value === (payment.totalMinor / 100).toFixed(2)) await markPaid(database, payment.id);
  } else if (event.type === 'BILLING.SUBSCRIPTION.ACTIVATED') {
    const payment = await paymentByRef(database, String(resource.id ?? ''));
    if (payment && resource.custom_id === payment.id) await markPaid(database, payment.id);
  } else if (event.type === 'PAYMENT.SALE.COMPLETED') {
    await recordRenewal(database, resource);
  }
  await database.db
    .update(paymentEvents)
    .set({ processedAt: sql`now()` })
    .where(and(eq(paymentEvents.provider, 'paypal'), eq(paymentEvents.eventId, eventId)));
  return { processed: true, type: event.type };
}
