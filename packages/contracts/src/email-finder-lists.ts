// The bulk email finder: uploading a file of people, the lists it makes, their result files and the history of
// searches. The result of one search is in email-finder-result.ts.
import { z } from 'zod';
import { ZSuccess, ZMessageData } from './envelopes';
import { ZDateInput, ZPage, ZPageSize, ZPaged } from './common';
import { ZFinderListState, ZJobActivityType } from './enums';
import { ZDownloadFileType } from './downloads';
import { ZFinderResult, ZFinderStats, ZFinderStatus } from './email-finder-result';

// ---------- bulk upload ----------

export const ZFinderFileType = z.enum(['csv', 'xlsx']);
export type TFinderFileType = z.infer<typeof ZFinderFileType>;
export const FINDER_UPLOAD_ACCEPT = {
  'text/csv': ['.csv'],
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['.xlsx'],
} as const;

const ZColumnIndex = z.coerce.number().int().min(0).max(10_000);
const ZBoolField = z
  .enum(['true', 'false'])
  .transform((v) => v === 'true')
  .optional();

/**
 * Multipart fields sent with the file (field `file`, CSV or XLSX, at most 20,000,000 bytes) to POST /email_finder/bulk_upload.
 * Column mapping, 0-based indexes: first_name_column (or full_name_column), optional last_name_column and
 * middle_name_column, and domain_column or company_column. has_header defaults to true.
 */
export const ZFinderUploadFields = z
  .object({
    list_name: z.string().trim().min(1, { message: 'Please enter a list name' }).max(200, { message: 'The list name is too long' }).optional(),
    first_name_column: ZColumnIndex.optional(),
    last_name_column: ZColumnIndex.optional(),
    middle_name_column: ZColumnIndex.optional(),
    full_name_column: ZColumnIndex.optional(),
    domain_column: ZColumnIndex.optional(),
    company_column: ZColumnIndex.optional(),
    has_header: ZBoolField,
  })
  .superRefine((v, ctx) => {
    if (v.first_name_column === undefined && v.full_name_column === undefined) {
      ctx.addIssue({ code: 'custom', path: ['first_name_column'], message: 'Please map the first name (or full name) column' });
    }
    if (v.domain_column === undefined && v.company_column === undefined) {
      ctx.addIssue({ code: 'custom', path: ['domain_column'], message: 'Please map the domain or company column' });
    }
  });
export type TFinderUploadFields = z.input<typeof ZFinderUploadFields>;

export const ZFinderColumnMapping = z.object({
  first_name: z.number().int().nullable(),
  last_name: z.number().int().nullable(),
  middle_name: z.number().int().nullable(),
  full_name: z.number().int().nullable(),
  domain: z.number().int().nullable(),
  company: z.number().int().nullable(),
});
export type TFinderColumnMapping = z.infer<typeof ZFinderColumnMapping>;

export const ZFinderCheckDuplicateRequest = z.object({ file_name: z.string().trim().min(1).max(255) });
export type TFinderCheckDuplicateRequest = z.input<typeof ZFinderCheckDuplicateRequest>;
export const ZFinderCheckDuplicateData = z.object({
  is_duplicate: z.boolean(),
  message: z.string(),
  lists: z.array(z.object({ id: z.string(), name: z.string(), created_at: z.string() })),
});
export type TFinderCheckDuplicateData = z.infer<typeof ZFinderCheckDuplicateData>;
export const ZFinderCheckDuplicateResponse = ZSuccess(ZFinderCheckDuplicateData);

// ---------- lists ----------

export const ZFinderList = z.object({
  id: z.string(),
  name: z.string(),
  file_name: z.string(),
  file_type: ZFinderFileType,
  state: ZFinderListState,
  /** find_emails while the job runs, null when idle. */
  activity: ZJobActivityType.nullable(),
  mapping: ZFinderColumnMapping,
  counts: z.object({
    /** Data rows read from the file. */
    rows: z.number().int().nonnegative(),
    /** Rows with a usable name and domain: what will be searched. */
    searchable: z.number().int().nonnegative(),
    /** Rows skipped (missing name or domain, bad domain). */
    skipped: z.number().int().nonnegative(),
    /** Rows repeating an earlier row's person (same name and domain): not searched, not charged, given that row's result. */
    duplicate: z.number().int().nonnegative(),
    /** Searchable rows with a result so far. */
    processed: z.number().int().nonnegative(),
    remaining: z.number().int().nonnegative(),
  }),
  stats: ZFinderStats,
  progress: z.number().int().min(0).max(100),
  stopped_reason: z.string().nullable(),
  /** Why a list in progress waits (its organisation or owner suspended by an operator), null (or absent) otherwise. */
  paused_reason: z.string().nullable().optional(),
  created_at: z.string(),
  updated_at: z.string(),
  processed_at: z.string().nullable(),
});
export type TFinderList = z.infer<typeof ZFinderList>;

