import { z } from 'zod';
import { ZSuccess } from './envelopes';
import { ZDateInput } from './common';
import { ZActivityType, ZDownloadState } from './enums';

/** Download formats (spec section 9). */
export const ZDownloadFormat = z.enum(['standard', 'guaranteed_deliverables', 'non_deliverables', 'deliverables_with_risk', 'custom']);
export type TDownloadFormat = z.infer<typeof ZDownloadFormat>;
export const DOWNLOAD_FORMAT_LABELS: Record<TDownloadFormat, string> = {
  standard: 'Email with standard columns',
  guaranteed_deliverables: 'Guaranteed deliverables',
  non_deliverables: 'Non-deliverables',
  deliverables_with_risk: 'Deliverables with risk',
  custom: 'Custom',
};
/**
 * Which rows each format holds:
 * standard — every input row (duplicates and syntax errors included, with their result);
 * guaranteed_deliverables — valid and safe_to_send = yes;
 * non_deliverables — invalid results and syntax errors;
 * deliverables_with_risk — catch_all, unknown, and valid but not safe to send;
 * custom — every input row, with the chosen columns.
 */
export const DOWNLOAD_FORMAT_HINTS: Record<TDownloadFormat, string> = {
  standard: 'Every row of your file with the standard result columns',
  guaranteed_deliverables: 'Valid addresses that are safe to send to',
  non_deliverables: 'Invalid addresses and syntax errors',
  deliverables_with_risk: 'Catch-all, unknown and risky valid addresses',
  custom: 'Every row with the columns you choose',
};

export const ZDownloadFileType = z.enum(['csv', 'xlsx']);
export type TDownloadFileType = z.infer<typeof ZDownloadFileType>;

/** Columns a result file can hold. */
export const ZResultColumn = z.enum([
  'email',
  'status',
  'reason',
  'reason_text',
  'safe_to_send',
  'suggested_email_address',
  'disposable',
  'free_account',
  'role_account',
  'gibberish',
  'mx_record',
  'smtp_provider',
  'verified_on',
  'ai_verdict',
  'greylist_count',
  'account',
  'domain',
  'time_taken',
  'deliverability_score',
  /** catch_all rows: how likely (0–100) the address is a real mailbox, and the evidence behind it (sentences joined by "; "). */
  'catch_all_score',
  'catch_all_evidence',
  'row_number',
  'duplicate',
  'syntax_error',
]);
export type TResultColumn = z.infer<typeof ZResultColumn>;
export const STANDARD_RESULT_COLUMNS: TResultColumn[] = [
  'email',
  'status',
  'reason',
  'safe_to_send',
  'suggested_email_address',
  'disposable',
  'free_account',
  'role_account',
  'gibberish',
  'mx_record',
  'smtp_provider',
  'verified_on',
  'deliverability_score',
  'catch_all_score',
  'catch_all_evidence',
];

/** What a download holds: a verified list's results, the original uploaded file, or the user's activity log. */
export const ZDownloadKind = z.enum(['result', 'input', 'activities', 'prospects', 'finder_result', 'finder_history', 'organisation_data']);
export type TDownloadKind = z.infer<typeof ZDownloadKind>;

/** Download lifecycle: queued → processing → success | failed | cancelled; success → expired after the retention time. */
export const ZDownloadStatus = z.enum(['queued', 'processing', ...ZDownloadState.options]);
export type TDownloadStatus = z.infer<typeof ZDownloadStatus>;

/** Hours a download link (token) stays valid. */
export const DOWNLOAD_TOKEN_TTL_HOURS = 24;
/** Days a prepared file is kept before it expires. */
export const DOWNLOAD_RETENTION_DAYS = 7;

/** Most columns an uploaded file may have kept in a custom download. */
export const MAX_INPUT_COLUMNS = 1_000;

/**
 * A list export request: POST /email_verify/list/export and POST /download/result.
 * Every result file holds the uploaded row's columns, in order, followed by the result columns
 * (the standard ones, or for custom the chosen `columns`, which is then required). A custom file keeps
 * the uploaded columns listed in `input_columns` (0-based indexes, see GET /email_verify/list/columns; all when left out).
 * `kind: input` gives back the uploaded rows as a new CSV (formulas neutralised) or a real XLSX workbook;
 * its file type defaults to the upload's (XLSX for a workbook, CSV otherwise), a result file's to CSV.
 */
