import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { TDownloadFormat, TDownloadKind, TDownloadStatus } from '@verilead/contracts';
import { orgIdColumn, userIdColumn } from '../../platform/tenancy/tables';

/** A prepared (or being prepared) file: list results, an uploaded input file, or the activity log. */
export const downloads = pgTable(
  'downloads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgIdColumn(),
    userId: userIdColumn(),
    kind: text('kind').$type<TDownloadKind>().notNull(),
    listId: uuid('list_id'),
    format: text('format').$type<TDownloadFormat>(),
    fileType: text('file_type').notNull(),
    columns: jsonb('columns').$type<string[]>().notNull(),
    params: jsonb('params').$type<Record<string, unknown>>().notNull().default({}),
    state: text('state').$type<TDownloadStatus>().notNull().default('queued'),
    progress: integer('progress').notNull().default(0),
    fileName: text('file_name').notNull(),
    storageKey: text('storage_key'),
    rowCount: integer('row_count'),
    sizeBytes: integer('size_bytes'),
    jobId: uuid('job_id'),
    error: text('error'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('downloads_org_created_idx').on(t.orgId, t.createdAt), index('downloads_list_idx').on(t.listId)],
);
