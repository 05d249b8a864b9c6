import type { TInstantVerifyData, TVerifyList, TVerifyStats } from '@verilead/contracts';

/** Test data only: a complete instant result. */
export function buildInstantResult(overrides: Partial<TInstantVerifyData> = {}): TInstantVerifyData {
  return {
    id: 'r-1',
    email: 'alice@strict.test',
    status: 'valid',
    reason: { code: 'valid_mailbox', text: 'The mail server accepted this mailbox.' },
    safe_to_send: 'yes',
    suggested_email_address: null,
    disposable: false,
    free_account: false,
    role_account: true,
    gibberish: false,
    mx_record: 'mx.strict.test',
    smtp_provider: 'Postfix',
    verified_on: '2026-11-22T15:00:00.000Z',
    ai_verdict: 'Deliverable: the mailbox exists — safe to send.',
    greylist_count: 0,
    account: 'alice',
    domain: 'strict.test',
    time_taken: 1_840,
    deliverability_score: 0.76,
    transcript: [
      { at_ms: 3, direction: 'S', line: '220 mx.strict.test ESMTP' },
      { at_ms: 5, direction: 'C', line: 'RCPT TO:<alice@strict.test>' },
    ],
    billable: true,
    credits_charged: 1,
    safe_to_send_until: '2026-11-23T15:00:00.000Z',
    ...overrides,
  };
}

const ZERO_STATS: TVerifyStats = {
  total: 0,
  valid: 0,
  invalid: 0,
  catch_all: 0,
  unknown: 0,
  duplicate: 0,
  syntax_error: 0,
  disposable: 0,
  gibberish: 0,
  free_account: 0,
  role_account: 0,
  profile: 0,
  billable: 0,
  deliverability_score: 0,
  billable_credits: 0,
  safe_to_send: 0,
};

/** Test data only: an analysed, not yet verified list. */
export function buildList(overrides: Partial<TVerifyList> = {}): TVerifyList {
  return {
    id: '6f1c1c2e-5d0b-4c1e-9a55-1d0c1f0e0a01',
    name: 'leads',
    file_name: 'leads.csv',
    file_type: 'csv',
    source: 'upload',
    state: 'non_verified',
    activity: null,
    analysis: { state: 'ready', error: null },
    counts: { rows: 14, unique: 10, duplicate: 2, syntax_error: 2, verified: 0, remaining: 10 },
    cost: { billable_estimate: 10, credits_required: 10 },
    stats: { ...ZERO_STATS, total: 14, duplicate: 2, syntax_error: 2 },
    progress: 0,
    greylist: { waiting: 0, next_recheck_at: null },
    stopped_reason: null,
    created_at: '2026-11-22T15:00:00.000Z',
    updated_at: '2026-11-22T15:00:00.000Z',
    verified_at: null,
    ...overrides,
  };
}
