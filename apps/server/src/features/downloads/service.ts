import { createHmac, timingSafeEqual } from 'node:crypto';
import { notifyCompletion } from '../../platform/jobs/completion';
import { Readable } from 'node:stream';
import {
  DOWNLOAD_RETENTION_DAYS,
  DOWNLOAD_TOKEN_TTL_HOURS,
  formatZonedDateTime,
  STANDARD_RESULT_COLUMNS,
  ZResultColumn,
  type TActivitiesDownloadData,
  type TDownload,
  type TDownloadFormat,
  type TDownloadKind,
  type TDownloadStatus,
  type TListColumnsData,
  type TResultColumn,
  type ZActivitiesDownloadRequest,
  type ZExportRequest,
} from '@verilead/contracts';
import type { z } from 'zod';
import type { TDatabase, TDb } from '../../platform/db/database';
import type { TDeps } from '../../platform/deps';
import { AppError, throwNotFound } from '../../platform/errors/app-error';
import type { TJobContext } from '../../platform/jobs/jobs';
import { getStorage, type TFileStorage } from '../../platform/storage/storage';
import { getVisibleScope, type TCallerContext } from '../../platform/tenancy/context';
import { selectUserTimeZone } from '../../platform/tenancy/time-zone';
import { inputColumnNames, withInputCells } from '../../platform/bulk/input-columns';
import { listActivities, recordActivity, type TRunningJobActivity } from '../activities/service';
import { readRows } from '../email-verifier/file-parsing';
import { numberDataRows, type TNumberedRow } from '../email-verifier/analyse-list-job';
import { getListForExport, iterateListRows, type TExportRow } from '../email-verifier/list-rows';
import { writeCsv, writeXlsx } from './file-writers';
import { prospectExportRows } from '../prospects/service';
import { openFinderExport } from '../email-finder/finder-downloads';
import { insertDownload, selectDownload, selectDownloadById, selectRunningDownloads, updateDownload, type TDownloadRow } from './queries';
import { organisationArchiveLines } from '../privacy/archive';

export const EXPORT_JOB = 'downloads.export';
const DAY_MS = 86_400_000;

// ---------- tokens ----------

function sign(secret: string, id: string, exp: number): string {
  return createHmac('sha256', secret).update(`download:${id}:${exp}`).digest('base64url');
}

/** An expiring download token: `<download id>.<expiry unix seconds>.<HMAC>`; nothing to store, nothing to leak. */
export function createDownloadToken(secret: string, downloadId: string, expiresAt: Date): string {
  const exp = Math.floor(expiresAt.getTime() / 1000);
  return `${downloadId}.${exp}.${sign(secret, downloadId, exp)}`;
}

/** The download id of a valid token; 400 for a forged token, 410 for an expired one. */
export function readDownloadToken(secret: string, token: string, now = Date.now()): string {
  const [id, expText, mac] = token.split('.');
  const exp = Number(expText);
  const expected = id && Number.isInteger(exp) ? sign(secret, id, exp) : '';
  const ok = !!mac && expected.length === mac.length && timingSafeEqual(Buffer.from(expected), Buffer.from(mac));
  if (!ok || !id) throw new AppError(400, 'invalid_token', 'This download link is not valid');
  if (exp * 1000 <= now) throw new AppError(410, 'token_expired', 'This download link has expired; please request the file again');
  return id;
}

// ---------- views ----------

function effectiveState(row: TDownloadRow, now = Date.now()): TDownloadStatus {
  // A file removed from storage (its retention is over) reads expired too.
  if (row.state === 'success' && (!row.storageKey || (row.expiresAt && row.expiresAt.getTime() <= now))) return 'expired';
  return row.state as TDownloadStatus;
}

/** The public path of each kind's files (spec section 7); every path serves any valid token. */
const PUBLIC_DOWNLOAD_PATH: Partial<Record<TDownloadKind, string>> = {
  activities: 'user_activity_download',
  prospects: 'download_prospects',
  finder_result: 'download_email_finder_history',
  finder_history: 'download_email_finder_history',
};