/** POST /email_finder/list: paged, searchable; `list_id` answers one list. */
export const ZFinderListsRequest = z.object({
  page: ZPage.default(1),
  limit: ZPageSize.default(25),
  search: z.string().trim().max(200).optional(),
  state: ZFinderListState.optional(),
  sort_by: z.enum(['created_at', 'updated_at', 'name', 'total']).default('created_at'),
  sort_order: z.enum(['asc', 'desc']).default('desc'),
  list_id: z.uuid().optional(),
});
export type TFinderListsRequest = z.input<typeof ZFinderListsRequest>;
export const ZFinderListsData = ZPaged(ZFinderList);
export type TFinderListsData = z.infer<typeof ZFinderListsData>;
export const ZFinderListsResponse = ZSuccess(ZFinderListsData);
export const ZFinderListResponse = ZSuccess(ZFinderList);
export const ZFinderBulkUploadResponse = ZFinderListResponse;

export const ZFinderListIdRequest = z.object({ list_id: z.uuid({ message: 'list_id must be a list id' }) });
export type TFinderListIdRequest = z.infer<typeof ZFinderListIdRequest>;
/** POST /email_finder/list/find_emails: starts (or resumes) the find_emails job. 402 with required_credits when the balance is 0. */
export const ZFindEmailsRequest = ZFinderListIdRequest;
export const ZFinderListCancelRequest = ZFinderListIdRequest;
export const ZFinderListRemoveRequest = ZFinderListIdRequest;
export const ZFinderListRemoveResponse = ZSuccess(ZMessageData);

/** GET /email_finder/bulk/progress_status?list_id. */
export const ZFinderProgressQuery = ZFinderListIdRequest;
export const ZFinderProgressData = z.object({
  list_id: z.string(),
  state: ZFinderListState,
  activity: ZJobActivityType.nullable(),
  progress: z.number().int().min(0).max(100),
  processed: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  stats: ZFinderStats,
  stopped_reason: z.string().nullable(),
  paused_reason: z.string().nullable().optional(),
});
export type TFinderProgressData = z.infer<typeof ZFinderProgressData>;
export const ZFinderProgressResponse = ZSuccess(ZFinderProgressData);

// ---------- downloads ----------

/** Which rows a finder result file holds. */
export const ZFinderDownloadFormat = z.enum(['all', 'found', 'not_found']);
export type TFinderDownloadFormat = z.infer<typeof ZFinderDownloadFormat>;

/** Columns of a finder result file (the uploaded columns come first). */
export const FINDER_RESULT_COLUMNS = [
  'email',
  'status',
  'confidence_score',
  'catch_all',
  'business',
  'role',
  'pattern',
  'reason',
  'reason_text',
] as const;

/**
 * A file queued to the downloads job: poll GET /download/result/status?queue_id (shared download machinery) until it is
 * final, then GET public/download_email_finder_history?download_token.
 */
export const ZFinderDownloadData = z.object({
  download_id: z.string(),
  queue_id: z.string(),
  state: z.enum(['queued', 'processing', 'success', 'failed', 'cancelled', 'expired']),
  file_name: z.string(),
  rows: z.number().int().nonnegative().nullable(),
  download_url: z.string().nullable(),
  download_token: z.string().nullable(),
  token_expires_at: z.string().nullable(),
});
export type TFinderDownloadData = z.infer<typeof ZFinderDownloadData>;
export const ZFinderDownloadResponse = ZSuccess(ZFinderDownloadData);

/** POST /email_finder/download/result. */
export const ZFinderDownloadResultRequest = z.object({
  list_id: z.uuid({ message: 'list_id must be a list id' }),
  format: ZFinderDownloadFormat.default('all'),
  file_type: ZDownloadFileType.default('csv'),
});
export type TFinderDownloadResultRequest = z.input<typeof ZFinderDownloadResultRequest>;

// ---------- history ----------

export const ZFinderSource = z.enum(['instant', 'bulk']);
export type TFinderSource = z.infer<typeof ZFinderSource>;

/** GET /email_finder/history: the organisation's instant finds (and bulk when source=bulk is asked), newest first. */
export const ZFinderHistoryQuery = z.object({
  page: ZPage.default(1),
  limit: ZPageSize.default(25),
  search: z.string().trim().max(200).optional(),
  status: ZFinderStatus.optional(),
  from: ZDateInput.optional(),
  to: ZDateInput.optional(),
});
export type TFinderHistoryQuery = z.input<typeof ZFinderHistoryQuery>;
export const ZFinderHistoryItem = ZFinderResult.extend({ id: z.string(), credits_charged: z.number().int().nonnegative(), created_at: z.string() });
export type TFinderHistoryItem = z.infer<typeof ZFinderHistoryItem>;
export const ZFinderHistoryData = ZPaged(ZFinderHistoryItem);
export type TFinderHistoryData = z.infer<typeof ZFinderHistoryData>;
export const ZFinderHistoryResponse = ZSuccess(ZFinderHistoryData);

/** POST /email_finder/history/download: same filters, answers a prepared file with an expiring link to GET public/download_email_finder_history?download_token. */
export const ZFinderHistoryDownloadRequest = z.object({
  search: z.string().trim().max(200).optional(),
  status: ZFinderStatus.optional(),
  from: ZDateInput.optional(),
  to: ZDateInput.optional(),
  file_type: ZDownloadFileType.default('csv'),
});
export type TFinderHistoryDownloadRequest = z.input<typeof ZFinderHistoryDownloadRequest>;
export const ZFinderHistoryDownloadResponse = ZFinderDownloadResponse;
export const ZFinderPublicDownloadQuery = z.object({ download_token: z.string().trim().min(10).max(500) });
