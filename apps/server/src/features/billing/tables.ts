import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { TPaymentProvider, TPaymentStatus, TPlanInterval, TPriceKind } from '@verilead/contracts';
import { organisations, users, orgIdColumn } from '../../platform/tenancy/tables';

/** A plan is sold monthly, annually or once; `free` is an organisation's state, never a plan's. */
export type TSoldPlanInterval = Exclude<TPlanInterval, 'free'>;
/** `percent` takes a share off a purchase, `credits` grants free credits (the `coupons_kind_valid` check). */
export type TCouponKind = 'percent' | 'credits';
/** What a payment buys: credits, or a plan's period. */
export type TPaymentKind = 'credits' | 'plan';
/** A subscription's state (the `subscriptions_status_valid` check). */
export type TSubscriptionStatus = 'active' | 'past_due' | 'cancelled';

/**
 * Price slabs: the price of one credit for a range of credits, per currency. Prices are kept in
 * millionths of the currency unit per credit (`unit_price_micros`), so a slab of $0.008/credit is 8000.
 * `kind` is standard, discount or bonus; a bonus slab adds `bonus_percent` free credits.
 */
export const priceSlabs = pgTable(
  'price_slabs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    currency: text('currency').notNull(),
    minCredits: integer('min_credits').notNull(),
    maxCredits: integer('max_credits'),
    unitPriceMicros: integer('unit_price_micros').notNull(),
    kind: text('kind').$type<TPriceKind>().notNull().default('standard'),
    bonusPercent: integer('bonus_percent').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('price_slabs_currency_min_idx').on(t.currency, t.minCredits),
    check('price_slabs_kind_valid', sql`${t.kind} in ('standard', 'discount', 'bonus')`),
    check('price_slabs_currency_valid', sql`${t.currency} in ('USD', 'INR')`),
  ],
);

/** Plans sold as subscriptions (monthly, annual) or once (one_time): operator configured. */
export const billingPlans = pgTable(
  'billing_plans',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    interval: text('interval').$type<TSoldPlanInterval>().notNull(),
    currency: text('currency').notNull(),
    priceMinor: integer('price_minor').notNull(),
    credits: integer('credits').notNull(),
    seats: integer('seats').notNull().default(1),
    active: boolean('active').notNull().default(true),
  },
  (t) => [check('billing_plans_interval_valid', sql`${t.interval} in ('monthly', 'annual', 'one_time')`)],
);

