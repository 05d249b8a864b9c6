import { z } from 'zod';
import { ZSuccess, ZMessageData } from './envelopes';
import { ZPage, ZPageSize, ZPaged } from './common';
import { ZBounceEvidence } from './bounces';
import { ZJobActivityType, ZListSource, ZVerificationMode, ZVerificationStatus, ZVerifyListState } from './enums';

// ---------- the verification result (spec section 3) ----------

export const ZSafeToSend = z.enum(['yes', 'risky', 'no']);
export type TSafeToSend = z.infer<typeof ZSafeToSend>;

/** Stable reason codes of a verdict (the engine's codes). */
export const ZVerificationReasonCode = z.enum([
  'valid_mailbox',
  'allowed_by_user_list',
  'invalid_syntax',
  'domain_not_found',
  'null_mx',
  'no_mail_server',
  'mailbox_not_found',
  'mailbox_disabled',
  'mailbox_full',
  'blocked_by_user_list',
  'accept_all',
  'greylisted',
  'verifier_blocked',
  'smtp_timeout',
  'connection_failed',
  'dns_error',
  'service_unavailable',
  'smtp_error',
]);
export type TVerificationReasonCode = z.infer<typeof ZVerificationReasonCode>;

export const ZGibberishThreshold = z.enum(['low', 'medium', 'high']);
export type TGibberishThreshold = z.infer<typeof ZGibberishThreshold>;

/** One line of the SMTP conversation behind a verdict: C = verifier, S = mail server. */
export const ZTranscriptLine = z.object({ at_ms: z.number(), direction: z.enum(['C', 'S']), line: z.string() });
export type TTranscriptLine = z.infer<typeof ZTranscriptLine>;

/** Kinds of evidence behind a catch-all score (apps/server/src/platform/catch-all/catch-all-score.ts). */
export const ZCatchAllEvidenceKind = z.enum([
  'seen_valid',
  'directory_address',
  'directory_name',
  'pattern_match',
  'pattern_mismatch',
  'no_pattern',
  'role_account',
  'gibberish',
  'name_like',
  'digits',
  'bounce',
  'common_name',
  'not_a_name',
  'directory_other_address',
]);
export type TCatchAllEvidenceKind = z.infer<typeof ZCatchAllEvidenceKind>;
export const ZCatchAllEvidence = z.object({ kind: ZCatchAllEvidenceKind, text: z.string() });
export type TCatchAllEvidence = z.infer<typeof ZCatchAllEvidence>;
/** How likely (0–100) a catch_all address is a real mailbox, with the evidence behind the score. */
export const ZCatchAllScore = z.object({ score: z.number().int().min(0).max(100), evidence: z.array(ZCatchAllEvidence) });
export type TCatchAllScore = z.infer<typeof ZCatchAllScore>;

/** Every field of a verification result, plus the deliverability score (0–1) and the SMTP transcript. */
export const ZVerificationResult = z.object({
  email: z.string(),
  status: ZVerificationStatus,
  reason: z.object({ code: ZVerificationReasonCode, text: z.string() }),
  safe_to_send: ZSafeToSend,
  suggested_email_address: z.string().nullable(),
  disposable: z.boolean(),
  free_account: z.boolean(),
  role_account: z.boolean(),
  gibberish: z.boolean(),
  mx_record: z.string().nullable(),
  smtp_provider: z.string().nullable(),
  verified_on: z.string(),
  ai_verdict: z.string(),
  greylist_count: z.number().int().nonnegative(),
  account: z.string(),
  domain: z.string(),
  /** Milliseconds. */
  time_taken: z.number().nonnegative(),
  /** 0–1. */
  deliverability_score: z.number().min(0).max(1),
  transcript: z.array(ZTranscriptLine),
  /** catch_all verdicts of an organisation: how likely the address is a real mailbox (absent on other verdicts). */
  catch_all_score: ZCatchAllScore.optional(),
  /** The address hard-bounced for this organisation after the verdict: the result reads invalid, with the bounce. */
  bounce: ZBounceEvidence.optional(),
});
export type TVerificationResult = z.infer<typeof ZVerificationResult>;

