import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { orgIdColumn } from '../../platform/tenancy/tables';

/** Product events (e.g. email_verifier.bulk.completed) that webhook delivery reads. */
export const events = pgTable(
  'events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgIdColumn(),
    userId: uuid('user_id'),
    type: text('type').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('events_org_created_idx').on(t.orgId, t.createdAt), index('events_type_created_idx').on(t.type, t.createdAt)],
);