export const ZExportRequest = z
  .object({
    list_id: z.uuid({ message: 'list_id must be a list id' }),
    kind: z.enum(['result', 'input']).default('result'),
    format: ZDownloadFormat.default('standard'),
    file_type: ZDownloadFileType.optional(),
    columns: z.array(ZResultColumn).min(1).max(ZResultColumn.options.length).optional(),
    input_columns: z
      .array(z.number({ message: 'Columns are chosen by their number, from 0' }).int().min(0, { message: 'Columns are numbered from 0' }).max(MAX_INPUT_COLUMNS - 1))
      .max(MAX_INPUT_COLUMNS)
      .optional(),
  })
  .superRefine((v, ctx) => {
    if (v.input_columns && new Set(v.input_columns).size !== v.input_columns.length) {
      ctx.addIssue({ code: 'custom', path: ['input_columns'], message: 'Each column of your file may be chosen once' });
    }
    if (v.kind === 'result' && v.format === 'custom' && (!v.columns || v.columns.length === 0)) {
      ctx.addIssue({ code: 'custom', path: ['columns'], message: 'Please choose at least one column for a custom download' });
    }
    if (v.columns && new Set(v.columns).size !== v.columns.length) {
      ctx.addIssue({ code: 'custom', path: ['columns'], message: 'Each column may be chosen once' });
    }
  });
export type TExportRequest = z.input<typeof ZExportRequest>;
export const ZDownloadResultRequest = ZExportRequest;

export const ZDownload = z.object({
  download_id: z.string(),
  /** Poll GET /download/result/status?queue_id=… with this. */
  queue_id: z.string(),
  kind: ZDownloadKind,
  list_id: z.string().nullable(),
  format: ZDownloadFormat.nullable(),
  file_type: z.enum(['csv', 'xlsx', 'txt', 'jsonl']),
  columns: z.array(ZResultColumn),
  state: ZDownloadStatus,
  progress: z.number().int().min(0).max(100),
  file_name: z.string(),
  rows: z.number().int().nonnegative().nullable(),
  size_bytes: z.number().int().nonnegative().nullable(),
  /** Present when state is success: an expiring link, GET /api/v1/public/download?download_token=… (no login needed). */
  download_url: z.string().nullable(),
  download_token: z.string().nullable(),
  token_expires_at: z.string().nullable(),
  /** When the prepared file expires. */
  expires_at: z.string().nullable(),
  error: z.string().nullable(),
  created_at: z.string(),
});
export type TDownload = z.infer<typeof ZDownload>;
export const ZDownloadResponse = ZSuccess(ZDownload);

/** GET /email_verify/list/columns?list_id: the uploaded file's columns (header names, or "Column N"), for choosing them in a custom download. */
export const ZListColumnsQuery = z.object({ list_id: z.uuid({ message: 'list_id must be a list id' }) });
export const ZListColumnsData = z.object({
  list_id: z.string(),
  /** Names in file order; a column's index in this array is its number in `input_columns`. */
  columns: z.array(z.string()),
  email_column: z.number().int().nonnegative(),
});
export type TListColumnsData = z.infer<typeof ZListColumnsData>;
export const ZListColumnsResponse = ZSuccess(ZListColumnsData);

export const ZDownloadStatusQuery = z.object({ queue_id: z.uuid({ message: 'queue_id must be a download id' }) });
export type TDownloadStatusQuery = z.infer<typeof ZDownloadStatusQuery>;

/** POST /download/activities: how many activity rows an export would hold (nothing is created). */
export const ZActivitiesDownloadRequest = z.object({
  type: z.union([ZActivityType, z.array(ZActivityType).min(1).max(20)]).optional(),
  from: ZDateInput.optional(),
  to: ZDateInput.optional(),
  file_type: ZDownloadFileType.default('csv'),
});
export type TActivitiesDownloadRequest = z.input<typeof ZActivitiesDownloadRequest>;
export const ZActivitiesDownloadData = z.object({ rows: z.number().int().nonnegative(), message: z.string() });
export type TActivitiesDownloadData = z.infer<typeof ZActivitiesDownloadData>;
export const ZActivitiesDownloadResponse = ZSuccess(ZActivitiesDownloadData);
/** POST /download/activities/confirm: prepares the file; answers the download to poll. */
export const ZActivitiesDownloadConfirmRequest = ZActivitiesDownloadRequest;

/** GET /public/download?download_token=… answers the file itself (or a failure envelope). */
export const ZPublicDownloadQuery = z.object({ download_token: z.string().trim().min(10).max(500) });
export type TPublicDownloadQuery = z.infer<typeof ZPublicDownloadQuery>;
