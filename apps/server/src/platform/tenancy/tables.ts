import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { TDashboardType, TDeletionReason, TMemberStatus, TPlanInterval, TRole, TSignupSource, TSocialSsoProvider } from '@verilead/contracts';

export const organisations = pgTable(
  'organisations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    websiteUrl: text('website_url'),
    tel: text('tel'),
    creditsBalance: integer('credits_balance').notNull().default(0),
    lowCreditAlertEnabled: boolean('low_credit_alert_enabled').notNull().default(false),
    lowCreditThreshold: integer('low_credit_threshold').notNull().default(100),
    planInterval: text('plan_interval').$type<TPlanInterval>().notNull().default('free'),
    planStartedAt: timestamp('plan_started_at', { withTimezone: true }).notNull().defaultNow(),
    userCreateLimit: integer('user_create_limit').notNull().default(5),
    recurCredits: integer('recur_credits'),
    /** The interval of the plan that renews its credits (a sold plan's: never `free`). */
    recurInterval: text('recur_interval').$type<Exclude<TPlanInterval, 'free'>>(),
    /** Data retention (migration 0055): uploaded files and exports, and verification results, are deleted after these days. */
    fileRetentionDays: integer('file_retention_days').notNull().default(30),
    resultRetentionDays: integer('result_retention_days').notNull().default(90),
    /** Suspended by an operator (migration 0070): nobody of the organisation signs in or uses a session or key. */
    suspendedAt: timestamp('suspended_at', { withTimezone: true }),
    /** The owner lets Verilead support see the organisation's lists and results until then (migration 0070). */
    supportAccessUntil: timestamp('support_access_until', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('organisations_credits_balance_nonnegative', sql`${t.creditsBalance} >= 0`)],
);

export type TAddressColumn = {
  line1: string;
  line2: string;
  city: string;
  state: string;
  postal_code: string;
  country: string;
};

/** How a user came: the sign-up form's answer, or single sign-on (`sso` through an organisation, else the social provider). */
export type TUserSignupSource = TSignupSource | 'sso' | TSocialSsoProvider;

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    name: text('name').notNull().default('User'),
    passwordHash: text('password_hash'),
    passwordUpdatedAt: timestamp('password_updated_at', { withTimezone: true }),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    pendingEmail: text('pending_email'),
    phoneNumber: text('phone_number'),
    address: jsonb('address').$type<TAddressColumn>(),
    timezone: text('timezone').notNull().default('UTC'),
    locale: text('locale').notNull().default('en'),
    restoreId: text('restore_id'),
    signupSource: text('signup_source').$type<TUserSignupSource>(),
    signupSourceOther: text('signup_source_other'),
    lowCreditAlertEnabled: boolean('low_credit_alert_enabled').notNull().default(false),
    lowCreditThreshold: integer('low_credit_threshold').notNull().default(100),
    dashboardType: text('dashboard_type').$type<TDashboardType>().notNull().default('individual'),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    deletionReason: text('deletion_reason').$type<TDeletionReason>(),
    deletionReasonOther: text('deletion_reason_other'),
    /** Suspended by an operator (migration 0070): cannot sign in, sessions and keys refused. */
    suspendedAt: timestamp('suspended_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_email_unique').on(t.email)],
);

/**
 * The organisation a tenant's row belongs to: `org_id`, not null, the row deleted with its organisation. A table
 * whose `org_id` is its primary key, may be null or is kept when the organisation goes writes its own.
 */
export function orgIdColumn() {
  return uuid('org_id')
    .notNull()
    .references(() => organisations.id, { onDelete: 'cascade' });
}

/**
 * The member a tenant's row belongs to: `user_id`, not null, the row deleted with its user. A table that keeps the
 * row when the user goes (`set null`) or has no foreign key writes its own.
 */
export function userIdColumn() {
  return uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });
}

export const memberships = pgTable(
  'memberships',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgIdColumn(),
    userId: userIdColumn(),
    role: text('role').$type<TRole>().notNull(),
    status: text('status').$type<TMemberStatus>().notNull().default('active'),
    dailyLimit: integer('daily_limit'),
    lifeTimeLimit: integer('life_time_limit'),
    dailyUsed: integer('daily_used').notNull().default(0),
    dailyUsedOn: date('daily_used_on', { mode: 'string' }),
    lifeTimeUsed: integer('life_time_used').notNull().default(0),
    /** A daily-limit change waiting for its day: in force from `daily_limit_next_from` (null value = unlimited). */
    dailyLimitNext: integer('daily_limit_next'),
    dailyLimitNextFrom: date('daily_limit_next_from', { mode: 'string' }),
    /** Today's total allowance set directly ("remaining daily limit"): in force only on `daily_cap_on`. */
    dailyCap: integer('daily_cap'),
    dailyCapOn: date('daily_cap_on', { mode: 'string' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('memberships_user_unique').on(t.userId),
    index('memberships_org_idx').on(t.orgId),
    check('memberships_role_valid', sql`${t.role} in ('owner', 'admin', 'analyst')`),
    check('memberships_status_valid', sql`${t.status} in ('active', 'inactive', 'removed')`),
    check('memberships_usage_nonnegative', sql`${t.dailyUsed} >= 0 and ${t.lifeTimeUsed} >= 0`),
  ],
);