/** Coupons: `percent` takes a share off a purchase; `credits` grants free credits once per organisation. */
export const coupons = pgTable(
  'coupons',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    code: text('code').notNull(),
    kind: text('kind').$type<TCouponKind>().notNull(),
    value: integer('value').notNull(),
    maxRedemptions: integer('max_redemptions'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    active: boolean('active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('coupons_code_idx').on(t.code), check('coupons_kind_valid', sql`${t.kind} in ('percent', 'credits')`)],
);

/** The payment provider's customer of an organisation and its default card. */
export const billingCustomers = pgTable('billing_customers', {
  orgId: uuid('org_id')
    .primaryKey()
    .references(() => organisations.id, { onDelete: 'cascade' }),
  providerCustomerId: text('provider_customer_id').notNull(),
  defaultPaymentMethod: text('default_payment_method'),
});

/**
 * One purchase: a draft while unpaid (no number: it is not an invoice), an invoice and its receipt once paid. Credits
 * are granted once, when it becomes paid; the invoice number is given then, from `invoice_counters`, so numbers have no gaps.
 */
export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    number: integer('number'),
    orgId: orgIdColumn(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    provider: text('provider').$type<TPaymentProvider>().notNull(),
    providerRef: text('provider_ref'),
    kind: text('kind').$type<TPaymentKind>().notNull().default('credits'),
    planId: text('plan_id'),
    credits: integer('credits').notNull(),
    bonusCredits: integer('bonus_credits').notNull().default(0),
    currency: text('currency').notNull(),
    subtotalMinor: integer('subtotal_minor').notNull(),
    discountMinor: integer('discount_minor').notNull().default(0),
    taxMinor: integer('tax_minor').notNull().default(0),
    totalMinor: integer('total_minor').notNull(),
    couponId: uuid('coupon_id'),
    status: text('status').$type<TPaymentStatus>().notNull().default('pending'),
    failureMessage: text('failure_message'),
    creditTransactionId: uuid('credit_transaction_id'),
    /** Set on a subscription renewal: subscription id and period, so one period is charged once. */
    renewalKey: text('renewal_key'),
    /** Where the customer completes a payment their bank wants authenticated (Stripe's hosted invoice page). */
    actionUrl: text('action_url'),
    /** The period a plan payment pays for (from the provider's invoice line). */
    periodStart: timestamp('period_start', { withTimezone: true }),
    periodEnd: timestamp('period_end', { withTimezone: true }),
    /** The buyer's billing details when it was paid (what its invoice prints, unchanged by later edits). */
    buyer: jsonb('buyer').$type<TBuyerDetails>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
  },
  (t) => [
    index('payments_org_created_idx').on(t.orgId, t.createdAt),
    uniqueIndex('payments_provider_ref_idx').on(t.provider, t.providerRef),
    uniqueIndex('payments_renewal_key_idx').on(t.renewalKey),
    uniqueIndex('payments_number_idx').on(t.number),
    check('payments_status_valid', sql`${t.status} in ('pending', 'requires_action', 'paid', 'failed', 'cancelled')`),
  ],
);

export type TBuyerDetails = { name: string; address: string; tax_id: string };

/** The last invoice number given (one row): the transaction that marks a payment paid takes the next one. */
export const invoiceCounters = pgTable('invoice_counters', { id: integer('id').primaryKey().default(1), lastNumber: integer('last_number').notNull() }, (t) => [
  check('invoice_counters_one_row', sql`${t.id} = 1`),
]);

/** The buyer's billing details an invoice prints (edited by the owner on the billing screen). */
export const billingProfiles = pgTable('billing_profiles', {
  orgId: uuid('org_id')
    .primaryKey()
    .references(() => organisations.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  address: text('address').notNull().default(''),
  taxId: text('tax_id').notNull().default(''),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The seller an invoice names (one row, set by the operator's price file: `seller`). */
export const billingSeller = pgTable('billing_seller', { id: integer('id').primaryKey().default(1), name: text('name').notNull(), address: text('address').notNull().default(''), taxId: text('tax_id').notNull().default('') }, (t) => [
  check('billing_seller_one_row', sql`${t.id} = 1`),
]);

/** Coupons used by an organisation (one use each). */
export const couponRedemptions = pgTable(
  'coupon_redemptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    couponId: uuid('coupon_id')
      .notNull()
      .references(() => coupons.id, { onDelete: 'cascade' }),
    orgId: orgIdColumn(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    creditsGranted: integer('credits_granted').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('coupon_redemptions_once_idx').on(t.couponId, t.orgId)],
);

/** Provider webhook events received (their id is unique: a replay is recorded once and processed once). */
export const paymentEvents = pgTable(
  'payment_events',
  {
    provider: text('provider').$type<TPaymentProvider>().notNull(),
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    payload: jsonb('payload').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp('processed_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.provider, t.eventId] })],
);

/** Whether the low-credit alert was mailed since the balance last went under the threshold. */
export const lowCreditAlerts = pgTable('low_credit_alerts', {
  orgId: uuid('org_id')
    .primaryKey()
    .references(() => organisations.id, { onDelete: 'cascade' }),
  alertedAt: timestamp('alerted_at', { withTimezone: true }).notNull().defaultNow(),
});

/** An organisation's plan subscription (one per organisation), renewed off session at the end of each period. */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgIdColumn(),
    planId: text('plan_id').notNull(),
    provider: text('provider').$type<TPaymentProvider>().notNull().default('stripe'),
    providerRef: text('provider_ref'),
    status: text('status').$type<TSubscriptionStatus>().notNull().default('active'),
    currentPeriodStart: timestamp('current_period_start', { withTimezone: true }).notNull().defaultNow(),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }).notNull(),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    cancelReason: text('cancel_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('subscriptions_org_idx').on(t.orgId), check('subscriptions_status_valid', sql`${t.status} in ('active', 'past_due', 'cancelled')`)],
);
