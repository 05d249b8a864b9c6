import { check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { orgIdColumn } from '../../platform/tenancy/tables';

/** Operators of the installation (migration 0070): not members of any organisation; their own credentials. */
export const operators = pgTable(
  'operators',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    /** argon2id like users' passwords; null until the one-time link was used. */
    passwordHash: text('password_hash'),
    invitedBy: uuid('invited_by'),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('operators_email_unique').on(t.email)],
);

/** Operator sessions: bearer tokens `vlo_…` stored as SHA-256; never accepted on customer routes (other table). */
export const operatorSessions = pgTable(
  'operator_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    operatorId: uuid('operator_id')
      .notNull()
      .references(() => operators.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('operator_sessions_token_hash_unique').on(t.tokenHash)],
);

/** One-time links that set an operator's password (first operator, invitations): single use, expiring. */
export const operatorLinks = pgTable(
  'operator_links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    operatorId: uuid('operator_id')
      .notNull()
      .references(() => operators.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('operator_links_token_hash_unique').on(t.tokenHash)],
);

/** The operator-side log: every operator action, with the organisation it touched (if any). */
export const operatorActions = pgTable(
  'operator_actions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    operatorId: uuid('operator_id').references(() => operators.id, { onDelete: 'set null' }),
    operatorEmail: text('operator_email').notNull(),
    action: text('action').notNull(),
    orgId: uuid('org_id'),
    targetType: text('target_type'),
    targetId: text('target_id'),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('operator_actions_created_idx').on(t.createdAt.desc()),
    index('operator_actions_org_idx').on(t.orgId, t.createdAt.desc()),
  ],
);

/** Credit grants and removals by operators; (org, idempotency key) makes a retried request answer the first result. */
export const operatorCreditAdjustments = pgTable(
  'operator_credit_adjustments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgIdColumn(),
    idempotencyKey: text('idempotency_key').notNull(),
    operatorId: uuid('operator_id').references(() => operators.id, { onDelete: 'set null' }),
    /** Positive: granted; negative: removed. */
    amount: integer('amount').notNull(),
    reason: text('reason').notNull(),
    transactionId: uuid('transaction_id'),
    balanceAfter: integer('balance_after').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('operator_credit_adjustments_key_unique').on(t.orgId, t.idempotencyKey),
    check('operator_credit_adjustments_amount_nonzero', sql`${t.amount} <> 0`),
  ],
);
