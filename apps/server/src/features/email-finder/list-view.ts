import {
  type TFinderColumnMapping,
  type TFinderFileType,
  type TFinderList,
  type TFinderStats,
} from '@verilead/contracts';
import { EMPTY_FINDER_COUNTERS, type TFinderListRow } from './queries';

export function computeStats(row: TFinderListRow): TFinderStats {
  const c = { ...EMPTY_FINDER_COUNTERS, ...row.counters };
  return {
    total: row.searchableCount,
    found: c.found,
    not_found: c.not_found,
    business: c.business,
    role: c.role,
    catch_all: c.catch_all,
    confidence_score: c.found > 0 ? Math.round((c.confidence_sum / c.found) * 100) / 100 : 0,
    billable: c.billable,
  };
}

function toMapping(m: Record<string, number | null>): TFinderColumnMapping {
  const g = (k: string) => (typeof m[k] === 'number' ? m[k] : null);
  return { first_name: g('first_name'), last_name: g('last_name'), middle_name: g('middle_name'), full_name: g('full_name'), domain: g('domain'), company: g('company') };
}

/** The list as the API shows it; `pausedReason` when it waits for a suspended organisation or owner. */
export function toListView(row: TFinderListRow, pausedReason: string | null = null): TFinderList {
  const processed = (row.counters ?? EMPTY_FINDER_COUNTERS).processed;
  const remaining = Math.max(0, row.searchableCount - processed);
  const progress = row.searchableCount === 0 ? (row.state === 'processed' ? 100 : 0) : Math.min(100, Math.floor((processed / row.searchableCount) * 100));
  return {
    id: row.id,
    name: row.name,
    file_name: row.fileName,
    file_type: row.fileType as TFinderFileType,
    state: row.state,
    activity: row.activity,
    mapping: toMapping(row.mapping),
    counts: { rows: row.rowCount, searchable: row.searchableCount, skipped: row.skippedCount, duplicate: Math.max(0, row.rowCount - row.searchableCount - row.skippedCount), processed, remaining },
    stats: computeStats(row),
    progress,
    stopped_reason: row.stoppedReason,
    paused_reason: row.state === 'in_progress' ? pausedReason : null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    processed_at: row.processedAt?.toISOString() ?? null,
  };
}
