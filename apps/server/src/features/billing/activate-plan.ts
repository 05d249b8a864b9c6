import { and, eq, sql } from 'drizzle-orm';
import type { TDb } from '../../platform/db/database';
import { organisations } from '../../platform/tenancy/tables';
import type { TPaymentRow } from './queries';
import { billingPlans, subscriptions } from './tables';

// What a paid plan payment does to the organisation's plan. It sits below both the payments (which call it when a
// payment is marked paid) and the subscription use cases (which take and renew payments), so neither imports the other in a loop.

function intervalSql(interval: string) {
  return interval === 'annual' ? sql`interval '1 year'` : sql`interval '1 month'`;
}

/** An active plan on sale, or null. */
export async function selectPlan(db: TDb, id: string) {
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
  if (p.provider === 'stripe') {
    // Stripe Billing keeps the subscription (its row follows the Subscription); the plan starts with the period paid.
    if (plan) {
      await tx
        .update(organisations)
        .set({
          planInterval: plan.interval,
          planStartedAt: sql`coalesce((select ${subscriptions.currentPeriodStart} from ${subscriptions} where ${subscriptions.orgId} = ${p.orgId}), now())`,
          recurCredits: plan.credits,
          recurInterval: plan.interval,
          userCreateLimit: sql`greatest(${organisations.userCreateLimit}, ${plan.seats})`,
        })
        .where(eq(organisations.id, p.orgId));
    }
    return;
  }
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
    status: 'active' as const,
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
