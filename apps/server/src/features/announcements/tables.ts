import { bigint, boolean, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** The single site-wide announcement (row id 1). `timestamp` is bumped on every change. */
export const announcements = pgTable('announcements', {
  id: integer('id').primaryKey(),
  message: text('message'),
  dismissable: boolean('dismissable').notNull().default(false),
  styles: jsonb('styles')
    .$type<{ top_container: Record<string, string>; close_btn: Record<string, string> }>()
    .notNull()
    .default({ top_container: {}, close_btn: {} }),
  timestamp: bigint('timestamp', { mode: 'number' }).notNull().default(0),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