/** Safe-to-send is guaranteed if the mail is sent within 24 hours of verification. */
export const SAFE_TO_SEND_WINDOW_HOURS = 24;
/** Billing rule: these statuses cost one credit each; duplicates, syntax errors and unknown cost nothing. */
export const BILLABLE_STATUSES = ['valid', 'invalid', 'catch_all'] as const;

// ---------- instant ----------

export const ZInstantVerifyRequest = z.object({
  email: z.string().trim().min(1, { message: 'Please enter an email address' }).max(320, { message: 'The address is too long' }),
});
export type TInstantVerifyRequest = z.input<typeof ZInstantVerifyRequest>;

export const ZInstantVerifyData = ZVerificationResult.extend({
  id: z.string(),
  billable: z.boolean(),
  credits_charged: z.number().int().nonnegative(),
  /** verified_on + 24 hours: the safe-to-send guarantee holds until then. */
  safe_to_send_until: z.string(),
});
export type TInstantVerifyData = z.infer<typeof ZInstantVerifyData>;
export const ZInstantVerifyResponse = ZSuccess(ZInstantVerifyData);

/** The caller's recent instant results (newest first). */
/** Where an instant verification was asked: the web app (a session) or the API (an API key). */
export const ZInstantSource = z.enum(['app', 'api'], { message: 'source must be app or api' });
export type TInstantSource = z.infer<typeof ZInstantSource>;
/** GET /email_verify/instant/recent: the caller's latest results; `source` keeps those asked in the app (Quick Validation) or through the API. */
export const ZRecentInstantQuery = z.object({ limit: z.coerce.number().int().min(1).max(100).default(20), source: ZInstantSource.optional() });
export const ZRecentInstantData = z.object({ items: z.array(ZInstantVerifyData) });
export type TRecentInstantData = z.infer<typeof ZRecentInstantData>;
export const ZRecentInstantResponse = ZSuccess(ZRecentInstantData);

/** POST /public/verify: no account; rate-limited per IP; nothing charged. */
export const ZPublicVerifyRequest = ZInstantVerifyRequest;
export const ZPublicVerifyData = ZVerificationResult.extend({ safe_to_send_until: z.string() });
export type TPublicVerifyData = z.infer<typeof ZPublicVerifyData>;
export const ZPublicVerifyResponse = ZSuccess(ZPublicVerifyData);

// ---------- stats metrics ----------

/** List stats (spec section 3). deliverability_score is the average over valid results, in percent (0–100). */
export const ZVerifyStats = z.object({
  total: z.number().int().nonnegative(),
  valid: z.number().int().nonnegative(),
  invalid: z.number().int().nonnegative(),
  catch_all: z.number().int().nonnegative(),
  unknown: z.number().int().nonnegative(),
  duplicate: z.number().int().nonnegative(),
  syntax_error: z.number().int().nonnegative(),
  disposable: z.number().int().nonnegative(),
  gibberish: z.number().int().nonnegative(),
  free_account: z.number().int().nonnegative(),
  role_account: z.number().int().nonnegative(),
  profile: z.number().int().nonnegative(),
  billable: z.number().int().nonnegative(),
  deliverability_score: z.number().min(0).max(100),
  billable_credits: z.number().int().nonnegative(),
  safe_to_send: z.number().int().nonnegative(),
});
export type TVerifyStats = z.infer<typeof ZVerifyStats>;

// ---------- upload ----------

/** Accepted upload types. TXT holds one address per line. */
export const ZUploadFileType = z.enum(['csv', 'xlsx', 'txt']);
export type TUploadFileType = z.infer<typeof ZUploadFileType>;
export const UPLOAD_ACCEPT = { 'text/csv': ['.csv'], 'text/plain': ['.txt'], 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['.xlsx'] } as const;

