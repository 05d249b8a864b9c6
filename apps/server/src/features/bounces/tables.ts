import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { TBounceMapping, TBounceWebhookPlatform, TUploadFileType } from '@verilead/contracts';
import { bounces } from '../../platform/bounces/tables';
import { creditTransactions } from '../../platform/credits/tables';
import { users, orgIdColumn } from '../../platform/tenancy/tables';

/** An uploaded bounce report: stored, previewed with the detected mapping, then applied once with the chosen one. */
export const bounceReports = pgTable(
  'bounce_reports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgIdColumn(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    fileName: text('file_name').notNull(),
    fileType: text('file_type').$type<TUploadFileType>().notNull(),
    storageKey: text('storage_key').notNull(),
    /** preview | applied */
    state: text('state').$type<'preview' | 'applied'>().notNull().default('preview'),
    mapping: jsonb('mapping').$type<TBounceMapping>(),
    rows: integer('rows').notNull().default(0),
    hard: integer('hard').notNull().default(0),
    soft: integer('soft').notNull().default(0),
    ignored: integer('ignored').notNull().default(0),
    matched: integer('matched').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    appliedAt: timestamp('applied_at', { withTimezone: true }),
    /** When data retention removed the uploaded file (the report keeps its figures; an unapplied one cannot be applied). */
    fileDeletedAt: timestamp('file_deleted_at', { withTimezone: true }),
  },
  (t) => [index('bounce_reports_org_created_idx').on(t.orgId, t.createdAt)],
);

/**
 * A connected ESP's bounce webhook: the SHA-256 (hex) of its secret address's token (the address itself is shown once,
 * when it is made) and, for SendGrid, the ECDSA verification key.
 */
export const bounceWebhooks = pgTable(
  'bounce_webhooks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgIdColumn(),
    platform: text('platform').$type<TBounceWebhookPlatform>().notNull(),
    tokenHash: text('token_hash').notNull(),
    verificationKey: text('verification_key'),
    events: integer('events').notNull().default(0),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('bounce_webhooks_token_hash_idx').on(t.tokenHash), uniqueIndex('bounce_webhooks_org_platform_idx').on(t.orgId, t.platform)],
);

/** A claim: awaiting its re-check, credited back, or declined by it. */
export type TCreditBackState = 'pending' | 'credited' | 'declined';

/**
 * The guarantee's claims: one row per charged valid verdict that hard-bounced within the guarantee. The primary key is
 * what makes a credit-back happen once whatever the retries and concurrency (the insert that loses waits for the
 * winner and then does nothing). A claim is settled by a re-check of its address (confirm-credit-backs.ts).
 */
export const bounceCreditBacks = pgTable(
  'bounce_credit_backs',
  {
    orgId: orgIdColumn(),
    /** `instant:<id>` or `list:<list>:<row>`: the verdict whose charge is given back. */
    verdictRef: text('verdict_ref').notNull(),
    /** The bounced address; null once data retention erased it (a settled claim only: a pending one's re-check needs it). */
    email: text('email'),
    bounceId: uuid('bounce_id')
      .notNull()
      .references(() => bounces.id, { onDelete: 'cascade' }),
    credits: integer('credits').notNull(),
    state: text('state').$type<TCreditBackState>().notNull().default('pending'),
    /** Who was charged for the verdict (the refund goes to their usage too). */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The ledger line's reason when it is credited: the bounce and the verdict. */
    ledgerReason: text('ledger_reason'),
    /** Re-checks that could not tell (the claim is declined after the last). */
    attempts: integer('attempts').notNull().default(0),
    checkedAt: timestamp('checked_at', { withTimezone: true }),
    /** What the re-check answered: its status and reason code. */
    checkStatus: text('check_status'),
    checkReason: text('check_reason'),
    transactionId: uuid('transaction_id').references(() => creditTransactions.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'bounce_credit_backs_pk', columns: [t.orgId, t.verdictRef] }),
    check('bounce_credit_backs_state_valid', sql`${t.state} in ('pending', 'credited', 'declined')`),
    index('bounce_credit_backs_pending_idx').on(t.orgId, t.createdAt).where(sql`${t.state} = 'pending'`),
    index('bounce_credit_backs_bounce_idx').on(t.bounceId),
  ],
);
