import type Stripe from 'stripe';
import { z } from 'zod';
import type { TConfig } from '../../config';
import type { TDatabase } from '../../platform/db/database';
import type { TDeps } from '../../platform/deps';
import { defineJob, type TJobDefinition, type TJobQueue } from '../../platform/jobs/jobs';
import { createMailer } from '../../platform/mailer/mailer';
import { syncCheckoutSession, syncPaymentIntent } from './buy-credits';
import { markPaid } from './payments';
import { settleStripeInvoice, syncStripeSubscription } from './stripe-subscriptions';
import { processPayPalEvent } from './paypal-events';
import { markPaymentEventProcessed, selectPaymentEvent } from './queries';
import { claimLowCreditAlert, rearmLowCreditAlerts, selectLowCreditAlertOwners } from './low-credit-queries';
import { getPublicBaseUrl } from '../../platform/http/public-url';

export const STRIPE_EVENT_JOB = 'billing-stripe-event';
export const LOW_CREDIT_CHECK_JOB = 'billing-low-credit-check';
export const PAYPAL_EVENT_JOB = 'billing-paypal-event';

/**
 * Processes a stored, verified Stripe event (idempotent: settling a payment twice changes nothing). Invoices and
 * subscriptions are read again from Stripe rather than taken from the event, so events arriving late or out of
 * order apply the current state.
 */
export async function processStripeEvent(database: TDatabase, eventId: string, opts?: Pick<TDeps, 'payments' | 'queue'>) {
  const event = await selectPaymentEvent(database.db, 'stripe', eventId);
  if (!event) return { processed: false };
  if (event.type.startsWith('payment_intent.')) {
    const pi = (event.payload as { data: { object: Stripe.PaymentIntent } }).data.object;
    await syncPaymentIntent(database, pi);
  } else if (opts && event.type.startsWith('checkout.session.')) {
    const gw = await opts.payments.stripe.get();
    const id = (event.payload as { data: { object: { id: string } } }).data.object.id;
    await syncCheckoutSession(database, gw, await gw.stripe.checkout.sessions.retrieve(id));
  } else if (opts && event.type.startsWith('invoice.')) {
    const gw = await opts.payments.stripe.get();
    const id = (event.payload as { data: { object: { id: string } } }).data.object.id;
    const invoice = await gw.stripe.invoices.retrieve(id, { expand: ['payments'] });
    await settleStripeInvoice({ database, queue: opts.queue, markPaid }, gw, invoice);
  } else if (opts && event.type.startsWith('customer.subscription.')) {
    const gw = await opts.payments.stripe.get();
    const id = (event.payload as { data: { object: { id: string } } }).data.object.id;
    await syncStripeSubscription(database, await gw.stripe.subscriptions.retrieve(id));
  }
  await markPaymentEventProcessed(database.db, 'stripe', eventId);
  return { processed: true, type: event.type };
}

/**
 * The low-credit alert: an owner whose alert is on (their own threshold, else the organisation's) gets one mail when
 * the balance falls to or below the threshold; the alert re-arms once the balance is above it again.
 */
export async function checkLowCredits(database: TDatabase, config: TConfig, queue: TJobQueue) {
  const db = database.db;
  const owners = await selectLowCreditAlertOwners(db);
  const mailer = createMailer(queue);
  let sent = 0;
  for (const o of owners) {
    if (o.balance > o.threshold) continue;
    if (o.alerted) continue;
    await database.transaction(async (tx) => {
      if (!(await claimLowCreditAlert(tx, o.orgId))) return;
      await mailer.send({ to: o.email, template: 'low_credit', vars: { name: o.name, url: `${getPublicBaseUrl(config)}/pricing`, orgName: o.orgName } }, { tx, orgId: o.orgId });
      sent += 1;
    });
  }
  // Re-arm: organisations back above every owner's threshold.
  const rearmed = await rearmLowCreditAlerts(db);
  return { sent, rearmed };
}

export function createBillingJobs(deps: TDeps): TJobDefinition[] {
  return [
    defineJob({
      name: STRIPE_EVENT_JOB,
      queue: 'webhooks',
      payload: z.object({ event_id: z.string() }),
      maxAttempts: 8,
      backoffMs: 2_000,
      handler: (p) => processStripeEvent(deps.database, p.event_id, deps),
    }) as unknown as TJobDefinition,
    defineJob({
      name: PAYPAL_EVENT_JOB,
      queue: 'webhooks',
      payload: z.object({ event_id: z.string() }),
      maxAttempts: 8,
      backoffMs: 2_000,
      handler: (p) => processPayPalEvent(deps.database, p.event_id),
    }) as unknown as TJobDefinition,
    defineJob({
      name: LOW_CREDIT_CHECK_JOB,
      queue: 'mail',
      payload: z.object({}),
      maxAttempts: 1,
      handler: () => checkLowCredits(deps.database, deps.config, deps.queue),
    }) as unknown as TJobDefinition,
  ];
}