export const ZListName = z.string().trim().min(1, { message: 'Please enter a list name' }).max(200, { message: 'The list name is too long' });

/**
 * Multipart fields sent with the file (field `file`) to POST /email_verify/bulk_upload.
 * email_column: 0-based column index holding the addresses (default: detected). has_header: first row is a header
 * (default: detected).
 */
export const ZBulkUploadFields = z.object({
  list_name: ZListName.optional(),
  email_column: z.coerce.number().int().min(0).max(10_000).optional(),
  has_header: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
});
export type TBulkUploadFields = z.input<typeof ZBulkUploadFields>;

/** POST /email_verify/bulk_upload/preview (multipart `file`; the first 256 KB of a CSV/TXT are enough): nothing is stored. */
export const ZUploadPreviewData = z.object({
  file_name: z.string(),
  file_type: ZUploadFileType,
  has_header: z.boolean(),
  /** Header names (or "Column 1", "Column 2"… without a header). */
  columns: z.array(z.string()),
  /** Detected e-mail column (0-based), null when none looks like addresses. */
  email_column: z.number().int().nonnegative().nullable(),
  /** The first rows (at most 10), after the header. */
  rows: z.array(z.array(z.string())),
});
export type TUploadPreviewData = z.infer<typeof ZUploadPreviewData>;
export const ZUploadPreviewResponse = ZSuccess(ZUploadPreviewData);

export const ZCheckDuplicateRequest = z.object({ file_name: z.string().trim().min(1).max(255) });
export type TCheckDuplicateRequest = z.input<typeof ZCheckDuplicateRequest>;
export const ZCheckDuplicateData = z.object({
  is_duplicate: z.boolean(),
  message: z.string(),
  lists: z.array(z.object({ id: z.string(), name: z.string(), created_at: z.string() })),
  /** The name the list would get: the file name, or "name (2)", "name (3)"… when a list already has it. */
  suggested_name: z.string(),
});
export type TCheckDuplicateData = z.infer<typeof ZCheckDuplicateData>;
export const ZCheckDuplicateResponse = ZSuccess(ZCheckDuplicateData);

// ---------- lists ----------

/** Analysis (the `analyse` activity) of an uploaded file: counts are final once `ready`. */
export const ZListAnalysisState = z.enum(['pending', 'processing', 'ready', 'failed']);
export type TListAnalysisState = z.infer<typeof ZListAnalysisState>;

/**
 * Greylisted addresses of a list being verified: retried on the mode's greylist schedule while the rest of the list
 * finishes. `waiting` have no result yet; the next re-check is due at `next_recheck_at` (ISO time, null when none waits).
 */
export const ZGreylistWait = z.object({ waiting: z.number().int().nonnegative(), next_recheck_at: z.string().nullable() });
export type TGreylistWait = z.infer<typeof ZGreylistWait>;

export const ZVerifyList = z.object({
  id: z.string(),
  name: z.string(),
  file_name: z.string(),
  file_type: ZUploadFileType,
  source: ZListSource,
  state: ZVerifyListState,
  /** The job activity running on the list now (analyse, verify, export), null when idle. */
  activity: ZJobActivityType.nullable(),
  analysis: z.object({ state: ZListAnalysisState, error: z.string().nullable() }),
  counts: z.object({
    /** Data rows read from the file (header excluded, blank lines skipped). */
    rows: z.number().int().nonnegative(),
    /** Unique syntactically valid addresses: what will be verified. */
    unique: z.number().int().nonnegative(),
    duplicate: z.number().int().nonnegative(),
    syntax_error: z.number().int().nonnegative(),
    /** Unique addresses with a result so far. */
    verified: z.number().int().nonnegative(),
    /** Unique addresses still waiting for a result. */
    remaining: z.number().int().nonnegative(),
  }),
  /** Before verifying: how many addresses may be billed and what that costs at most (unknown results are not billed). */
  cost: z.object({ billable_estimate: z.number().int().nonnegative(), credits_required: z.number().int().nonnegative() }),
  stats: ZVerifyStats,
  progress: z.number().int().min(0).max(100),
  greylist: ZGreylistWait,
  /** Why the last verification stopped early (e.g. credits ran out), null otherwise. */
  stopped_reason: z.string().nullable(),
  /**
   * Why a list in progress waits, null (or absent) when it does not: its organisation or owner is suspended by an
   * operator; nothing is verified or charged until they are restored, then it goes on by itself.
   */
  paused_reason: z.string().nullable().optional(),
  created_at: z.string(),
  updated_at: z.string(),
  verified_at: z.string().nullable(),
});
export type TVerifyList = z.infer<typeof ZVerifyList>;

