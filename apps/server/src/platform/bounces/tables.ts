import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { TBounceKind, TBounceSource } from '@verilead/contracts';
import { orgIdColumn } from '../tenancy/tables';

/**
 * The bounces an organisation fed back (an uploaded report's rows, an ESP webhook's events): its own, never read for
 * another organisation. One row per address, kind, source and moment, so a report applied twice or an event delivered
 * again adds nothing.
 */
export const bounces = pgTable(
  'bounces',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgIdColumn(),
    /** Lower-cased address; null once data retention erased it (kept for a settled credit-back claim's figures). */
    email: text('email'),
    domain: text('domain').notNull(),
    kind: text('kind').$type<TBounceKind>().notNull(),
    source: text('source').$type<TBounceSource>().notNull(),
    bouncedAt: timestamp('bounced_at', { withTimezone: true }).notNull(),
    reason: text('reason'),
    code: text('code'),
    /** The uploaded report it came from (null for webhook events). */
    reportId: uuid('report_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('bounces_org_event_idx').on(t.orgId, t.email, t.kind, t.source, t.bouncedAt),
    index('bounces_org_domain_idx').on(t.orgId, t.domain),
    check('bounces_kind_valid', sql`${t.kind} in ('hard', 'soft')`),
  ],
);
