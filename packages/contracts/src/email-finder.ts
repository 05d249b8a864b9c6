import { z } from 'zod';
import { ZSuccess, ZMessageData } from './envelopes';
import { ZDateInput, ZPage, ZPageSize, ZPaged } from './common';
import { ZFinderListState, ZJobActivityType, ZVerificationStatus } from './enums';
import { ZDownloadFileType } from './downloads';

// ---------- candidates and the result ----------

/**
 * Address patterns the finder tries (f = first initial, l = last initial). Names are normalised first:
 * accents stripped, apostrophes removed, particles ("van der", "de la") kept as part of the last name.
 */
export const ZFinderPattern = z.enum([
  'first.last',
  'flast',
  'f.last',
  'first',
  'firstlast',
  'first_last',
  'last.first',
  'lastf',
  'first.l',
  'lastfirst',
  'last',
  'f_last',
  'first-last',
  'firstl',
  'last_first',
  'l.first',
  'f.m.last',
  'first.m.last',
  'fmlast',
  'last-first',
  'fl',
]);
export type TFinderPattern = z.infer<typeof ZFinderPattern>;

export const ZFinderStatus = z.enum(['found', 'not_found']);
export type TFinderStatus = z.infer<typeof ZFinderStatus>;

/** Why the finder answered what it did. */
export const ZFinderReasonCode = z.enum([
  /** A candidate was verified valid by the mail server. */
  'verified_valid',
  /** The domain accepts every address: the most likely candidate is returned with a lower confidence. */
  'catch_all_best_guess',
  /** Every candidate was rejected by the mail server. */
  'no_valid_candidate',
  /** The mail server did not give a definite answer (greylisting, timeouts, policy blocks). */
  'server_inconclusive',
  /** The domain has no mail server (NXDOMAIN, null MX, no MX/A). */
  'domain_not_mail_enabled',
  /** strict_domain_check is on and the domain accepts every address. */
  'strict_domain_rejected',
  /** The only valid address was a role address and include_role_email is off. */
  'role_excluded',
  /** No address pattern could be built from the name. */
  'name_unusable',
]);
export type TFinderReasonCode = z.infer<typeof ZFinderReasonCode>;

/** One address in a finder answer (compatible with the public API's `emails[]`). */
export const ZFoundEmail = z.object({
  email_address: z.string(),
  /** 'yes' | 'no' like the public API. */
  role: z.enum(['yes', 'no']),
  business: z.enum(['yes', 'no']),
});
export type TFoundEmail = z.infer<typeof ZFoundEmail>;

/**
 * A finder result. confidence_score 0–100 (see the rule in apps/server/src/features/email-finder/README.md):
 * verified valid 90–99 by pattern rank, catch-all best guess 30–75 by how well the pattern is known at that domain, 0 when not found.
 */
export const ZFinderResult = z.object({
  /** The address found (null when not found). */
  email: z.string().nullable(),
  status: ZFinderStatus,
  confidence_score: z.number().int().min(0).max(100),
  /** The domain accepts every address: the address is a best guess. */
  catch_all: z.boolean(),
  /** A company domain (not a free webmail provider). */
  business: z.boolean(),
  /** A role address (info@, sales@…). */
  role: z.boolean(),
  reason: z.object({ code: ZFinderReasonCode, text: z.string() }),
  /** The pattern of the address found (null when not found). */
  pattern: ZFinderPattern.nullable(),
  /** The engine's verdict on the address returned (null when not found). */
  verification_status: ZVerificationStatus.nullable(),
  first_name: z.string(),
  middle_name: z.string().nullable(),
  last_name: z.string(),
  full_name: z.string(),
  domain: z.string(),
  company: z.object({ name: z.string().nullable() }),
  /** Candidates checked with the mail server. */
  candidates_tried: z.number().int().nonnegative(),
  /** Public-API compatible: the address found as a one-item array (empty when not found). */
  emails: z.array(ZFoundEmail),
  total: z.number().int().nonnegative(),
  found_on: z.string(),
});
export type TFinderResult = z.infer<typeof ZFinderResult>;

/** Billing rule: only found results cost credits (CREDITS_PER_FIND each); not found is free. */
export const CREDITS_PER_FIND = 1;

// ---------- instant ----------

