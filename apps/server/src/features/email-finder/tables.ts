import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { TFinderListState, TFinderStatus, TInstantQueueState } from '@verilead/contracts';
import { bulkListColumns } from '../../platform/bulk-lists/list-columns';
import { orgIdColumn, userIdColumn } from '../../platform/tenancy/tables';
import type { TPersonName } from './candidates';

/** Counters kept on a finder list while results arrive (same transaction as the result rows). */
export type TFinderCounters = {
  processed: number;
  found: number;
  not_found: number;
  business: number;
  role: number;
  catch_all: number;
  /** Sum of confidence scores over found results. */
  confidence_sum: number;
  billable: number;
};

/** A finder list row's status: its search's outcome, or `duplicate` when an earlier row holds the same person. */
export type TFinderRowStatus = TFinderStatus | 'duplicate';

/** What an instant search looks for (read from the request, kept on its row for the queued job). */
export type TInstantInput = { name: TPersonName; domain: string; companyName: string | null };

/** One instant search (and its queue entry when it outlived the request's timeout). */
export const finderInstant = pgTable(
  'finder_instant',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgIdColumn(),
    userId: userIdColumn(),
    /** queued | running | completed | failed */
    state: text('state').$type<TInstantQueueState>().notNull(),
    input: jsonb('input').$type<TInstantInput>().notNull(),
    status: text('status').$type<TFinderStatus>(),
    email: text('email'),
    fullName: text('full_name').notNull().default(''),
    domain: text('domain').notNull().default(''),
    result: jsonb('result').$type<Record<string, unknown>>(),
    creditsCharged: integer('credits_charged').notNull().default(0),
    error: text('error'),
    jobId: uuid('job_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [index('finder_instant_org_created_idx').on(t.orgId, t.createdAt)],
);

/** A bulk finder list (an uploaded file with a column mapping). */
export const finderLists = pgTable(
  'finder_lists',
  {
    ...bulkListColumns<TFinderListState>({ initialState: 'not_processed', jobColumn: 'job_id' }),
    header: jsonb('header').$type<string[]>().notNull(),
    mapping: jsonb('mapping').$type<Record<string, number | null>>().notNull(),
    searchableCount: integer('searchable_count').notNull().default(0),
    skippedCount: integer('skipped_count').notNull().default(0),
    counters: jsonb('counters').$type<TFinderCounters>().notNull(),
    processedAt: timestamp('processed_at', { withTimezone: true }),
  },
  (t) => [index('finder_lists_org_created_idx').on(t.orgId, t.createdAt), index('finder_lists_org_file_idx').on(t.orgId, t.fileName)],
);

/** One row per data row of the file. (list_id, row_number) is the idempotency key of results and charges. */
export const finderListRows = pgTable(
  'finder_list_rows',
  {
    listId: uuid('list_id')
      .notNull()
      .references(() => finderLists.id, { onDelete: 'cascade' }),
    rowNumber: integer('row_number').notNull(),
    cells: jsonb('cells').$type<string[]>().notNull(),
    firstName: text('first_name').notNull().default(''),
    middleName: text('middle_name'),
    lastName: text('last_name').notNull().default(''),
    domain: text('domain').notNull().default(''),
    /** Why the row is not searched (missing name, bad domain…), null when searchable. */
    skipReason: text('skip_reason'),
    /** A searched row's result status, `duplicate` for a later repeat of a person, null while pending. */
    status: text('status').$type<TFinderRowStatus>(),
    result: jsonb('result').$type<Record<string, unknown>>(),
    billable: boolean('billable').notNull().default(false),
    /** The person's normalised name and domain (searchable rows), to point later repeats of the person at this row. */
    personKey: text('person_key'),
  },
  (t) => [
    primaryKey({ columns: [t.listId, t.rowNumber] }),
    // The analysis looks up only keys its in-memory hash set may have seen; first occurrences are pending then.
    index('finder_list_rows_person_key_idx').on(t.listId, t.personKey).where(sql`${t.status} is null and ${t.personKey} is not null`),
  ],
);

/**
 * Patterns of addresses found valid per domain, shared by the whole installation to order candidates.
 * Only counts: no names, no addresses, no organisation.
 */
export const finderDomainPatterns = pgTable(
  'finder_domain_patterns',
  {
    domain: text('domain').notNull(),
    pattern: text('pattern').notNull(),
    validCount: integer('valid_count').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.domain, t.pattern] })],
);
