import {
  FINDER_COLUMN_ROLES,
  listFinderMappingProblems,
  TEST_ADDRESSES,
  TEST_ADDRESS_DOMAIN,
  type TFinderMapping,
  type TFinderResult,
  type TInstantVerifyData,
  type TVerificationResult,
} from '@verilead/contracts';

/** The public API's failure body: a numeric code (when the reference gives one) and a message. */
export type TPublicFailure = { status: 'failed'; error: { code?: number; message: string; reasons?: unknown[]; additional_info?: Record<string, unknown> } };

export function buildPublicFailure(code: number | null, message: string, extra: Omit<TPublicFailure['error'], 'code' | 'message'> = {}): TPublicFailure {
  return { status: 'failed', error: { ...(code === null ? {} : { code }), message, ...extra } };
}

/** A validation failure in the reference's shape: `reasons: [{ field: [name], location, messages, types }]`. */
export function buildValidationFailure(problems: { field: string; location: 'body' | 'query'; message: string; type: string }[]): TPublicFailure {
  return buildPublicFailure(null, 'validation failed', {
    reasons: problems.map((p) => ({ field: [p.field], location: p.location, messages: [p.message], types: [p.type] })),
  });
}

const yesNo = (v: boolean) => (v ? 'yes' : 'no');

/** Sub-status codes of the reference (200 success; 4xx the mailbox or domain refused; 5xx unknown). */
const SUB_STATUS: Record<string, number> = {
  valid_mailbox: 200,
  allowed_by_user_list: 200,
  invalid_syntax: 400,
  mailbox_not_found: 401,
  mailbox_full: 402,
  mailbox_disabled: 403,
  no_mail_server: 404,
  domain_not_found: 405,
  null_mx: 406,
  blocked_by_user_list: 408,
  accept_all: 300,
};

function toSubStatus(result: Pick<TVerificationResult, 'status' | 'reason'>) {
  const code = SUB_STATUS[result.reason.code] ?? (result.status === 'unknown' ? 500 : result.status === 'invalid' ? 400 : 200);
  return { code, desc: result.reason.text };
}

function bounceType(result: Pick<TVerificationResult, 'status' | 'reason'>): string {
  if (result.status !== 'invalid') return '';
  return result.reason.code === 'mailbox_full' ? 'soft' : 'hard';
}

/** The reference's instant-verify `data` from a Verilead verdict. */
export function toPublicVerdict(r: TVerificationResult | TInstantVerifyData) {
  return {
    email_address: r.email,
    safe_to_send: r.safe_to_send,
    status: r.status,
    verified_on: r.verified_on,
    time_taken: Math.round(r.time_taken),
    sub_status: toSubStatus(r),
    detail_info: { account: r.account, domain: r.domain },
    disposable: yesNo(r.disposable),
    free: yesNo(r.free_account),
    role: yesNo(r.role_account),
    gibberish: yesNo(r.gibberish),
    suggested_email_address: r.suggested_email_address ?? '',
    score: Math.round(r.deliverability_score * 100),
    bounce_type: bounceType(r),
    // Verilead's addition to the reference: a catch_all verdict's score and its evidence (absent on other verdicts).
    ...(r.catch_all_score ? { catch_all_score: r.catch_all_score } : {}),
  };
}

/** The fixed verdict of a test address (nothing is verified, stored or charged), or null. */
export function findTestVerdict(email: string, now = new Date()): TVerificationResult | null {
  const lower = email.trim().toLowerCase();
  const entry = TEST_ADDRESSES.find((a) => a.email === lower);
  if (!entry) return null;
  const [account = ''] = lower.split('@');
  const status = entry.status;
  const reasonCodes = { valid: 'valid_mailbox', invalid: 'mailbox_not_found', catch_all: 'accept_all', unknown: 'service_unavailable' } as const;
  const reasonCode = reasonCodes[status];
  return {
    email: lower,
    status,
    reason: { code: reasonCode, text: `Test address: always ${status}` },
    safe_to_send: entry.safe_to_send,
    suggested_email_address: null,
    disposable: account === 'disposable',
    free_account: false,
    role_account: account === 'role',
    gibberish: false,
    mx_record: null,
    smtp_provider: null,
    verified_on: now.toISOString(),
    ai_verdict: 'Test address',
    greylist_count: 0,
    account,
    domain: TEST_ADDRESS_DOMAIN,
    time_taken: 0,
    deliverability_score: status === 'valid' ? 1 : 0,
    transcript: [],
  };
}

/** The reference's instant finder `data` (also the queue_status answer) from a Verilead finder result. */
export function toPublicFinderData(r: Pick<TFinderResult, 'emails' | 'first_name' | 'last_name' | 'full_name' | 'domain' | 'confidence_score' | 'total' | 'company' | 'found_on'>) {
  return {
    emails: r.emails.map((e) => ({ email_address: e.email_address, role: e.role, business: e.business })),
    first_name: r.first_name,
    last_name: r.last_name,
    full_name: r.full_name,
    domain: r.domain,
    confidence_score: r.confidence_score,
    total: r.total,
    company: { name: r.company.name ?? '' },
    found_on: r.found_on,
  };
}

/** How many rows of a public finder upload are read to detect its columns. */
export const FINDER_DETECTION_ROWS = 50;

/**
 * The multipart fields of a finder upload from the columns detected in a file's first rows (the public bulk operation
 * takes only the file): `<role>_column` for each mapped role and `has_header`, or null when the file lacks a name
 * (first and last, or full) or a domain (or company) column.
 */
export function toFinderUploadMapping(guess: { hasHeader: boolean; mapping: TFinderMapping }): Record<string, string> | null {
  if (listFinderMappingProblems(guess.mapping).length > 0) return null;
  const fields: Record<string, string> = { has_header: String(guess.hasHeader) };
  for (const role of FINDER_COLUMN_ROLES) {
    const index = guess.mapping[role];
    if (index !== null) fields[`${role}_column`] = String(index);
  }
  return fields;
}
