import type { TCurrency } from '@verilead/contracts';
import type { TDb } from '../../platform/db/database';
import { selectSubscriptionWithPlan } from './queries';
import { toMajor } from './pricing';

/** The plan an organisation subscribes to, as the current-plan card reads it (the account feature's `current_plan`). */
export type TSubscribedPlan = {
  planId: string;
  name: string;
  price: number;
  currency: TCurrency;
  credits: number;
  seats: number;
  periodStart: Date;
  periodEnd: Date;
  cancelAtPeriodEnd: boolean;
};

/** The subscription still running (active or past due) with its plan, or null on the free plan. */
export async function getSubscribedPlan(db: TDb, orgId: string): Promise<TSubscribedPlan | null> {
  const row = await selectSubscriptionWithPlan(db, orgId);
  if (!row?.plan || row.sub.status === 'cancelled') return null;
  return {
    planId: row.plan.id,
    name: row.plan.name,
    price: toMajor(row.plan.priceMinor),
    currency: row.plan.currency as TCurrency,
    credits: row.plan.credits,
    seats: row.plan.seats,
    periodStart: row.sub.currentPeriodStart,
    periodEnd: row.sub.currentPeriodEnd,
    cancelAtPeriodEnd: row.sub.cancelAtPeriodEnd,
  };
}
