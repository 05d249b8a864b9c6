/**
 * Bounce reports: an upload is stored and previewed with the detected mapping (POST /bounces/reports/upload), then
 * applied once with the mapping the person confirmed (POST /bounces/reports/apply), in one transaction: the report
 * turns applied, every row's bounce is recorded and the guarantee's claims are made (their re-check queued in it).
 * The credited figures are read from the claims as the re-checks settle them. Applying it again (a
 * retry, a second tab, two requests at once) answers the first application's totals and changes nothing.
 */
import { randomUUID } from 'node:crypto';
import type { TBounceApplyRequest, TBounceMapping, TBounceReport, TBounceReportPreview, TBounceReportsData, TUploadFileType } from '@verilead/contracts';
import { checkFileHead, detectFileType, FileParseError, readRows } from '../../platform/bulk/file-parsing';
import { readStoredHead, storeCappedUpload, type TUploadPart } from '../../platform/bulk/upload';
import { XlsxReadError } from '../../platform/bulk/xlsx-reader';
import type { TDeps } from '../../platform/deps';
import { AppError } from '../../platform/errors/app-error';
import type { TFileStorage } from '../../platform/storage/storage';
import type { TCallerContext } from '../../platform/tenancy/context';
import { classifyBounce, detectBounceReport, parseBounceDate, readMappedRow } from './classify';
import { CONFIRM_CREDIT_BACKS_JOB } from './confirm-credit-backs';
import { countReports, insertReport, lockReport, selectClaimTotalsByReport, selectReport, selectReportsPage, updateReport, type TClaimTotals, type TReportRow } from './queries';
import { recordBounces, type TBounceEvent } from './record-bounces';

/** Rows a report may hold (a campaign's bounces; larger files are split). */
export const MAX_REPORT_ROWS = 200_000;
const SAMPLE_ROWS = 20;

function badFile(message: string): AppError {
  return new AppError('validation_failed', message, { reasons: [{ field: 'file', location: 'body', messages: [message] }] });
}

async function readFirstRows(storage: TFileStorage, key: string, fileType: TUploadFileType, n: number): Promise<string[][]> {
  checkFileHead(await readStoredHead(storage, key, 65_536), fileType);
  const stream = storage.read(key);
  const rows: string[][] = [];
  try {
    for await (const row of readRows(stream, fileType)) {
      if (row.some((c) => c.trim() !== '')) rows.push(row);
      if (rows.length >= n) break;
    }
  } finally {
    stream.destroy();
  }
  return rows;
}

const NO_CLAIMS: TClaimTotals = { credited: 0, creditsReturned: 0, pending: 0, declined: 0 };

function toReport(r: TReportRow, claims: TClaimTotals = NO_CLAIMS): TBounceReport {
  return {
    id: r.id,
    file_name: r.fileName,
    state: r.state,
    created_at: r.createdAt.toISOString(),
    applied_at: r.appliedAt ? r.appliedAt.toISOString() : null,
    rows: r.rows,
    hard: r.hard,
    soft: r.soft,
    ignored: r.ignored,
    matched: r.matched,
    credited: claims.credited,
    credits_returned: claims.creditsReturned,
    credit_backs_pending: claims.pending,
    credit_backs_declined: claims.declined,
  };
}

function previewOf(report: { id: string; fileName: string }, rows: string[][], mapping?: TBounceMapping): TBounceReportPreview {
  const detected = detectBounceReport(rows);
  const m = mapping ?? detected.mapping;
  const data = rows.slice(detected.hasHeader ? 1 : 0);
  return {
    report_id: report.id,
    file_name: report.fileName,
    columns: detected.columns,
    has_header: detected.hasHeader,
    detected_esp: detected.esp,
    mapping: m,
    sample: data.slice(0, 10).map((cells) => {
      const c = readMappedRow(cells, m);
      return { cells, email: c.email, kind: c.email.includes('@') ? classifyBounce(c) : null };
    }),
  };
}

/** POST /bounces/reports/upload: stores the report and answers its preview (nothing applied). */
export async function uploadBounceReport(deps: Pick<TDeps, 'database' | 'storage'>, ctx: TCallerContext, part: TUploadPart): Promise<TBounceReportPreview> {
  const fileType = detectFileType(part.filename);
  if (!fileType) {
    part.file.resume();
    throw badFile('Please upload a .csv, .xlsx or .txt file');
  }
  const id = randomUUID();
  // Under the organisation's uploads folder, so deleting the organisation deletes it (privacy/delete-organisation.ts).
  const key = `uploads/${ctx.orgId}/bounces-${id}.${fileType}`;
  const { size } = await storeCappedUpload(deps.storage, key, part);
  let rows: string[][];
  try {
    if (size === 0) throw new FileParseError('The file is empty');
    rows = await readFirstRows(deps.storage, key, fileType, SAMPLE_ROWS + 1);
    if (rows.length === 0) throw new FileParseError('The file has no rows');
  } catch (err) {
    await deps.storage.remove(key);
    if (err instanceof FileParseError || err instanceof XlsxReadError) throw badFile(err.message);
    throw err;
  }
  const fileName = part.filename.trim().slice(0, 255) || `bounces.${fileType}`;
  await insertReport(deps.database.db, { id, orgId: ctx.orgId, userId: ctx.userId, fileName, fileType, storageKey: key });
  return previewOf({ id, fileName }, rows);
}

