import type {
  TGreylistWait,
  TUploadFileType,
  TVerificationResult,
  TVerifyList,
  TVerifyStats,
} from '@verilead/contracts';
import { EMPTY_COUNTERS, type TListRow } from './queries';

/** How a list is shown: its stats, progress and view, all read from the list row and its counters. */

/** Billing rule: valid, invalid and catch_all cost one credit; unknown, duplicates and syntax errors are free. */
export function isBillable(result: Pick<TVerificationResult, 'status' | 'reason'>): boolean {
  if (result.reason.code === 'invalid_syntax') return false;
  return result.status === 'valid' || result.status === 'invalid' || result.status === 'catch_all';
}

export function computeStats(row: TListRow): TVerifyStats {
  const c = { ...EMPTY_COUNTERS, ...row.counters };
  return {
    total: row.rowCount,
    valid: c.valid,
    invalid: c.invalid,
    catch_all: c.catch_all,
    unknown: c.unknown,
    duplicate: row.duplicateCount,
    syntax_error: row.syntaxErrorCount,
    disposable: c.disposable,
    gibberish: c.gibberish,
    free_account: c.free_account,
    role_account: c.role_account,
    profile: 0,
    billable: c.billable,
    deliverability_score: c.valid > 0 ? Math.round((c.valid_score_sum / c.valid) * 10_000) / 100 : 0,
    billable_credits: c.billable,
    safe_to_send: c.safe_to_send,
  };
}

export function computeProgress(row: TListRow): number {
  if (row.analysisState !== 'ready') return 0;
  if (row.uniqueCount === 0) return row.state === 'verified' ? 100 : 0;
  const verified = (row.counters ?? EMPTY_COUNTERS).verified;
  return Math.min(100, Math.floor((verified / row.uniqueCount) * 100));
}

/** Addresses waiting for a greylist re-check, and when the next is due (only while the list is being verified). */
export function computeGreylistWait(row: TListRow): TGreylistWait {
  const waiting = row.state === 'in_progress' ? row.greylistWaiting : 0;
  return { waiting, next_recheck_at: waiting > 0 ? (row.greylistRecheckAt?.toISOString() ?? null) : null };
}

/** The list as the API shows it; `pausedReason` when it waits for a suspended organisation or owner (list-views.ts `readPausedReasons`). */
export function toListView(row: TListRow, pausedReason: string | null = null): TVerifyList {
  const verified = (row.counters ?? EMPTY_COUNTERS).verified;
  const remaining = Math.max(0, row.uniqueCount - verified);
  return {
    id: row.id,
    name: row.name,
    file_name: row.fileName,
    file_type: row.fileType as TUploadFileType,
    source: row.source,
    state: row.state,
    activity: row.activity,
    analysis: { state: row.analysisState, error: row.analysisError },
    counts: { rows: row.rowCount, unique: row.uniqueCount, duplicate: row.duplicateCount, syntax_error: row.syntaxErrorCount, verified, remaining },
    cost: { billable_estimate: remaining, credits_required: remaining },
    stats: computeStats(row),
    progress: computeProgress(row),
    greylist: computeGreylistWait(row),
    stopped_reason: row.stoppedReason,
    paused_reason: row.state === 'in_progress' ? pausedReason : null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    verified_at: row.verifiedAt?.toISOString() ?? null,
  };
}