const ZNamePart = z
  .string()
  .trim()
  .max(100, { message: 'The name is too long' })
  .regex(/^[\p{L}\p{M} .'’-]*$/u, { message: 'Unsupported characters in name fields' });

const DOMAIN_RE = /^(?=.{3,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;
const BAD_DOMAIN = 'Please enter a valid domain, such as acme.com';
export const FINDER_DOMAIN_REQUIRED = 'Please enter the company’s domain';
/** What a company name gets until a companies directory exists: only a domain can be searched today. */
export const FINDER_COMPANY_NAME_UNSUPPORTED = 'Please enter the company’s domain, such as acme.com: finding by company name is not available yet';

/**
 * Reads what the user typed as a company domain: a domain (a URL or www. prefix is reduced to the host name,
 * international names to their ASCII form) answers `{ domain }`; something that looks like a company name
 * `{ company }`; anything else `{ error }` with a message for people. Used by the server and the web form alike.
 */
export function readFinderDomain(raw: string): { domain: string } | { company: string } | { error: string } {
  let v = raw.trim().toLowerCase();
  if (!v) return { error: FINDER_DOMAIN_REQUIRED };
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(v)) {
    try {
      v = new URL(v).hostname;
    } catch {
      return { error: BAD_DOMAIN };
    }
  }
  v = v.replace(/^www\./, '').replace(/\/.*$/, '').replace(/\.$/, '');
  if (v.includes('@')) return { error: 'Please enter the domain only (without a name and @)' };
  if (!v.includes('.')) return /^[\p{L}\p{N}][\p{L}\p{N} &.,'-]*$/u.test(raw.trim()) ? { company: raw.trim() } : { error: BAD_DOMAIN };
  let ascii = v;
  try {
    ascii = new URL(`http://${v}`).hostname;
  } catch {
    return { error: BAD_DOMAIN };
  }
  if (!DOMAIN_RE.test(ascii)) return { error: BAD_DOMAIN };
  return { domain: ascii };
}

/** A company domain for a search, normalised (acme.com from "https://www.Acme.com/about"); a company name is refused. */
export const ZFinderDomain = z
  .string()
  .max(253, { message: 'The domain is too long' })
  .transform((value, ctx) => {
    const read = readFinderDomain(value);
    if ('domain' in read) return read.domain;
    ctx.addIssue({ code: 'custom', message: 'company' in read ? FINDER_COMPANY_NAME_UNSUPPORTED : read.error });
    return z.NEVER;
  });

/**
 * The Quick Email Finder form: first name, last name and the company domain, all required, as the server requires
 * them (POST /email_finder/instant answers 400 without a last name; a company name cannot be searched yet).
 */
export const ZQuickFinderForm = z.object({
  first_name: ZNamePart.min(1, { message: 'Please enter the first name' }),
  last_name: ZNamePart.min(1, { message: 'Please enter the last name' }),
  domain: ZFinderDomain,
});
export type TQuickFinderFormInput = z.input<typeof ZQuickFinderForm>;
export type TQuickFinderForm = z.output<typeof ZQuickFinderForm>;

/**
 * POST /email_finder/instant. Give `name` (full name) or first_name (+ last_name, middle_name), and `domain`
 * (a company's domain; a company name answers 400 until a companies directory exists).
 * `timeout` in milliseconds (1,000–60,000, default 30,000): when the search is not finished by then and `queue`
 * is not false, the answer is `{ queued: true, qid }`; poll GET /email_finder/instant/queue_status?qid.
 */
export const ZInstantFindRequest = z
  .object({
    name: ZNamePart.optional(),
    first_name: ZNamePart.optional(),
    middle_name: ZNamePart.optional(),
    last_name: ZNamePart.optional(),
    domain: z.string().trim().max(253, { message: 'The domain is too long' }).optional(),
    company_name: z.string().trim().max(200).optional(),
    timeout: z.coerce.number().int().min(1_000).max(60_000).default(30_000),
    queue: z.boolean().default(true),
  })
  .superRefine((v, ctx) => {
    const hasName = (v.name ?? '').trim().length > 0 || (v.first_name ?? '').trim().length > 0;
    if (!hasName) ctx.addIssue({ code: 'custom', path: ['name'], message: 'Please enter the person’s name' });
    if ((v.domain ?? '').length === 0 && (v.company_name ?? '').length === 0) {
      ctx.addIssue({ code: 'custom', path: ['domain'], message: FINDER_DOMAIN_REQUIRED });
    }
  });
export type TInstantFindRequest = z.input<typeof ZInstantFindRequest>;

/** Either the result (queued: false) or a queue id to poll (queued: true). */
export const ZInstantFindData = z.discriminatedUnion('queued', [
  ZFinderResult.extend({ queued: z.literal(false), id: z.string(), credits_charged: z.number().int().nonnegative() }),
  z.object({ queued: z.literal(true), qid: z.string(), message: z.string() }),
]);
export type TInstantFindData = z.infer<typeof ZInstantFindData>;
export const ZInstantFindResponse = ZSuccess(ZInstantFindData);

export const ZQueueStatusQuery = z.object({ qid: z.uuid({ message: 'qid must be a queue id' }) });
export type TQueueStatusQuery = z.infer<typeof ZQueueStatusQuery>;
export const ZInstantQueueState = z.enum(['queued', 'running', 'completed', 'failed']);
export type TInstantQueueState = z.infer<typeof ZInstantQueueState>;
/** GET /email_finder/instant/queue_status?qid: `result` once completed, `error` when failed. */
export const ZQueueStatusData = z.object({
  qid: z.string(),
  state: ZInstantQueueState,
  result: ZFinderResult.extend({ id: z.string(), credits_charged: z.number().int().nonnegative() }).nullable(),
  error: z.string().nullable(),
});
export type TQueueStatusData = z.infer<typeof ZQueueStatusData>;
export const ZQueueStatusResponse = ZSuccess(ZQueueStatusData);

// ---------- metrics ----------

/** Finder metrics (spec section 3). confidence_score is the average over found results (0–100). */
export const ZFinderStats = z.object({
  total: z.number().int().nonnegative(),
  found: z.number().int().nonnegative(),
  not_found: z.number().int().nonnegative(),
  business: z.number().int().nonnegative(),
  role: z.number().int().nonnegative(),
  catch_all: z.number().int().nonnegative(),
  confidence_score: z.number().min(0).max(100),
  billable: z.number().int().nonnegative(),
});
export type TFinderStats = z.infer<typeof ZFinderStats>;

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

/** Names of the events the finder records for webhooks. */
export const EMAIL_FINDER_EVENTS = {
  instantCompleted: 'email_finder.instant.completed',
  instantFailed: 'email_finder.instant.failed',
  bulkCompleted: 'email_finder.bulk.completed',
} as const;
