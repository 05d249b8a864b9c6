import type { TDownload, TFinderDownloadData, TFinderResult, TFinderStatus, ZFinderDownloadResultRequest, ZFinderHistoryDownloadRequest } from '@verilead/contracts';
import type { z } from 'zod';
import { inputColumnNames, withInputCells } from '../../platform/bulk/input-columns';
import type { TDb } from '../../platform/db/database';
import type { TDeps } from '../../platform/deps';
import type { TCallerContext } from '../../platform/tenancy/context';
import { queueExportDownload, type TExportSource } from '../downloads';
import { finderListStore, selectHistory, selectRowResults, selectRowsPage, type TFinderListRow } from './queries';
import { historyFilter } from './history';
import { requireList } from './list-access';

const RESULT_COLUMNS = ['email', 'status', 'confidence_score', 'catch_all', 'business', 'role', 'pattern', 'reason', 'reason_text'] as const;
/** The status of a row that repeats an earlier row's person: not searched, not charged, answered with that row's result. */
export const DUPLICATE_STATUS = 'duplicate';

/** A list download adds whether the row repeats an earlier row's person (it then carries that row's result, uncharged). */
const LIST_RESULT_COLUMNS = [...RESULT_COLUMNS, 'duplicate'] as const;

function resultCells(r: TFinderResult | null, skipReason: string | null): string[] {
  if (!r) return ['', skipReason ? 'skipped' : 'not_processed', '', '', '', '', '', skipReason ? 'skipped' : '', skipReason ?? ''];
  return [r.email ?? '', r.status, String(r.confidence_score), r.catch_all ? 'yes' : 'no', r.business ? 'yes' : 'no', r.role ? 'yes' : 'no', r.pattern ?? '', r.reason.code, r.reason.text];
}

/** The row a duplicate row points at (null for other rows). */
function readDuplicateOf(row: { status: string | null; result: Record<string, unknown> | null }): number | null {
  if (row.status !== DUPLICATE_STATUS) return null;
  const first = row.result?.duplicate_of;
  return typeof first === 'number' ? first : null;
}

/** What the export job keeps of a finder download: the list and its format, or the history's resolved filter. */
type TFinderDownloadParams = {
  format?: 'all' | 'found' | 'not_found';
  filter?: { orgId: string; userId?: string; search?: string; status?: TFinderStatus; from?: string; to?: string };
};

function safeBaseName(name: string): string {
  return name.replace(/[^\w.\- ]+/g, '_').slice(0, 120) || 'email-finder';
}

/** The finder's answer for a queued file: the shared download (polled at GET /download/result/status?queue_id). */
function toFinderDownload(d: TDownload): TFinderDownloadData {
  const { download_id, queue_id, state, file_name, rows, download_url, download_token, token_expires_at } = d;
  return { download_id, queue_id, state, file_name, rows, download_url, download_token, token_expires_at };
}

/** POST /email_finder/download/result: queues the list's rows (uploaded columns first) with the finder columns, CSV or XLSX. */
export async function downloadListResult(deps: TDeps, ctx: TCallerContext, input: z.output<typeof ZFinderDownloadResultRequest>): Promise<TFinderDownloadData> {
  const list = await requireList(deps.database.db, ctx, input.list_id);
  const params: TFinderDownloadParams = { format: input.format };
  const d = await queueExportDownload(deps, {
    orgId: ctx.orgId,
    userId: ctx.userId,
    kind: 'finder_result',
    listId: list.id,
    fileType: input.file_type,
    columns: [],
    params,
    state: 'queued',
    fileName: `${safeBaseName(`${list.name}-email-finder-${input.format}`)}.${input.file_type}`,
  });
  return toFinderDownload(d);
}

