import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { TCurrency, TPaymentStatus, TPriceKind } from '@verilead/contracts';
import { selectRows, type TDb } from '../../platform/db/database';
import { users } from '../../platform/tenancy/tables';
import { billingCustomers, billingPlans, couponRedemptions, coupons, payments, priceSlabs } from './tables';
import type { TSlabRow } from './pricing';

export type TPaymentRow = typeof payments.$inferSelect;
export type TCouponRow = typeof coupons.$inferSelect;

export async function selectSlabs(db: TDb, currency: TCurrency): Promise<(TSlabRow & { id: string })[]> {
  const rows = await db.select().from(priceSlabs).where(eq(priceSlabs.currency, currency)).orderBy(asc(priceSlabs.minCredits));
  return rows.map((r) => ({ ...r, currency: r.currency as TCurrency, kind: r.kind as TPriceKind }));
}

export function selectPlans(db: TDb, currency: TCurrency, interval?: string) {
  return db
    .select()
    .from(billingPlans)
    .where(and(eq(billingPlans.currency, currency), eq(billingPlans.active, true), interval ? eq(billingPlans.interval, interval) : undefined))
    .orderBy(asc(billingPlans.priceMinor));
}

export async function selectCouponByCode(db: TDb, code: string): Promise<TCouponRow | null> {
  const rows = await db.select().from(coupons).where(sql`lower(${coupons.code}) = lower(${code})`).limit(1);
  return rows[0] ?? null;
}

/**
 * Locks the coupon's row until the caller's transaction ends: whoever redeems or reserves a coupon with a maximum
 * takes this lock first, so the count read after it sees every claim committed before and the maximum holds.
 */
export async function lockCoupon(tx: TDb, couponId: string): Promise<void> {
  await tx.select({ id: coupons.id }).from(coupons).where(eq(coupons.id, couponId)).for('update');
}

/**
 * How many other organisations hold a claim on a coupon: one that redeemed it, or one with an open (pending or
 * awaiting authentication) payment quoted with it — a percent coupon is redeemed when that payment is paid.
 */
export async function countOtherCouponClaims(db: TDb, couponId: string, orgId: string): Promise<number> {
  const rows = await selectRows<{ n: number }>(
    db,
    sql`
    select count(*)::int as n from (
      select ${couponRedemptions.orgId} as org_id from ${couponRedemptions} where ${couponRedemptions.couponId} = ${couponId}
      union
      select ${payments.orgId} from ${payments}
       where ${payments.couponId} = ${couponId} and ${payments.status} in ('pending', 'requires_action')
    ) claims where org_id <> ${orgId}`,
  );
  return Number(rows[0]?.n ?? 0);
}

export async function selectCustomer(db: TDb, orgId: string) {
  const rows = await db.select().from(billingCustomers).where(eq(billingCustomers.orgId, orgId)).limit(1);
  return rows[0] ?? null;
}

export async function insertCustomer(db: TDb, orgId: string, providerCustomerId: string) {
  await db.insert(billingCustomers).values({ orgId, providerCustomerId }).onConflictDoNothing();
}

export async function setDefaultPaymentMethod(db: TDb, orgId: string, pm: string | null) {
  await db.update(billingCustomers).set({ defaultPaymentMethod: pm }).where(eq(billingCustomers.orgId, orgId));
}

export async function insertPayment(db: TDb, values: typeof payments.$inferInsert): Promise<TPaymentRow> {
  const rows = await db.insert(payments).values(values).returning();
  return rows[0]!;
}

/** A payment of the caller's organisation (null for another organisation's or a missing id). */
export async function selectPayment(db: TDb, orgId: string, id: string): Promise<TPaymentRow | null> {
  const rows = await db.select().from(payments).where(and(eq(payments.orgId, orgId), eq(payments.id, id))).limit(1);
  return rows[0] ?? null;
}

export async function selectPaymentByRef(db: TDb, provider: string, ref: string): Promise<TPaymentRow | null> {
  const rows = await db.select().from(payments).where(and(eq(payments.provider, provider), eq(payments.providerRef, ref))).limit(1);
  return rows[0] ?? null;
}

export async function updatePayment(db: TDb, id: string, values: Partial<typeof payments.$inferInsert>) {
  await db.update(payments).set(values).where(eq(payments.id, id));
}

/** Moves a payment to `status` unless it is already paid (a paid payment never changes back). */
export async function updateUnpaidStatus(db: TDb, id: string, status: TPaymentStatus, failureMessage: string | null) {
  await db
    .update(payments)
    .set({ status, failureMessage })
    .where(and(eq(payments.id, id), sql`${payments.status} <> 'paid'`));
}

/** Marks a payment paid once: answers the row only to the one caller that made the change. */
export async function claimPaid(db: TDb, id: string): Promise<TPaymentRow | null> {
  const rows = await db
    .update(payments)
    .set({ status: 'paid', paidAt: sql`now()`, failureMessage: null, actionUrl: null })
    .where(and(eq(payments.id, id), sql`${payments.status} <> 'paid'`))
    .returning();
  return rows[0] ?? null;
}

export async function selectPaymentsPage(db: TDb, orgId: string, statuses: TPaymentStatus[] | null, page: number, limit: number) {
  const where = and(eq(payments.orgId, orgId), statuses ? inArray(payments.status, statuses) : undefined);
  const [items, totals] = await Promise.all([
    db
      .select()
      .from(payments)
      .where(where)
      .orderBy(desc(payments.createdAt), desc(payments.number))
      .limit(limit)
      .offset((page - 1) * limit),
    db.select({ n: count() }).from(payments).where(where),
  ]);
  return { items, total: totals[0]?.n ?? 0 };
}

/** The coupons an organisation redeemed, newest first, with the coupon and who redeemed it. */
export async function selectCouponRedemptionsPage(db: TDb, orgId: string, page: number, limit: number) {
  const where = eq(couponRedemptions.orgId, orgId);
  const [items, totals] = await Promise.all([
    db
      .select({
        id: couponRedemptions.id,
        couponId: couponRedemptions.couponId,
        code: coupons.code,
        kind: coupons.kind,
        value: coupons.value,
        creditsGranted: couponRedemptions.creditsGranted,
        createdAt: couponRedemptions.createdAt,
        userId: users.id,
        userName: users.name,
        userEmail: users.email,
      })
      .from(couponRedemptions)
      .innerJoin(coupons, eq(coupons.id, couponRedemptions.couponId))
      .leftJoin(users, eq(users.id, couponRedemptions.userId))
      .where(where)
      .orderBy(desc(couponRedemptions.createdAt), desc(couponRedemptions.id))
      .limit(limit)
      .offset((page - 1) * limit),
    db.select({ n: count() }).from(couponRedemptions).where(where),
  ]);
  return { items, total: totals[0]?.n ?? 0 };
}

/** The organisation's paid payments that used one of `couponIds`, oldest first (the first one is where a coupon was used). */
export function selectPaidPaymentsWithCoupons(db: TDb, orgId: string, couponIds: string[]) {
  if (couponIds.length === 0) return Promise.resolve([]);
  return db
    .select({ couponId: payments.couponId, number: payments.number, discountMinor: payments.discountMinor, currency: payments.currency })
    .from(payments)
    .where(and(eq(payments.orgId, orgId), eq(payments.status, 'paid'), inArray(payments.couponId, couponIds)))
    .orderBy(asc(payments.paidAt), asc(payments.number));
}
