import { sql } from 'drizzle-orm';
import { boolean, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { TInstantSource, TListAnalysisState, TListSource, TReverifyPeriod, TReverifyRunKind, TVerificationMode, TVerificationStatus, TVerifyListState } from '@verilead/contracts';
import { bulkListColumns } from '../../platform/bulk-lists/list-columns';
import { orgIdColumn, userIdColumn } from '../../platform/tenancy/tables';

/** Counters kept on a list while results arrive (same transaction as the result rows). */
export type TListCounters = {
  verified: number;
  valid: number;
  invalid: number;
  catch_all: number;
  unknown: number;
  disposable: number;
  gibberish: number;
  free_account: number;
  role_account: number;
  billable: number;
  safe_to_send: number;
  /** Sum of deliverability scores (0–1) over valid results. */
  valid_score_sum: number;
};

/** What a list row is: a first occurrence (verified), a repeat of one, or not an address at all. */
export type TListEmailKind = 'unique' | 'duplicate' | 'syntax_error';

/** A bulk verification list (an uploaded file). */
export const verifyLists = pgTable(
  'verify_lists',
  {
    ...bulkListColumns<TVerifyListState>({ initialState: 'non_verified', jobColumn: 'verify_job_id' }),
    source: text('source').$type<TListSource>().notNull().default('upload'),
    /** SHA-256 of the uploaded bytes: a retried API upload of the same file finds its list instead of making another. */
    contentSha256: text('content_sha256'),
    emailColumn: integer('email_column').notNull(),
    analysisState: text('analysis_state').$type<TListAnalysisState>().notNull().default('pending'),
    analysisError: text('analysis_error'),
    uniqueCount: integer('unique_count').notNull().default(0),
    duplicateCount: integer('duplicate_count').notNull().default(0),
    syntaxErrorCount: integer('syntax_error_count').notNull().default(0),
    counters: jsonb('counters').$type<TListCounters>().notNull(),
    mode: text('mode').$type<TVerificationMode>(),
    /** Rows waiting for a greylist re-check, and when the next one is due (kept with the rows, same transaction). */
    greylistWaiting: integer('greylist_waiting').notNull().default(0),
    greylistRecheckAt: timestamp('greylist_recheck_at', { withTimezone: true }),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    /** When retention deleted the per-row results (the counters stay: analytics reads them). */
    resultsDeletedAt: timestamp('results_deleted_at', { withTimezone: true }),
  },
  (t) => [index('verify_lists_org_created_idx').on(t.orgId, t.createdAt), index('verify_lists_org_file_idx').on(t.orgId, t.fileName)],
);

/** One row per data row of the file; results are stored on `unique` rows. (list_id, row_number) is the idempotency key. */
export const verifyListEmails = pgTable(
  'verify_list_emails',
  {
    /** The list (no foreign key: checked once per inserted batch, and a list's deletion deletes its rows; migration 0031). */
    listId: uuid('list_id').notNull(),
    rowNumber: integer('row_number').notNull(),
    email: text('email').notNull(),
    dedupeKey: text('dedupe_key').notNull(),
    /** unique | duplicate | syntax_error */
    kind: text('kind').$type<TListEmailKind>().notNull(),
    /** A duplicate's unique row: the first row of the file with the same dedupe key. */
    firstRow: integer('first_row'),
    status: text('status').$type<TVerificationStatus>(),
    result: jsonb('result').$type<Record<string, unknown>>(),
    billable: boolean('billable').notNull().default(false),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    /** Greylist re-checks made so far; `recheck_at` is set while the row (still without a result) waits for the next. */
    greylistRechecks: integer('greylist_rechecks').notNull().default(0),
    recheckAt: timestamp('recheck_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.listId, t.rowNumber] }),
    index('verify_list_emails_pending_idx')
      .on(t.listId, t.rowNumber)
      .where(sql`${t.kind} = 'unique' and ${t.status} is null`),
    index('verify_list_emails_recheck_idx')
      .on(t.listId, t.recheckAt)
      .where(sql`${t.status} is null and ${t.recheckAt} is not null`),
  ],
);

/** Instant verifications (the per-user recent results). */
export const instantVerifications = pgTable(
  'instant_verifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgIdColumn(),
    userId: userIdColumn(),
    email: text('email').notNull(),
    status: text('status').$type<TVerificationStatus>().notNull(),
    /** Where the verification was asked: `app` (the web app, a session) or `api` (an API key). */
    source: text('source').$type<TInstantSource>().notNull().default('app'),
    result: jsonb('result').$type<Record<string, unknown>>().notNull(),
    billable: boolean('billable').notNull(),
    creditsCharged: integer('credits_charged').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // By member (their history, their reports) and by organisation (organisation-wide reports and the dashboard over a range).
  (t) => [
    index('instant_verifications_user_created_idx').on(t.userId, t.createdAt),
    index('instant_verifications_org_created_idx').on(t.orgId, t.createdAt),
    // The bounce guarantee finds an address's verdicts (migration 0075).
    index('instant_verifications_org_email_idx').on(t.orgId, sql`lower(${t.email})`),
  ],
);

/**
 * Instant verification results folded into quarter-hour aggregates by data retention before their rows are deleted
 * (migration 0055): `summariseVerifications` adds them to the rows still kept, so analytics figures stay the same.
 */
export const instantVerificationRollups = pgTable(
  'instant_verification_rollups',
  {
    orgId: orgIdColumn(),
    userId: userIdColumn(),
    bucket: timestamp('bucket', { withTimezone: true }).notNull(),
    verified: integer('verified').notNull().default(0),
    valid: integer('valid').notNull().default(0),
    invalid: integer('invalid').notNull().default(0),
    catchAll: integer('catch_all').notNull().default(0),
    unknown: integer('unknown').notNull().default(0),
    disposable: integer('disposable').notNull().default(0),
    gibberish: integer('gibberish').notNull().default(0),
    freeAccount: integer('free_account').notNull().default(0),
    roleAccount: integer('role_account').notNull().default(0),
    billable: integer('billable').notNull().default(0),
    safeToSend: integer('safe_to_send').notNull().default(0),
    validScoreSum: doublePrecision('valid_score_sum').notNull().default(0),
    credits: integer('credits').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.userId, t.bucket] })],
);

