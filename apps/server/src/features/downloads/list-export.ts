import { STANDARD_RESULT_COLUMNS, ZResultColumn, type TCatchAllScore, type TDownload, type TDownloadFormat, type TListColumnsData, type TResultColumn, type ZExportRequest } from '@verilead/contracts';
import type { z } from 'zod';
import type { TDb } from '../../platform/db/database';
import type { TDeps } from '../../platform/deps';
import { AppError } from '../../platform/errors/app-error';
import type { TFileStorage } from '../../platform/storage/storage';
import type { TCallerContext } from '../../platform/tenancy/context';
import { inputColumnNames, withInputCells } from '../../platform/bulk/input-columns';
import { getListForExport, iterateListRows, numberDataRows, readRows, type TExportRow, type TNumberedRow } from '../email-verifier';
import { toDownloadView } from './download-view';
import type { TExportContent } from './export-source';
import { insertDownload, updateDownload, type TDownloadRow } from './queries';
import { EXPORT_JOB } from './service';

// A verifier list's files: its uploaded rows as they were, or its results in one of the formats.

function safeName(name: string): string {
  return name.replace(/[^\w.\- ]+/g, '_').trim().slice(0, 120) || 'list';
}

type TExportList = Awaited<ReturnType<typeof getListForExport>>;

/** Result columns of the formats other than custom: the standard ones, less `email` (the uploaded row already holds the address). */
const FORMAT_RESULT_COLUMNS = STANDARD_RESULT_COLUMNS.filter((c) => c !== 'email');
/** How many rows are read to learn the width of an uploaded file (the preview's sample). */
const SHAPE_SAMPLE_ROWS = 50;

/** The numbered rows of a list's uploaded file (blank rows skipped, the header as row 0); the stream is closed when the caller stops. */
async function* uploadedRows(storage: TFileStorage, list: TExportList): AsyncGenerator<TNumberedRow> {
  const source = storage.read(list.storageKey);
  try {
    yield* numberDataRows(readRows(source, list.fileType), list.hasHeader);
  } finally {
    source.destroy();
  }
}

/** The uploaded file's column names (its header, or "Column N"; the address column is "email" in a file without header). */
async function readInputColumns(storage: TFileStorage, list: TExportList): Promise<string[]> {
  let header: string[] | null = null;
  let width = list.emailColumn + 1;
  let seen = 0;
  for await (const row of uploadedRows(storage, list)) {
    if (row.header) header = row.cells;
    width = Math.max(width, row.cells.length);
    if (!row.header && ++seen >= SHAPE_SAMPLE_ROWS) break;
  }
  return inputColumnNames(header, width, (i) => (i === list.emailColumn && !header ? 'email' : `Column ${i + 1}`));
}

/** GET /email_verify/list/columns: the uploaded columns a custom download can keep. */
export async function getListColumns(deps: TDeps, storage: TFileStorage, ctx: TCallerContext, listId: string): Promise<TListColumnsData> {
  const list = await getListForExport(deps.database.db, ctx, listId);
  return { list_id: list.id, columns: await readInputColumns(storage, list), email_column: list.emailColumn };
}

function badColumn(message: string): never {
  throw new AppError('validation_failed', message, { reasons: [{ field: 'input_columns', location: 'body', messages: [message] }] });
}

function baseName(fileName: string): string {
  return fileName.replace(/\.(csv|xlsx|txt)$/i, '');
}

/** POST /email_verify/list/export and POST /download/result: a result file, or the uploaded rows as CSV or XLSX (both prepared by a job). */
export async function requestListExport(deps: TDeps, ctx: TCallerContext, input: z.output<typeof ZExportRequest>): Promise<TDownload> {
  const { storage } = deps;
  const list = await getListForExport(deps.database.db, ctx, input.list_id);
  const isInput = input.kind === 'input';
  const fileType = input.file_type ?? (isInput && list.fileType === 'xlsx' ? 'xlsx' : 'csv');
  if (!isInput && list.analysisState !== 'ready') throw new AppError('conflict', 'The file is still being analysed; please wait');
  // Data retention deleted what the file would be made of: say so rather than prepare an empty file.
  if (isInput && list.fileDeletedAt) throw new AppError('conflict', "The uploaded file was deleted under your organisation's data retention");
  if (!isInput && list.resultsDeletedAt) throw new AppError('conflict', "This list's results were deleted under your organisation's data retention");
  const custom = !isInput && input.format === 'custom';
  if (custom && input.input_columns) {
    const width = (await readInputColumns(storage, list)).length;
    const missing = input.input_columns.find((i) => i >= width);
    if (missing !== undefined) badColumn(`Column ${missing + 1} does not exist: the file has ${width} column(s)`);
  }
  const row = await deps.database.transaction(async (tx) => {
    const d = await insertDownload(tx, {
      orgId: ctx.orgId,
      userId: ctx.userId,
      kind: isInput ? 'input' : 'result',
      listId: list.id,
      format: isInput ? null : input.format,
      fileType,
      columns: isInput ? [] : custom ? input.columns! : FORMAT_RESULT_COLUMNS,
      params: custom && input.input_columns ? { input_columns: input.input_columns } : {},
      state: 'queued',
      fileName: isInput ? `${safeName(baseName(list.fileName))}.${fileType}` : `${safeName(list.name)}-${input.format}.${fileType}`,
    });
    const jobId = await deps.queue.enqueue(EXPORT_JOB, { downloadId: d.id }, { tx, orgId: ctx.orgId, userId: ctx.userId, maxAttempts: 3 });
    await updateDownload(tx, d.id, { jobId });
    return { ...d, jobId };
  });
  return toDownloadView(deps.config.appSecret, row);
}

