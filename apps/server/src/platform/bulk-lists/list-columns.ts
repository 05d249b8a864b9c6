import type { TJobActivityType } from '@verilead/contracts';
import { boolean, integer, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { orgIdColumn, userIdColumn } from '../tenancy/tables';

/**
 * The states every bulk list moves through: a product names its idle and done states itself (`non_verified` and
 * `verified` for the verifier, `not_processed` and `processed` for the finder); `in_progress` and `cancelled` are the
 * kernel's, for the lifecycle below acts on them.
 */
export type TBulkListState = 'in_progress' | 'cancelled';

/** The columns of every list's row, file or source: its id, owner, typed state and times. */
function listRowColumns<TState extends string>(initialState: TState) {
  return {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgIdColumn(),
    userId: userIdColumn(),
    state: text('state').$type<TState>().notNull().default(initialState),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  };
}

/**
 * The columns a source list's state row shares (source-list-store.ts): a list enrichment, a platform import. `state`
 * is typed text (the product's own words, `queued` or `importing` first); `error` says why a run failed or stopped.
 * The product adds its source, cursor, counters and, when its run can be cancelled, its latest job.
 */
export function sourceListColumns<TState extends string>(opts: { initialState: TState }) {
  return { ...listRowColumns(opts.initialState), error: text('error') };
}

/**
 * The columns every bulk list table shares (an uploaded file, its owner, its state and its running job), for a
 * product's `pgTable` to spread. `state` and `activity` are typed text: the database keeps them as plain text (no
 * migration), the TypeScript union keeps each product to its own words. `jobColumn` is the database name of the column
 * holding the list's plan job (the verifier's predates the finder's); in TypeScript both are `jobId`.
 */
export function bulkListColumns<TState extends string>(opts: { initialState: TState; jobColumn: string }) {
  return {
    ...listRowColumns(opts.initialState),
    /** The app whose token uploaded the list (/v2); its charges count in the app's usage (migration 0060, FK on delete set null). */
    appId: uuid('app_id'),
    name: text('name').notNull(),
    fileName: text('file_name').notNull(),
    fileType: text('file_type').notNull(),
    storageKey: text('storage_key').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    hasHeader: boolean('has_header').notNull(),
    /** The job activity running on the list (`analyse`, then the product's own), null when none runs. */
    activity: text('activity').$type<TJobActivityType>(),
    rowCount: integer('row_count').notNull().default(0),
    /** The plan job of the latest start (cancelled with the list). */
    jobId: uuid(opts.jobColumn),
    /** The plan job whose chunk jobs were enqueued: a retried plan enqueues nothing twice. */
    plannedJobId: uuid('planned_job_id'),
    stoppedReason: text('stopped_reason'),
    /** When data retention deleted the uploaded file (migration 0055). */
    fileDeletedAt: timestamp('file_deleted_at', { withTimezone: true }),
  };
}