export const ZVerifyListSortBy = z.enum(['created_at', 'updated_at', 'name', 'total']);
export const ZSortOrder = z.enum(['asc', 'desc']);

/** POST /email_verify/list: paged, searchable, sortable; `list_id` answers one list. */
export const ZVerifyListsRequest = z.object({
  page: ZPage.default(1),
  limit: ZPageSize.default(25),
  search: z.string().trim().max(200).optional(),
  state: ZVerifyListState.optional(),
  sort_by: ZVerifyListSortBy.default('created_at'),
  sort_order: ZSortOrder.default('desc'),
  list_id: z.uuid().optional(),
});
export type TVerifyListsRequest = z.input<typeof ZVerifyListsRequest>;
export const ZVerifyListsData = ZPaged(ZVerifyList);
export type TVerifyListsData = z.infer<typeof ZVerifyListsData>;
export const ZVerifyListsResponse = ZSuccess(ZVerifyListsData);

export const ZListIdRequest = z.object({ list_id: z.uuid({ message: 'list_id must be a list id' }) });
export type TListIdRequest = z.infer<typeof ZListIdRequest>;
export const ZListIdQuery = ZListIdRequest;

export const ZVerifyListResponse = ZSuccess(ZVerifyList);

export const ZBulkUploadData = ZVerifyList;
export const ZBulkUploadResponse = ZSuccess(ZBulkUploadData);

/** POST /email_verify/list/verify: starts (or resumes) the `verify` job. 402 with required_credits when short. */
export const ZListVerifyRequest = ZListIdRequest.extend({ mode: ZVerificationMode.optional() });
export type TListVerifyRequest = z.input<typeof ZListVerifyRequest>;

/** GET /email_verify/list/remove?list_id: whether the list may be removed now. */
export const ZListRemoveCheckData = z.object({ list_id: z.string(), can_remove: z.boolean(), reason: z.string().nullable() });
export type TListRemoveCheckData = z.infer<typeof ZListRemoveCheckData>;
export const ZListRemoveCheckResponse = ZSuccess(ZListRemoveCheckData);
export const ZListRemoveResponse = ZSuccess(ZMessageData);

/** GET /email_verify/bulk/progress_status?list_id. */
export const ZProgressStatusData = z.object({
  list_id: z.string(),
  state: ZVerifyListState,
  activity: ZJobActivityType.nullable(),
  analysis: z.object({ state: ZListAnalysisState, error: z.string().nullable() }),
  progress: z.number().int().min(0).max(100),
  verified: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  stats: ZVerifyStats,
  greylist: ZGreylistWait,
  stopped_reason: z.string().nullable(),
  /** As the list's `paused_reason`: why it waits (a suspended organisation or owner), null otherwise. */
  paused_reason: z.string().nullable().optional(),
});
export type TProgressStatusData = z.infer<typeof ZProgressStatusData>;
export const ZProgressStatusResponse = ZSuccess(ZProgressStatusData);

/** Names of the events the verifier records for webhooks. */
export const EMAIL_VERIFIER_EVENTS = { instantCompleted: 'email_verifier.instant.completed', bulkCompleted: 'email_verifier.bulk.completed' } as const;
