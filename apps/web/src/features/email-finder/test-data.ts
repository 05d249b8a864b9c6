import type { TFinderList, TFinderResult, TFinderStats } from '@verilead/contracts';

/** Test data only: a found finder result. */
export function buildFinderResult(overrides: Partial<TFinderResult> = {}): TFinderResult {
  return {
    email: 'jane.doe@strict.test',
    status: 'found',
    confidence_score: 95,
    catch_all: false,
    business: true,
    role: false,
    reason: { code: 'verified_valid', text: 'The mail server confirmed this mailbox.' },
    pattern: 'first.last',
    verification_status: 'valid',
    first_name: 'Jane',
    middle_name: null,
    last_name: 'Doe',
    full_name: 'Jane Doe',
    domain: 'strict.test',
    company: { name: null },
    candidates_tried: 1,
    emails: [{ email_address: 'jane.doe@strict.test', role: 'no', business: 'yes' }],
    total: 1,
    found_on: '2026-11-22T15:00:00.000Z',
    ...overrides,
  };
}

/** Test data only: finder metrics. */
export function buildFinderStats(overrides: Partial<TFinderStats> = {}): TFinderStats {
  return { total: 10, found: 7, not_found: 3, business: 7, role: 1, catch_all: 2, confidence_score: 84.5, billable: 7, ...overrides };
}

/** Test data only: a finder list. */
export function buildFinderList(overrides: Partial<TFinderList> = {}): TFinderList {
  return {
    id: '7d9c2a4e-1f0b-4f7a-9f31-2b8f6f0c9a11',
    name: 'People',
    file_name: 'people.csv',
    file_type: 'csv',
    state: 'not_processed',
    activity: null,
    mapping: { first_name: 0, last_name: 1, middle_name: null, full_name: null, domain: 2, company: null },
    counts: { rows: 10, searchable: 10, skipped: 0, duplicate: 0, processed: 0, remaining: 10 },
    stats: buildFinderStats({ total: 0, found: 0, not_found: 0, business: 0, role: 0, catch_all: 0, confidence_score: 0, billable: 0 }),
    progress: 0,
    stopped_reason: null,
    created_at: '2026-11-22T15:00:00.000Z',
    updated_at: '2026-11-22T15:00:00.000Z',
    processed_at: null,
    ...overrides,
  };
}