export function toDownloadView(secret: string, row: TDownloadRow): TDownload {
  const state = effectiveState(row);
  let token: string | null = null;
  let tokenExpires: Date | null = null;
  if (state === 'success' && row.expiresAt) {
    tokenExpires = new Date(Math.min(Date.now() + DOWNLOAD_TOKEN_TTL_HOURS * 3_600_000, row.expiresAt.getTime()));
    token = createDownloadToken(secret, row.id, tokenExpires);
  }
  return {
    download_id: row.id,
    queue_id: row.id,
    kind: row.kind as TDownloadKind,
    list_id: row.listId,
    format: (row.format as TDownloadFormat | null) ?? null,
    file_type: row.fileType as TDownload['file_type'],
    columns: row.columns.filter((c): c is TResultColumn => ZResultColumn.safeParse(c).success),
    state,
    progress: state === 'success' ? 100 : row.progress,
    file_name: row.fileName,
    rows: row.rowCount,
    size_bytes: row.sizeBytes,
    download_url: token ? `/api/v1/public/${PUBLIC_DOWNLOAD_PATH[row.kind as TDownloadKind] ?? 'download'}?download_token=${encodeURIComponent(token)}` : null,
    download_token: token,
    token_expires_at: tokenExpires?.toISOString() ?? null,
    expires_at: row.expiresAt?.toISOString() ?? null,
    error: row.error,
    created_at: row.createdAt.toISOString(),
  };
}

// ---------- list exports ----------

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
  throw new AppError(400, 'validation_failed', message, { reasons: [{ field: 'input_columns', location: 'body', messages: [message] }] });
}

function baseName(fileName: string): string {
  return fileName.replace(/\.(csv|xlsx|txt)$/i, '');
}