/** POST /email_finder/history/download: queues the filtered instant history as CSV or XLSX (the filter as of the request). */
export async function downloadHistory(deps: TDeps, ctx: TCallerContext, input: z.output<typeof ZFinderHistoryDownloadRequest>): Promise<TFinderDownloadData> {
  const { from, to, ...filter } = await historyFilter(deps.database.db, ctx, input);
  const params: TFinderDownloadParams = { filter: { ...filter, from: from?.toISOString(), to: to?.toISOString() } };
  const d = await queueExportDownload(deps, {
    orgId: ctx.orgId,
    userId: ctx.userId,
    kind: 'finder_history',
    listId: null,
    fileType: input.file_type,
    columns: [],
    params,
    state: 'queued',
    fileName: `email-finder-history.${input.file_type}`,
  });
  return toFinderDownload(d);
}

/** A finder download as the export job reads it. */
export type TFinderExport = { orgId: string; kind: string; listId: string | null; params: Record<string, unknown> };

/**
 * The rows of a finder file (header first), read a page at a time: a list's results, or the instant history; null when
 * the list was removed since the file was asked for. Called by the downloads export job.
 */
export async function openFinderExport(exec: TDb, d: TFinderExport, counter: { rows: number }): Promise<AsyncIterable<string[]> | null> {
  const params = d.params as TFinderDownloadParams;
  if (d.kind === 'finder_history') {
    const f = params.filter ?? { orgId: d.orgId };
    return historyRows(exec, { ...f, orgId: d.orgId, from: f.from ? new Date(f.from) : undefined, to: f.to ? new Date(f.to) : undefined }, counter);
  }
  const list = d.listId ? await finderListStore.select(exec, { orgId: d.orgId }, d.listId) : null;
  return list ? listResultRows(exec, list, params.format ?? 'all', counter) : null;
}

async function* listResultRows(exec: TDb, list: TFinderListRow, format: 'all' | 'found' | 'not_found', counter: { rows: number }): AsyncGenerator<string[]> {
  const width = Math.max(list.header.length, 1);
  const keep = Array.from({ length: width }, (_, i) => i);
  yield withInputCells(inputColumnNames(list.header, width), keep, LIST_RESULT_COLUMNS);
  let after = 0;
  for (;;) {
    const page = await selectRowsPage(exec, list.id, after, 1_000);
    if (page.length === 0) return;
    const firstRows = [...new Set(page.map(readDuplicateOf).filter((n): n is number => n !== null))];
    const firstResults = new Map((await selectRowResults(exec, list.id, firstRows)).map((f) => [f.rowNumber, f.result]));
    for (const r of page) {
      const duplicateOf = readDuplicateOf(r);
      const stored = duplicateOf === null ? r.result : (firstResults.get(duplicateOf) ?? null);
      const result = (stored as unknown as TFinderResult | null) ?? null;
      if (format === 'found' && result?.status !== 'found') continue;
      if (format === 'not_found' && result?.status === 'found') continue;
      counter.rows += 1;
      yield withInputCells(r.cells, keep, [...resultCells(result, r.skipReason), duplicateOf === null ? 'no' : 'yes']);
    }
    after = page[page.length - 1]!.rowNumber;
  }
}

async function* historyRows(exec: TDb, filter: Parameters<typeof selectHistory>[1], counter: { rows: number }): AsyncGenerator<string[]> {
  yield ['full_name', 'first_name', 'last_name', 'domain', ...RESULT_COLUMNS, 'searched_at'];
  for (let offset = 0; ; offset += 500) {
    const { rows: page } = await selectHistory(exec, filter, offset, 500);
    for (const row of page) {
      const r = row.result as unknown as TFinderResult;
      counter.rows += 1;
      yield [r.full_name, r.first_name, r.last_name, r.domain, ...resultCells(r, null), row.createdAt.toISOString()];
    }
    if (page.length < 500) return;
  }
}

/** The downloads export job's source for finder files (the composition root hands it to the job). */
export const finderExportSource: TExportSource = async (exec, _storage, d, counter) => {
  const rows = await openFinderExport(exec, d, counter);
  return rows && { rows };
};