/** Whether a row belongs in a format. Filtered formats hold unique addresses only. */
export function isRowInFormat(row: TExportRow, format: TDownloadFormat): boolean {
  if (format === 'standard' || format === 'custom') return true;
  if (row.duplicate) return false;
  if (format === 'non_deliverables') return row.syntax_error || row.status === 'invalid';
  const safe = row.result?.safe_to_send;
  if (format === 'guaranteed_deliverables') return row.status === 'valid' && safe === 'yes';
  return row.status === 'catch_all' || row.status === 'unknown' || (row.status === 'valid' && safe !== 'yes');
}

function cellOf(row: TExportRow, column: TResultColumn): string {
  const r = row.result ?? {};
  const reason = (r.reason ?? {}) as { code?: string; text?: string };
  const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));
  switch (column) {
    case 'email':
      return row.email;
    case 'row_number':
      return String(row.row_number);
    case 'duplicate':
      return String(row.duplicate);
    case 'syntax_error':
      return String(row.syntax_error);
    case 'status':
      return row.syntax_error ? 'invalid' : str(row.status ?? 'not_verified');
    case 'reason':
      return row.syntax_error ? 'invalid_syntax' : str(reason.code);
    case 'reason_text':
      return row.syntax_error ? 'The address is not valid syntax' : str(reason.text);
    case 'catch_all_score':
      return str((r.catch_all_score as TCatchAllScore | undefined)?.score);
    case 'catch_all_evidence':
      return ((r.catch_all_score as TCatchAllScore | undefined)?.evidence ?? []).map((e) => e.text).join('; ');
    default:
      return str(r[column]);
  }
}

/** The result file's rows: the header, then each row of the list in the format, its uploaded cells (read back from the file) before the results. */
async function* exportRows(
  exec: TDb,
  storage: TFileStorage,
  list: TExportList,
  format: TDownloadFormat,
  columns: TResultColumn[],
  keepInput: number[] | null,
  counter: { rows: number },
) {
  const names = await readInputColumns(storage, list);
  const keep = keepInput ?? names.map((_, i) => i);
  yield withInputCells(names, keep, columns);
  const file = uploadedRows(storage, list);
  try {
    let next = await file.next();
    for await (const row of iterateListRows(exec, list.id)) {
      while (!next.done && (next.value.header || next.value.rowNumber < row.row_number)) next = await file.next();
      if (!isRowInFormat(row, format)) continue;
      counter.rows += 1;
      const cells = !next.done && next.value.rowNumber === row.row_number ? next.value.cells : [];
      yield withInputCells(cells, keep, columns.map((c) => cellOf(row, c)));
    }
  } finally {
    await file.return(undefined);
  }
}

/** The uploaded file's rows as they were (header included, blank rows left out), for a new CSV or XLSX file. */
async function* inputRows(storage: TFileStorage, list: TExportList, counter: { rows: number }) {
  for await (const row of uploadedRows(storage, list)) {
    if (!row.header) counter.rows += 1;
    yield row.cells;
  }
}

/** The export job's content of a list's file (uploaded rows or results); null once the list is gone. */
export async function listExportContent(exec: TDb, storage: TFileStorage, d: TDownloadRow, counter: { rows: number }): Promise<TExportContent | null> {
  const list = d.listId ? await getListForExport(exec, { orgId: d.orgId }, d.listId).catch(() => null) : null;
  if (!list) return null;
  if (d.kind === 'input') return { rows: inputRows(storage, list, counter) };
  const columns = d.columns.filter((c): c is TResultColumn => ZResultColumn.safeParse(c).success);
  const keep = Array.isArray(d.params.input_columns) ? (d.params.input_columns as number[]) : null;
  return { rows: exportRows(exec, storage, list, d.format as TDownloadFormat, columns, keep, counter) };
}