/** POST /email_verify/list/export and POST /download/result: a result file, or the uploaded rows as CSV or XLSX (both prepared by a job). */
export async function requestListExport(deps: TDeps, ctx: TCallerContext, input: z.output<typeof ZExportRequest>): Promise<TDownload> {
  const storage = getStorage(deps.config);
  const list = await getListForExport(deps.database.db, ctx, input.list_id);
  const isInput = input.kind === 'input';
  const fileType = input.file_type ?? (isInput && list.fileType === 'xlsx' ? 'xlsx' : 'csv');
  if (!isInput && list.analysisState !== 'ready') throw new AppError(409, 'conflict', 'The file is still being analysed; please wait');
  // Data retention deleted what the file would be made of: say so rather than prepare an empty file.
  if (isInput && list.fileDeletedAt) throw new AppError(409, 'conflict', "The uploaded file was deleted under your organisation's data retention");
  if (!isInput && list.resultsDeletedAt) throw new AppError(409, 'conflict', "This list's results were deleted under your organisation's data retention");
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

/** The export job: writes the file to storage and marks the download success (idempotent: a rerun rewrites it). */
export async function runExportJob(
  database: TDatabase,
  storage: TFileStorage,
  downloadId: string,
  job: Pick<TJobContext, 'reportProgress'> & Partial<Pick<TJobContext, 'attempt' | 'maxAttempts'>>,
): Promise<void> {
  const d = await selectDownloadById(database.db, downloadId);
  if (!d || (d.state !== 'queued' && d.state !== 'processing')) return;
  try {
    await writeExport(database, storage, d);
  } catch (err) {
    // The last attempt marks the file failed and says so in Activities; earlier ones are retried.
    if ((job.attempt ?? 1) < (job.maxAttempts ?? 1)) throw err;
    await database.transaction(async (tx) => {
      await updateDownload(tx, d.id, { state: 'failed', error: 'The file could not be prepared; please request it again' });
      await recordActivity(tx, { orgId: d.orgId, userId: d.userId, type: 'failed', description: `Preparing "${d.fileName}" failed`, metadata: { job: 'export', download_id: d.id } });
    });
    await notifyCompletion(database, `download:${d.id}`);
  }
}

/** The member's files still queued or being prepared, as running export activities. */
export async function listRunningJobActivities(exec: TDb, who: { orgId: string; userId: string }): Promise<TRunningJobActivity[]> {
  const rows = await selectRunningDownloads(exec, who);
  return rows.map((d) => ({
    key: `export:${d.id}`,
    type: 'export',
    status: d.state === 'processing' ? 'in_progress' : 'queued',
    progress: d.state === 'processing' && d.progress > 0 ? d.progress : null,
    description: d.kind === 'activities' ? 'The activity log' : `"${d.fileName}"`,
    metadata: { download_id: d.id, list_id: d.listId, kind: d.kind },
    since: d.updatedAt,
  }));
}

async function writeExport(database: TDatabase, storage: TFileStorage, d: TDownloadRow): Promise<void> {
  await updateDownload(database.db, d.id, { state: 'processing', progress: 0 });
  const key = `downloads/${d.orgId}/${d.id}.${d.fileType}`;
  const counter = { rows: 0 };
  if (d.kind === 'organisation_data') {
    // The owner's export of everything the organisation holds: JSON lines, written as they are read.
    const { size } = await storage.write(key, Readable.from(organisationArchiveLines(database.db, d.orgId, counter)));
    await finishExport(database, d, key, size, counter.rows);
    return;
  }
  let rows: AsyncIterable<string[]>;
  if (d.kind === 'activities') {
    rows = activityRows(database.db, d, counter);
  } else if (d.kind === 'prospects') {
    rows = prospectExportRows(database.db, d, counter);
  } else if (d.kind === 'finder_result' || d.kind === 'finder_history') {
    const finderRows = await openFinderExport(database.db, d, counter);
    if (!finderRows) {
      await updateDownload(database.db, d.id, { state: 'cancelled', error: 'The list was removed' });
      await notifyCompletion(database, `download:${d.id}`);
      return;
    }
    rows = finderRows;
  } else {
    const list = d.listId ? await getListForExport(database.db, { orgId: d.orgId }, d.listId).catch(() => null) : null;
    if (!list) {
      await updateDownload(database.db, d.id, { state: 'cancelled', error: 'The list was removed' });
      await notifyCompletion(database, `download:${d.id}`);
      return;
    }
    if (d.kind === 'input') {
      rows = inputRows(storage, list, counter);
    } else {
      const columns = d.columns.filter((c): c is TResultColumn => ZResultColumn.safeParse(c).success);
      const keep = Array.isArray(d.params.input_columns) ? (d.params.input_columns as number[]) : null;
      rows = exportRows(database.db, storage, list, d.format as TDownloadFormat, columns, keep, counter);
    }
  }
  const stream: Readable = d.fileType === 'xlsx' ? writeXlsx(rows) : writeCsv(rows);
  const { size } = await storage.write(key, stream);
  await finishExport(database, d, key, size, counter.rows);
}

async function finishExport(database: TDatabase, d: TDownloadRow, key: string, size: number, rowCount: number): Promise<void> {
  const counter = { rows: rowCount };
  await updateDownload(database.db, d.id, {
    state: 'success',
    progress: 100,
    storageKey: key,
    rowCount: counter.rows,
    sizeBytes: size,
    error: null,
    expiresAt: new Date(Date.now() + DOWNLOAD_RETENTION_DAYS * DAY_MS),
  });
  // A /v2 result download waits for this file (waitForCompletion).
  await notifyCompletion(database, `download:${d.id}`);
  await recordActivity(database.db, {
    orgId: d.orgId,
    userId: d.userId,
    type: 'export',
    description: d.kind === 'activities' ? 'Exported the activity log' : d.kind === 'organisation_data' ? "Exported the organisation's data" : `Exported "${d.fileName}"`,
    metadata: { download_id: d.id, list_id: d.listId, format: d.format, rows: counter.rows },
  });
}

export async function getDownloadStatus(exec: TDb, secret: string, ctx: TCallerContext, queueId: string): Promise<TDownload> {
  const row = await selectDownload(exec, getVisibleScope(ctx), queueId);
  if (!row) throwNotFound('Download');
  return toDownloadView(secret, row);
}

/** GET /public/download?download_token: the file behind a valid, unexpired token. */
export async function openDownload(
  exec: TDb,
  storage: TFileStorage,
  secret: string,
  token: string,
): Promise<{ stream: Readable; fileName: string; contentType: string; size: number }> {
  const id = readDownloadToken(secret, token);
  const row = await selectDownloadById(exec, id);
  if (!row) throwNotFound('Download');
  const state = effectiveState(row);
  if (state === 'expired') throw new AppError(410, 'token_expired', 'This file has expired; please request it again');
  if (state !== 'success' || !row.storageKey) throw new AppError(409, 'conflict', `This file is not ready (${state})`);
  const stat = await storage.stat(row.storageKey);
  if (!stat) throw new AppError(410, 'token_expired', 'This file is no longer available; please request it again');
  const contentType =
    row.fileType === 'xlsx' ? 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' : row.fileType === 'txt' ? 'text/plain; charset=utf-8' : row.fileType === 'jsonl' ? 'application/jsonl; charset=utf-8' : 'text/csv; charset=utf-8';
  return { stream: storage.read(row.storageKey), fileName: row.fileName, contentType, size: stat.size };
}

/** Queues a file another feature prepares through the export job (prospect files); answers its download view. */
export async function queueExportDownload(deps: TDeps, row: Parameters<typeof insertDownload>[1]): Promise<TDownload> {
  const d = await deps.database.transaction(async (tx) => {
    const inserted = await insertDownload(tx, row);
    const jobId = await deps.queue.enqueue(EXPORT_JOB, { downloadId: inserted.id }, { tx, orgId: row.orgId, userId: row.userId, maxAttempts: 3 });
    await updateDownload(tx, inserted.id, { jobId });
    return inserted;
  });
  return toDownloadView(deps.config.appSecret, d);
}

// ---------- activity log export ----------

type TActivityParams = { type?: string | string[]; from?: string; to?: string; role: TCallerContext['role'] };

function activityQuery(p: TActivityParams, page: number, limit: number) {
  return { type: p.type, from: p.from, to: p.to, page, limit } as Parameters<typeof listActivities>[2];
}

async function* activityRows(exec: TDb, d: TDownloadRow, counter: { rows: number }) {
  const p = d.params as TActivityParams;
  const ctx: TCallerContext = { userId: d.userId, orgId: d.orgId, role: p.role, sessionId: null, via: 'session' };
  // Times as the file's owner sees them: their time zone setting, with its offset.
  const timeZone = await selectUserTimeZone(exec, d.userId);
  yield ['created_at', 'type', 'description'];
  for (let page = 1; ; page += 1) {
    const res = await listActivities(exec, ctx, activityQuery(p, page, 500));
    for (const item of res.items) {
      counter.rows += 1;
      yield [formatZonedDateTime(new Date(item.created_at), timeZone), item.type, item.description];
    }
    if (res.items.length < 500) return;
  }
}

/** POST /download/activities: how many rows an activity export would hold. */
export async function countActivityDownload(exec: TDb, ctx: TCallerContext, input: z.output<typeof ZActivitiesDownloadRequest>): Promise<TActivitiesDownloadData> {
  const res = await listActivities(exec, ctx, activityQuery({ ...input, role: ctx.role }, 1, 25));
  return { rows: res.total, message: res.total > 0 ? `${res.total} activities will be exported` : 'No activities match these filters' };
}

/** POST /download/activities/confirm: prepares the activity file in a job. */
export async function requestActivityDownload(deps: TDeps, ctx: TCallerContext, input: z.output<typeof ZActivitiesDownloadRequest>): Promise<TDownload> {
  await countActivityDownload(deps.database.db, ctx, input);
  const row = await deps.database.transaction(async (tx) => {
    const d = await insertDownload(tx, {
      orgId: ctx.orgId,
      userId: ctx.userId,
      kind: 'activities',
      listId: null,
      format: null,
      fileType: input.file_type,
      columns: [],
      params: { type: input.type, from: input.from, to: input.to, role: ctx.role },
      state: 'queued',
      fileName: `activities.${input.file_type}`,
    });
    const jobId = await deps.queue.enqueue(EXPORT_JOB, { downloadId: d.id }, { tx, orgId: ctx.orgId, userId: ctx.userId, maxAttempts: 3 });
    await updateDownload(tx, d.id, { jobId });
    return d;
  });
  return toDownloadView(deps.config.appSecret, row);
}
