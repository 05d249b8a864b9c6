import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { TCurrency, TPaymentProvider, TPaymentStatus } from '@verilead/contracts';
import { selectRows, type TDb } from '../../platform/db/database';
import { memberships, organisations, users } from '../../platform/tenancy/tables';
import { billingCustomers, billingPlans, billingProfiles, billingSeller, couponRedemptions, coupons, invoiceCounters, paymentEvents, payments, priceSlabs, subscriptions, type TSoldPlanInterval } from './tables';
import type { TSlabRow } from './pricing';

export type TPaymentRow = typeof payments.$inferSelect;
export type TCouponRow = typeof coupons.$inferSelect;

export async function selectSlabs(db: TDb, currency: TCurrency): Promise<(TSlabRow & { id: string })[]> {
  const rows = await db.select().from(priceSlabs).where(eq(priceSlabs.currency, currency)).orderBy(asc(priceSlabs.minCredits));
  return rows.map((r) => ({ ...r, currency: r.currency as TCurrency, kind: r.kind }));
}

export function selectPlans(db: TDb, currency: TCurrency, interval?: TSoldPlanInterval) {
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

/** Whether the organisation redeemed the coupon. */
export async function hasRedeemedCoupon(db: TDb, couponId: string, orgId: string): Promise<boolean> {
  const own = await db
    .select({ id: couponRedemptions.id })
    .from(couponRedemptions)
    .where(and(eq(couponRedemptions.couponId, couponId), eq(couponRedemptions.orgId, orgId)))
    .limit(1);
  return own.length > 0;
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

export async function selectPaymentByRef(db: TDb, provider: TPaymentProvider, ref: string): Promise<TPaymentRow | null> {
  const rows = await db.select().from(payments).where(and(eq(payments.provider, provider), eq(payments.providerRef, ref))).limit(1);
  return rows[0] ?? null;
}

/** A payment of the caller's organisation at a provider, by the provider's reference (null when none). */
export async function selectOrgPaymentByRef(db: TDb, orgId: string, provider: TPaymentProvider, ref: string): Promise<TPaymentRow | null> {
  const rows = await db
    .select()
    .from(payments)
    .where(and(eq(payments.orgId, orgId), eq(payments.provider, provider), eq(payments.providerRef, ref)))
    .limit(1);
  return rows[0] ?? null;
}

/** Records a provider's invoice as a payment once (its reference is unique per provider; a second insert does nothing). */
export async function insertInvoicePayment(db: TDb, values: typeof payments.$inferInsert) {
  await db.insert(payments).values(values).onConflictDoNothing();
}

/** Records a renewal payment once per renewal key: its id to the one caller that inserted it, else null. */
export async function insertRenewalPayment(db: TDb, values: typeof payments.$inferInsert): Promise<string | null> {
  const inserted = await db.insert(payments).values(values).onConflictDoNothing().returning({ id: payments.id });
  return inserted[0]?.id ?? null;
}

/** Moves an unpaid payment to `values.status` unless it is paid or already there; true when it changed. */
export async function updateOpenPayment(db: TDb, id: string, values: { status: TPaymentStatus; failureMessage: string | null; actionUrl: string | null }): Promise<boolean> {
  const rows = await db
    .update(payments)
    .set(values)
    .where(and(eq(payments.id, id), sql`${payments.status} not in ('paid', ${values.status})`))
    .returning({ id: payments.id });
  return rows.length > 0;
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

/**
 * Marks a payment paid once: answers the row only to the one caller that made the change. In the same transaction
 * (the caller's), the payment takes the next invoice number from the counter row (whose lock orders concurrent
 * payments, and whose change rolls back with the payment's) and the buyer's billing details as they are now.
 */
export async function claimPaid(db: TDb, id: string): Promise<TPaymentRow | null> {
  const claimed = await db
    .update(payments)
    .set({ status: 'paid', paidAt: sql`now()`, failureMessage: null, actionUrl: null })
    .where(and(eq(payments.id, id), sql`${payments.status} <> 'paid'`))
    .returning({ id: payments.id, orgId: payments.orgId });
  if (!claimed[0]) return null;
  const counter = await db
    .insert(invoiceCounters)
    .values({ id: 1, lastNumber: 1 })
    .onConflictDoUpdate({ target: invoiceCounters.id, set: { lastNumber: sql`${invoiceCounters.lastNumber} + 1` } })
    .returning({ n: invoiceCounters.lastNumber });
  const profile = await db.select().from(billingProfiles).where(eq(billingProfiles.orgId, claimed[0].orgId)).limit(1);
  const buyer = profile[0] ? { name: profile[0].name, address: profile[0].address, tax_id: profile[0].taxId } : null;
  const rows = await db.update(payments).set({ number: counter[0]!.n, buyer }).where(eq(payments.id, id)).returning();
  return rows[0] ?? null;
}

/** How long an unpaid checkout stays listed as a pending payment (a Checkout Session expires after 24 hours). */
export const DRAFT_LISTED_HOURS = 24;

/**
 * A page of the organisation's payments: `paid` (invoices and receipts), or `pending` (a payment the bank asks to
 * authenticate, and drafts younger than DRAFT_LISTED_HOURS); declined, cancelled and abandoned ones are never listed.
 */
export async function selectPaymentsPage(db: TDb, orgId: string, which: 'paid' | 'pending', page: number, limit: number) {
  const where =
    which === 'paid'
      ? and(eq(payments.orgId, orgId), eq(payments.status, 'paid'))
      : and(
          eq(payments.orgId, orgId),
          sql`(${payments.status} = 'requires_action' or (${payments.status} = 'pending' and ${payments.createdAt} > now() - make_interval(hours => ${DRAFT_LISTED_HOURS})))`,
        );
  const [items, totals] = await Promise.all([
    db
      .select({ payment: payments, planName: billingPlans.name })
      .from(payments)
      .leftJoin(billingPlans, eq(billingPlans.id, payments.planId))
      .where(where)
      .orderBy(which === 'paid' ? desc(payments.number) : desc(payments.createdAt), desc(payments.id))
      .limit(limit)
      .offset((page - 1) * limit),
    db.select({ n: count() }).from(payments).where(where),
  ]);
  return { items, total: totals[0]?.n ?? 0 };
}

export async function selectPlan(db: TDb, id: string) {
  const rows = await db.select().from(billingPlans).where(eq(billingPlans.id, id)).limit(1);
  return rows[0] ?? null;
}

/** The organisation's subscription with its plan (null when it never subscribed). */
export async function selectSubscriptionWithPlan(db: TDb, orgId: string) {
  const rows = await db.select({ sub: subscriptions, plan: billingPlans }).from(subscriptions).leftJoin(billingPlans, eq(billingPlans.id, subscriptions.planId)).where(eq(subscriptions.orgId, orgId)).limit(1);
  return rows[0] ?? null;
}

export async function selectBillingProfile(db: TDb, orgId: string) {
  const rows = await db.select().from(billingProfiles).where(eq(billingProfiles.orgId, orgId)).limit(1);
  return rows[0] ?? null;
}

export async function upsertBillingProfile(db: TDb, orgId: string, v: { name: string; address: string; taxId: string }) {
  const rows = await db
    .insert(billingProfiles)
    .values({ orgId, ...v })
    .onConflictDoUpdate({ target: billingProfiles.orgId, set: { ...v, updatedAt: sql`now()` } })
    .returning();
  return rows[0]!;
}

export async function selectSeller(db: TDb) {
  const rows = await db.select().from(billingSeller).where(eq(billingSeller.id, 1)).limit(1);
  return rows[0] ?? null;
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

// ---------- provider events ----------

/** Stores a provider's event once by its id: true when it is new, false for a duplicate delivery. */
export async function insertPaymentEvent(tx: TDb, e: { provider: TPaymentProvider; eventId: string; type: string; payload: Record<string, unknown> }): Promise<boolean> {
  const inserted = await tx.insert(paymentEvents).values(e).onConflictDoNothing().returning({ id: paymentEvents.eventId });
  return inserted.length > 0;
}

/** A stored provider event, or null. */
export async function selectPaymentEvent(db: TDb, provider: TPaymentProvider, eventId: string) {
  const rows = await db
    .select()
    .from(paymentEvents)
    .where(and(eq(paymentEvents.provider, provider), eq(paymentEvents.eventId, eventId)))
    .limit(1);
  return rows[0] ?? null;
}

export async function markPaymentEventProcessed(db: TDb, provider: TPaymentProvider, eventId: string) {
  await db
    .update(paymentEvents)
    .set({ processedAt: sql`now()` })
    .where(and(eq(paymentEvents.provider, provider), eq(paymentEvents.eventId, eventId)));
}

/** Whether the job of a stored event has run. */
export async function isPaymentEventProcessed(exec: TDb, provider: TPaymentProvider, eventId: string): Promise<boolean> {
  const stored = await exec
    .select({ processedAt: paymentEvents.processedAt })
    .from(paymentEvents)
    .where(and(eq(paymentEvents.provider, provider), eq(paymentEvents.eventId, eventId)))
    .limit(1);
  return Boolean(stored[0]?.processedAt);
}

// ---------- the organisation's people ----------

/** The active owners of an organisation, with the organisation's name. */
export function selectActiveOwners(db: TDb, orgId: string) {
  return db
    .select({ email: users.email, name: users.name, orgName: organisations.name })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .innerJoin(organisations, eq(organisations.id, memberships.orgId))
    .where(and(eq(memberships.orgId, orgId), eq(memberships.role, 'owner'), eq(memberships.status, 'active')));
}

export async function selectOrgName(db: TDb, orgId: string): Promise<string | null> {
  const rows = await db.select({ name: organisations.name }).from(organisations).where(eq(organisations.id, orgId)).limit(1);
  return rows[0]?.name ?? null;
}

export async function selectUserEmail(db: TDb, userId: string): Promise<string | null> {
  const rows = await db.select({ email: users.email }).from(users).where(eq(users.id, userId)).limit(1);
  return rows[0]?.email ?? null;
}
