import type { TDb } from '../../platform/db/database';
import { selectVerificationSummary } from './queries';
import { readSummaryRows } from '../../platform/db/summary-rows';
import type { TVerifierUsageStats } from '@verilead/contracts';

/** What the verifier did in [from, to) for analytics: list and instant results added up (spec section 3 stats metrics). */
export async function summariseVerifications(
  exec: TDb,
  f: { orgId: string; userIds?: string[]; from: Date; to: Date },
): Promise<{ stats: TVerifierUsageStats; instant: number; bulk: number }> {
  const { lists: l, instant: i } = await selectVerificationSummary(exec, f);
  const { n, both } = readSummaryRows(l, i);
  const valid = both('valid');
  return {
    stats: {
      total: both('verified') + n(l, 'duplicate') + n(l, 'syntax_error'),
      valid,
      invalid: both('invalid'),
      catch_all: both('catch_all'),
      unknown: both('unknown'),
      duplicate: n(l, 'duplicate'),
      syntax_error: n(l, 'syntax_error'),
      disposable: both('disposable'),
      gibberish: both('gibberish'),
      free_account: both('free_account'),
      role_account: both('role_account'),
      billable: both('billable'),
      safe_to_send: both('safe_to_send'),
      deliverability_score: valid > 0 ? Math.round(((n(l, 'valid_score_sum') + n(i, 'valid_score_sum')) / valid) * 10_000) / 100 : 0,
      billable_credits: both('billable'),
    },
    instant: n(i, 'verified'),
    bulk: Math.round(n(l, 'verified')),
  };
}
