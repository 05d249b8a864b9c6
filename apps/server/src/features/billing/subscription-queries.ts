import { and, eq, lte, sql } from 'drizzle-orm';
import type { TPaymentProvider } from '@verilead/contracts';
import type { TDb } from '../../platform/db/database';
import { organisations } from '../../platform/tenancy/tables';
import { billingPlans, payments, subscriptions } from './tables';

/**
 * The SQL of plans and subscriptions: the subscription row, the organisation's current plan that follows it, and the
 * plans on sale. The use cases (activate-plan, subscriptions, plan-change, stripe-subscriptions, the PayPal events)
 * decide; these statements run in whatever executor (a transaction's) they are given.
 */

export type TPlanRow = typeof billingPlans.$inferSelect;
export type TSubscriptionRow = typeof subscriptions.$inferSelect;
type TPlanTerms = Pick<TPlanRow, 'interval' | 'credits' | 'seats'>;

function intervalSql(interval: string) {
  return interval === 'annual' ? sql`interval '1 year'` : sql`interval '1 month'`;
}

/** An active plan on sale, or null. */
export async function selectActivePlan(db: TDb, id: string): Promise<TPlanRow | null> {
  const rows = await db.select().from(billingPlans).where(and(eq(billingPlans.id, id), eq(billingPlans.active, true))).limit(1);
  return rows[0] ?? null;
}

export async function selectSubscription(db: TDb, orgId: string): Promise<TSubscriptionRow | null> {
  const rows = await db.select().from(subscriptions).where(eq(subscriptions.orgId, orgId)).limit(1);
  return rows[0] ?? null;
}

export async function selectSubscriptionByRef(db: TDb, provider: TPaymentProvider, ref: string): Promise<TSubscriptionRow | null> {
  const rows = await db.select().from(subscriptions).where(and(eq(subscriptions.provider, provider), eq(subscriptions.providerRef, ref))).limit(1);
  return rows[0] ?? null;
}

/** The organisation's current plan becomes `plan`, started with the period its Stripe subscription row holds (else now). */
export async function setOrgPlanFromSubscriptionPeriod(tx: TDb, orgId: string, plan: TPlanTerms) {
  await tx
    .update(organisations)
    .set({
      planInterval: plan.interval,
      planStartedAt: sql`coalesce((select ${subscriptions.currentPeriodStart} from ${subscriptions} where ${subscriptions.orgId} = ${orgId}), now())`,
      recurCredits: plan.credits,
      recurInterval: plan.interval,
      userCreateLimit: sql`greatest(${organisations.userCreateLimit}, ${plan.seats})`,
    })
    .where(eq(organisations.id, orgId));
}

/** The organisation's current plan becomes `plan`, started now (the seat limit never shrinks). */
export async function setOrgPlanStartingNow(tx: TDb, orgId: string, plan: TPlanTerms) {
  await tx
    .update(organisations)
    .set({
      planInterval: plan.interval,
      planStartedAt: sql`now()`,
      recurCredits: plan.credits,
      recurInterval: plan.interval,
      userCreateLimit: sql`greatest(${organisations.userCreateLimit}, ${plan.seats})`,
    })
    .where(eq(organisations.id, orgId));
}

/** A renewal: the subscription is active again and its period moves on by one interval from where it ended. */
export async function extendSubscriptionPeriod(tx: TDb, orgId: string, interval: string) {
  const step = intervalSql(interval);
  await tx
    .update(subscriptions)
    .set({
      status: 'active',
      currentPeriodStart: sql`${subscriptions.currentPeriodEnd}`,
      currentPeriodEnd: sql`${subscriptions.currentPeriodEnd} + ${step}`,
    })
    .where(eq(subscriptions.orgId, orgId));
}

export async function restartOrgPlanClock(tx: TDb, orgId: string) {
  await tx.update(organisations).set({ planStartedAt: sql`now()` }).where(eq(organisations.id, orgId));
}

/** The organisation's subscription (new, or replacing the one it had) to `planId`, active for one interval from now. */
export async function upsertActiveSubscription(
  tx: TDb,
  s: { orgId: string; planId: string; provider: TPaymentProvider; providerRef: string | null; interval: string },
) {
  const step = intervalSql(s.interval);
  const values = {
    planId: s.planId,
    provider: s.provider,
    providerRef: s.providerRef,
    status: 'active' as const,
    currentPeriodStart: sql`now()`,
    currentPeriodEnd: sql`now() + ${step}`,
    cancelAtPeriodEnd: false,
    cancelReason: null,
  };
  await tx
    .insert(subscriptions)
    .values({ orgId: s.orgId, ...values })
    .onConflictDoUpdate({ target: subscriptions.orgId, set: values });
}

/** The organisation's subscription row as given (inserted, or replacing the one it had). */
export async function upsertSubscription(tx: TDb, orgId: string, values: Omit<typeof subscriptions.$inferInsert, 'orgId' | 'id'>) {
  await tx.insert(subscriptions).values({ orgId, ...values }).onConflictDoUpdate({ target: subscriptions.orgId, set: values });
}

/** The organisation is back on the free plan (its subscription ended). */
export async function setOrgPlanFree(tx: TDb, orgId: string) {
  await tx.update(organisations).set({ planInterval: 'free', recurCredits: null, recurInterval: null }).where(eq(organisations.id, orgId));
}

/** Sets whether the organisation's subscription (unless cancelled) ends at its period end; the row changed, or null. */
export async function setCancelAtPeriodEnd(db: TDb, orgId: string, cancel: { cancelAtPeriodEnd: boolean; cancelReason: string | null }): Promise<TSubscriptionRow | null> {
  const rows = await db
    .update(subscriptions)
    .set(cancel)
    .where(and(eq(subscriptions.orgId, orgId), sql`${subscriptions.status} <> 'cancelled'`))
    .returning();
  return rows[0] ?? null;
}

/** PayPal subscriptions set to end whose period is over at `now`. */
export function selectLapsedPayPalSubscriptions(db: TDb, now: Date) {
  return db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.provider, 'paypal'), eq(subscriptions.cancelAtPeriodEnd, true), sql`${subscriptions.status} <> 'cancelled'`, lte(subscriptions.currentPeriodEnd, now)));
}

export async function markSubscriptionCancelled(tx: TDb, id: string) {
  await tx.update(subscriptions).set({ status: 'cancelled' }).where(eq(subscriptions.id, id));
}

/** The organisation's newest plan payment (its id), or null. */
export async function selectLatestPlanPaymentId(db: TDb, orgId: string): Promise<string | null> {
  const last = await db.select().from(payments).where(and(eq(payments.orgId, orgId), eq(payments.kind, 'plan'))).orderBy(sql`${payments.createdAt} desc`).limit(1);
  return last[0]?.id ?? null;
}
