import { bigint, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { organisations } from '../../platform/tenancy/tables';

/**
 * The credits ledger added up per organisation, member, feature, detail and quarter hour, kept by a database
 * trigger on `credit_transactions` (migration 0010), so it can never disagree with the ledger. Quarter hours
 * make every time zone's day boundary exact (all UTC offsets are multiples of 15 minutes).
 * `user_id` is the nil uuid for rows without a member.
 */
export const usageRollups = pgTable(
  'usage_rollups',
  {
    orgId: uuid('org_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').notNull(),
    feature: text('feature').notNull(),
    detail: text('detail').notNull(),
    bucket: timestamp('bucket', { withTimezone: true }).notNull(),
    charged: bigint('charged', { mode: 'number' }).notNull().default(0),
    refunded: bigint('refunded', { mode: 'number' }).notNull().default(0),
    charges: integer('charges').notNull().default(0),
    refunds: integer('refunds').notNull().default(0),
  },
  (t) => [
    primaryKey({ name: 'usage_rollups_pk', columns: [t.orgId, t.bucket, t.userId, t.feature, t.detail] }),
    index('usage_rollups_org_user_bucket_idx').on(t.orgId, t.userId, t.bucket),
  ],
);