/** Reads every row of a stored report as bounce events with the mapping (rows without an address or a kind are counted as ignored). */
async function readReportEvents(storage: TFileStorage, report: TReportRow, mapping: TBounceMapping, now: Date) {
  const first = await readFirstRows(storage, report.storageKey, report.fileType, SAMPLE_ROWS + 1);
  const { hasHeader } = detectBounceReport(first);
  const events: TBounceEvent[] = [];
  let rows = 0;
  let ignored = 0;
  const stream = storage.read(report.storageKey);
  try {
    let index = 0;
    for await (const row of readRows(stream, report.fileType)) {
      if (index++ === 0 && hasHeader) continue;
      if (!row.some((c) => c.trim() !== '')) continue;
      if (++rows > MAX_REPORT_ROWS) throw badFile(`A bounce report may hold ${MAX_REPORT_ROWS.toLocaleString('en-US')} rows; please split it`);
      const c = readMappedRow(row, mapping);
      const kind = /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(c.email) ? classifyBounce(c) : null;
      if (!kind) {
        ignored += 1;
        continue;
      }
      events.push({ email: c.email, kind, source: 'upload', bouncedAt: parseBounceDate(c.date, now) ?? now, reason: c.reason || null, code: c.code || null, reportId: report.id });
    }
  } catch (err) {
    if (err instanceof FileParseError || err instanceof XlsxReadError) throw badFile(err.message);
    throw err;
  } finally {
    stream.destroy();
  }
  return { events, rows, ignored };
}

async function requireReport(deps: Pick<TDeps, 'database'>, ctx: TCallerContext, id: string): Promise<TReportRow> {
  const report = await selectReport(deps.database.db, ctx.orgId, id);
  if (!report) throw new AppError('not_found', 'Bounce report not found');
  return report;
}

/** POST /bounces/reports/apply: applies the report with the confirmed mapping, once. */
export async function applyBounceReport(
  deps: Pick<TDeps, 'database' | 'storage' | 'clock' | 'config' | 'queue'>,
  ctx: TCallerContext,
  body: TBounceApplyRequest,
): Promise<TBounceReport> {
  const report = await requireReport(deps, ctx, body.report_id);
  if (report.state === 'applied') return withClaims(deps, ctx.orgId, report);
  if (report.fileDeletedAt) throw new AppError('conflict', "The uploaded file was deleted under your organisation's data retention: upload it again");
  const { columns } = detectBounceReport(await readFirstRows(deps.storage, report.storageKey, report.fileType, 2));
  for (const [field, col] of Object.entries(body.mapping)) {
    if (col !== null && col >= columns.length) {
      const message = `Column ${col + 1} does not exist: the file has ${columns.length} column(s)`;
      throw new AppError('validation_failed', message, { reasons: [{ field: `mapping.${field}`, location: 'body', messages: [message] }] });
    }
  }
  const now = deps.clock();
  const read = await readReportEvents(deps.storage, report, body.mapping, now);
  const applied = await deps.database.transaction(async (tx) => {
    // The report's row lock orders applications of one report: the second finds it applied and answers its totals.
    const current = await lockReport(tx, ctx.orgId, report.id);
    if (!current || current.state === 'applied') return current;
    const totals = await recordBounces(tx, ctx.orgId, read.events, deps.config.bounceGuaranteeDays, now);
    if (totals.claimed > 0) await deps.queue.enqueue(CONFIRM_CREDIT_BACKS_JOB, { orgId: ctx.orgId }, { tx, orgId: ctx.orgId });
    return updateReport(tx, report.id, {
      state: 'applied',
      mapping: body.mapping,
      rows: read.rows,
      ignored: read.ignored,
      hard: totals.hard,
      soft: totals.soft,
      matched: totals.matched,
      appliedAt: now,
    });
  });
  if (!applied) throw new AppError('not_found', 'Bounce report not found');
  return withClaims(deps, ctx.orgId, applied);
}

async function withClaims(deps: Pick<TDeps, 'database'>, orgId: string, report: TReportRow): Promise<TBounceReport> {
  return toReport(report, (await selectClaimTotalsByReport(deps.database.db, orgId, [report.id])).get(report.id));
}

/** GET /bounces/reports: the organisation's reports, newest first, and the guarantee in force. */
export async function listBounceReports(deps: Pick<TDeps, 'database' | 'config'>, ctx: TCallerContext, q: { page: number; limit: number }): Promise<TBounceReportsData> {
  const db = deps.database.db;
  const [items, total] = await Promise.all([selectReportsPage(db, ctx.orgId, q.page, q.limit), countReports(db, ctx.orgId)]);
  const claims = await selectClaimTotalsByReport(db, ctx.orgId, items.map((r) => r.id));
  return { items: items.map((r) => toReport(r, claims.get(r.id))), total, page: q.page, limit: q.limit, guarantee_days: deps.config.bounceGuaranteeDays };
}
