import { boolean, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Durable jobs: queued → active → completed | failed | cancelled (retries go back to queued with a later run_at). */
export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    payload: jsonb('payload').$type<unknown>().notNull(),
    state: text('state').notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(5),
    backoffMs: integer('backoff_ms').notNull().default(1000),
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    lockedAt: timestamp('locked_at', { withTimezone: true }),
    lockedBy: text('locked_by'),
    cancelRequested: boolean('cancel_requested').notNull().default(false),
    progress: integer('progress').notNull().default(0),
    result: jsonb('result').$type<unknown>(),
    lastError: text('last_error'),
    orgId: uuid('org_id'),
    userId: uuid('user_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('jobs_fetch_idx').on(t.state, t.runAt), index('jobs_org_idx').on(t.orgId)],
);
