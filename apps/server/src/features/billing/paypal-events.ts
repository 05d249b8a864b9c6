import type { TDatabase } from '../../platform/db/database';
import { markPaid } from './payments';
import { insertRenewalPayment, markPaymentEventProcessed, selectPaymentByRef, selectPaymentEvent, selectPlan } from './queries';
import { selectSubscriptionByRef } from './subscription-queries';
import { planPaymentFields } from './pricing';

type TResource = Record<string, unknown>;

function paymentByRef(database: TDatabase, ref: string) {
  return selectPaymentByRef(database.db, 'paypal', ref);
}

/** A PayPal subscription billed its next cycle: one renewal payment per sale (its id is the renewal key), paid at once. */
async function recordRenewal(database: TDatabase, sale: TResource) {
  const subRef = String(sale.billing_agreement_id ?? '');
  const sub = await selectSubscriptionByRef(database.db, 'paypal', subRef);
  // The first cycle's sale is the activation itself (granted when the subscription became active).
  if (!sub || sub.status === 'cancelled' || sub.currentPeriodStart.getTime() > Date.now() - 86_400_000) return;
  const plan = await selectPlan(database.db, sub.planId);
  if (!plan) return;
  const insertedId = await insertRenewalPayment(database.db, {
    orgId: sub.orgId,
    provider: 'paypal',
    ...planPaymentFields(plan),
    renewalKey: `paypal:${String(sale.id)}`,
  });
  if (insertedId) await markPaid(database, insertedId);
}

/** Processes a stored, verified PayPal event (idempotent: a payment becomes paid once; a sale renews once). */
export async function processPayPalEvent(database: TDatabase, eventId: string) {
  const event = await selectPaymentEvent(database.db, 'paypal', eventId);
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
  await markPaymentEventProcessed(database.db, 'paypal', eventId);
  return { processed: true, type: event.type };
}
