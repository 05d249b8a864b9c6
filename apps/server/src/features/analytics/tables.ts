import { bigint, index, integer, pgTable, primaryKey, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { orgIdColumn } from '../../platform/tenancy/tables';

/**
 * The credits ledger added up per organisation, member, feature, detail and quarter hour, kept by a database
 * trigger on `credit_transactions` (migration 0010), so it can never disagree with the ledger. Quarter hours
 * make every time zone's day boundary exact (all UTC offsets are multiples of 15 minutes).
 * `user_id` is the nil uuid for rows without a member.
 */
export const usageRollups = pgTable(
  'usage_rollups',
  {
    orgId: orgIdColumn(),
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

/**
 * The organisation's usage per hour (no member), kept by the same trigger three times, once per phase: hours
 * starting 0, 30 or 45 minutes past the UTC hour. A zone's local hours (and so its days and months) start on one
 * of these, so organisation-wide reports over long ranges read one row per hour instead of one per member and
 * quarter hour.
 */
export const usageRollupsHourly = pgTable(
  'usage_rollups_hourly',
  {
    orgId: orgIdColumn(),
    phase: smallint('phase').notNull(),
    bucket: timestamp('bucket', { withTimezone: true }).notNull(),
    feature: text('feature').notNull(),
    detail: text('detail').notNull(),
    charged: bigint('charged', { mode: 'number' }).notNull().default(0),
    refunded: bigint('refunded', { mode: 'number' }).notNull().default(0),
    charges: integer('charges').notNull().default(0),
    refunds: integer('refunds').notNull().default(0),
  },
  (t) => [primaryKey({ name: 'usage_rollups_hourly_pk', columns: [t.orgId, t.phase, t.bucket, t.feature, t.detail] })],
);
