import type { TDb } from '../../platform/db/database';
import type { TPaymentRow } from './queries';
import {
  extendSubscriptionPeriod,
  restartOrgPlanClock,
  selectActivePlan,
  setOrgPlanFromSubscriptionPeriod,
  setOrgPlanStartingNow,
  upsertActiveSubscription,
} from './subscription-queries';

// What a paid plan payment does to the organisation's plan. It sits below both the payments (which call it when a
// payment is marked paid) and the subscription use cases (which take and renew payments), so neither imports the other in a loop.

/**
 * Called inside the transaction that marks a plan payment paid: a new or changed plan starts now; a renewal
 * extends the period it renews by one interval.
 */
export async function activateSubscription(tx: TDb, p: TPaymentRow) {
  if (p.kind !== 'plan' || !p.planId) return;
  const plan = await selectActivePlan(tx, p.planId);
  if (p.provider === 'stripe') {
    // Stripe Billing keeps the subscription (its row follows the Subscription); the plan starts with the period paid.
    if (plan) await setOrgPlanFromSubscriptionPeriod(tx, p.orgId, plan);
    return;
  }
  const interval = plan?.interval ?? 'monthly';
  if (p.renewalKey) {
    await extendSubscriptionPeriod(tx, p.orgId, interval);
    await restartOrgPlanClock(tx, p.orgId);
    return;
  }
  await upsertActiveSubscription(tx, { orgId: p.orgId, planId: p.planId, provider: p.provider, providerRef: p.provider === 'paypal' ? p.providerRef : null, interval });
  // The organisation's current plan (what /user/current_plan answers) follows the subscription.
  if (plan) await setOrgPlanStartingNow(tx, p.orgId, plan);
}
