import { boolean, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Our side of a pg-boss job (same id): which queue holds it (pg-boss looks jobs up by queue and id), the
 * organisation it belongs to (cancel is scoped by it), its progress and whether cancelling was asked while it
 * ran. State, attempts, result and errors stay in pg-boss (`pgboss.job`, then `pgboss.archive`).
 * The maintenance job deletes a row once pg-boss has deleted its job.
 */
export const jobStatus = pgTable(
  'job_status',
  {
    id: uuid('id').primaryKey(),
    queue: text('queue').notNull(),
    name: text('name').notNull(),
    orgId: uuid('org_id'),
    userId: uuid('user_id'),
    progress: integer('progress').notNull().default(0),
    cancelRequested: boolean('cancel_requested').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('job_status_name_idx').on(t.name), index('job_status_created_idx').on(t.createdAt)],
);
