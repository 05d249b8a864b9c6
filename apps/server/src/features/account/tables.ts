import { integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users, orgIdColumn } from '../../platform/tenancy/tables';

/** Upgrade requests recorded by POST /user/upgrade (fulfilled by billing later). */
export const upgradeRequests = pgTable('upgrade_requests', {
  id: uuid('id').primaryKey().defaultRandom(),
  orgId: orgIdColumn(),
  userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
  currentPlan: text('current_plan').notNull(),
  targetPlan: text('target_plan').notNull(),
  credits: integer('credits'),
  seats: integer('seats'),
  currency: text('currency').notNull(),
  status: text('status').notNull().default('requested'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
