import { bigint, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { orgIdColumn } from '../../platform/tenancy/tables';

/** One check the widget asked for (a field value); (app_id, request_id) makes a retried check answer its first result. */
export const formGuardChecks = pgTable(
  'form_guard_checks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgIdColumn(),
    /** The guard (an app; the migration's foreign key removes its checks with it). */
    appId: uuid('app_id').notNull(),
    requestId: text('request_id').notNull(),
    type: text('type').notNull(),
    value: text('value').notNull(),
    isAcceptable: integer('is_acceptable').notNull(),
    reason: text('reason'),
    creditsCharged: integer('credits_charged').notNull().default(0),
    details: jsonb('details').$type<Record<string, unknown>>().notNull(),
    ip: text('ip'),
    pageUrl: text('page_url'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('form_guard_checks_request_unique').on(t.appId, t.requestId), index('form_guard_checks_org_idx').on(t.orgId, t.createdAt)],
);

/** Checks counted per guard, scope (an IP or "*") and window (its start in epoch seconds; 0 for life-time). */
export const formGuardCounters = pgTable(
  'form_guard_counters',
  {
    /** The guard (an app; the migration's foreign key removes its counters with it). */
    appId: uuid('app_id').notNull(),
    scopeKey: text('scope_key').notNull(),
    window: text('window').notNull(),
    windowStart: bigint('window_start', { mode: 'number' }).notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ name: 'form_guard_counters_pk', columns: [t.appId, t.scopeKey, t.window, t.windowStart] })],
);
