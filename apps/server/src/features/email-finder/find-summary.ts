import type { TDb } from '../../platform/db/database';
import { selectFinderSummary } from './queries';
import { readSummaryRows } from '../../platform/db/summary-rows';
import type { TFinderUsageStats } from '@verilead/contracts';

/** What the finder did in [from, to) for analytics: list and instant results added up (spec section 3 finder metrics). */
export async function summariseFinds(
  exec: TDb,
  f: { orgId: string; userIds?: string[]; from: Date; to: Date },
): Promise<{ stats: TFinderUsageStats; instant: number; bulk: number }> {
  const { lists: l, instant: i } = await selectFinderSummary(exec, f);
  const { n, both } = readSummaryRows(l, i);
  const found = both('found');
  return {
    stats: {
      total: both('total'),
      found,
      not_found: both('not_found'),
      business: both('business'),
      role: both('role'),
      confidence_score: found > 0 ? Math.round(((n(l, 'confidence_sum') + n(i, 'confidence_sum')) / found) * 100) / 100 : 0,
      billable: both('billable'),
    },
    instant: n(i, 'total'),
    bulk: Math.round(n(l, 'total')),
  };
}
