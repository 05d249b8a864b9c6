import { jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Answers to the browser extension's uninstall survey (anonymous unless an e-mail is given). */
export const extensionUninstallFeedback = pgTable('extension_uninstall_feedback', {
  id: uuid('id').primaryKey().defaultRandom(),
  reasons: jsonb('reasons').$type<string[]>().notNull(),
  otherReason: text('other_reason'),
  comment: text('comment'),
  email: text('email'),
  extensionVersion: text('extension_version'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