// ---------- lists that stay verified (migration 0080): a list's schedule, its runs, and the rows each run re-checked.

/** A list's re-verification schedule (no row: off). `next_run_at` moves on as the scheduler queues each run. */
export const verifyListSchedules = pgTable(
  'verify_list_schedules',
  {
    listId: uuid('list_id')
      .primaryKey()
      .references(() => verifyLists.id, { onDelete: 'cascade' }),
    orgId: orgIdColumn(),
    /** Who turned it on: the member charged, like the list's own verification. */
    userId: userIdColumn(),
    period: text('period').$type<Exclude<TReverifyPeriod, 'off'>>().notNull(),
    ageDays: integer('age_days').notNull(),
    nextRunAt: timestamp('next_run_at', { withTimezone: true }).notNull(),
    /** The cost per run the person confirmed when turning it on. */
    costPerRun: integer('cost_per_run').notNull().default(0),
    lastRunAt: timestamp('last_run_at', { withTimezone: true }),
    skippedReason: text('skipped_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('verify_list_schedules_due_idx').on(t.nextRunAt)],
);

export type TReverifyRunState = 'queued' | 'running' | 'completed' | 'skipped' | 'stopped';
/** `from>to` → rows, e.g. `valid>invalid` (`none>valid`: a row verified for the first time). */
export type TTransitionCounts = Record<string, number>;

/** One run: a scheduled re-check of the results older than `cutoff`, or the verification of new rows after `from_row`. */
export const verifyListRuns = pgTable(
  'verify_list_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    listId: uuid('list_id')
      .notNull()
      .references(() => verifyLists.id, { onDelete: 'cascade' }),
    orgId: orgIdColumn(),
    userId: userIdColumn(),
    kind: text('kind').$type<TReverifyRunKind>().notNull(),
    /** When it was due: (list, kind, due_at) is unique, so a due run is queued once whatever the number of workers. */
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    cutoff: timestamp('cutoff', { withTimezone: true }),
    fromRow: integer('from_row'),
    state: text('state').$type<TReverifyRunState>().notNull().default('queued'),
    reason: text('reason'),
    planned: integer('planned').notNull().default(0),
    rechecked: integer('rechecked').notNull().default(0),
    charged: integer('charged').notNull().default(0),
    changed: integer('changed').notNull().default(0),
    transitions: jsonb('transitions').$type<TTransitionCounts>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('verify_list_runs_once_idx').on(t.listId, t.kind, t.dueAt), index('verify_list_runs_list_created_idx').on(t.listId, t.createdAt)],
);

/** A row a run re-checked, with the status it had before (the list's previous result of that row). */
export const verifyListRowChanges = pgTable(
  'verify_list_row_changes',
  {
    runId: uuid('run_id')
      .notNull()
      .references(() => verifyListRuns.id, { onDelete: 'cascade' }),
    orgId: orgIdColumn(),
    listId: uuid('list_id').notNull(),
    rowNumber: integer('row_number').notNull(),
    previousStatus: text('previous_status').$type<TVerificationStatus>(),
    previousVerifiedAt: timestamp('previous_verified_at', { withTimezone: true }),
    status: text('status').$type<TVerificationStatus>().notNull(),
  },
  (t) => [primaryKey({ name: 'verify_list_row_changes_pk', columns: [t.runId, t.rowNumber] })],
);
