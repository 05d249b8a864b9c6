import { index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { TWbListType } from '@verilead/contracts';
import { users, orgIdColumn, userIdColumn } from '../../platform/tenancy/tables';

/** Each user's preferences; a missing section means the defaults. */
export const userSettings = pgTable('user_settings', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  orgId: orgIdColumn(),
  ev: jsonb('ev').$type<Record<string, unknown>>(),
  ef: jsonb('ef').$type<Record<string, unknown>>(),
  prospect: jsonb('prospect').$type<Record<string, unknown>>(),
  notifications: jsonb('notifications').$type<Record<string, unknown>>(),
  wbListModifiedAt: timestamp('wb_list_modified_at', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A user's allow / block list entries (addresses or domains) used by verification. */
export const wbListEntries = pgTable(
  'wb_list_entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgIdColumn(),
    userId: userIdColumn(),
    listType: text('list_type').$type<TWbListType>().notNull(),
    value: text('value').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('wb_list_entries_user_type_value_uq').on(t.userId, t.listType, t.value), index('wb_list_entries_org_idx').on(t.orgId)],
);
