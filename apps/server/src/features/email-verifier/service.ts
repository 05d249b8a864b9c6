import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  EMAIL_VERIFIER_EVENTS,
  SAFE_TO_SEND_WINDOW_HOURS,
  ZBulkUploadFields,
  type TCheckDuplicateData,
  type TInstantSource,
  type TInstantVerifyData,
  type TJobActivityType,
  type TListRemoveCheckData,
  type TListSource,
  type TProgressStatusData,
  type TPublicVerifyData,
  type TRecentInstantData,
  type TUploadFileType,
  type TUploadPreviewData,
  type TVerificationMode,
  type TVerificationResult,
  type TVerifyList,
  type TVerifyListState,
  type TVerifyListsData,
  type TVerifyStats,
  type TListAnalysisState,
  type ZVerifyListsRequest,
} from '@verilead/contracts';
import { normaliseForDedupe, parseAddress } from '@verilead/verifier';
import type { z } from 'zod';
import { chargeCredits } from '../../platform/credits/ledger';
import type { TDatabase, TDb } from '../../platform/db/database';
import type { TDeps } from '../../platform/deps';
import { storeCappedUpload } from '../../platform/bulk/upload';
import { AppError, isAppError, throwNotFound } from '../../platform/errors/app-error';
import { summariseReasons } from '../../platform/errors/app-error';
import type { TJobContext } from '../../platform/jobs/jobs';
import type { TFileStorage } from '../../platform/storage/storage';
import { getVisibleScope, type TCallerContext } from '../../platform/tenancy/context';
import type { TVerifier } from '../../platform/verifier/verifier';
import { recordActivity } from '../activities/service';
import { assertCreditsAvailable } from '../credits/service';
import { recordEvent } from '../events/service';
import { getVerifierPreferences } from '../settings/service';
import { checkFileHead, detectFileType, FileParseError, inspectRows, readRows } from './file-parsing';
import {
  countPendingEmails,
  deleteList,
  deleteListEmails,
  EMPTY_COUNTERS,
  insertInstant,
  insertList,
  insertListEmailsDeduped,
  selectList,
  selectListById,
  selectListForUpdate,
  selectLists,
  selectListNamesStartingWith,
  selectListsByFileName,
  selectRecentListByContent,
  selectListRowsPage,
  selectPendingEmails,
  selectRecentInstant,
  storeEmailResults,
  transitionList,
  updateList,
  type TListRow,
} from './queries';
import { selectVerificationSummary } from './queries';
import { readSummaryRows } from '../../platform/db/summary-rows';
import type { TVerifierUsageStats } from '@verilead/contracts';
import type { TListCounters } from './tables';

export const ANALYSE_JOB = 'email_verifier.analyse';
export const VERIFY_JOB = 'email_verifier.verify';

/** Billing rule: valid, invalid and catch_all cost one credit; unknown, duplicates and syntax errors are free. */
export function isBillable(result: Pick<TVerificationResult, 'status' | 'reason'>): boolean {
  if (result.reason.code === 'invalid_syntax') return false;
  return result.status === 'valid' || result.status === 'invalid' || result.status === 'catch_all';
}

function addHours(iso: string, hours: number): string {
  const t = Date.parse(iso);
  return new Date((Number.isNaN(t) ? Date.now() : t) + hours * 3_600_000).toISOString();
}

// ---------- views ----------

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

function computeProgress(row: TListRow): number {
  if (row.analysisState !== 'ready') return 0;
  if (row.uniqueCount === 0) return row.state === 'verified' ? 100 : 0;
  const verified = (row.counters ?? EMPTY_COUNTERS).verified;
  return Math.min(100, Math.floor((verified / row.uniqueCount) * 100));
}

export function toListView(row: TListRow): TVerifyList {
  const verified = (row.counters ?? EMPTY_COUNTERS).verified;
  const remaining = Math.max(0, row.uniqueCount - verified);
  return {
    id: row.id,
    name: row.name,
    file_name: row.fileName,
    file_type: row.fileType as TUploadFileType,
    source: row.source as TListSource,
    state: row.state as TVerifyListState,
    activity: (row.activity as TJobActivityType | null) ?? null,
    analysis: { state: row.analysisState as TListAnalysisState, error: row.analysisError },
    counts: { rows: row.rowCount, unique: row.uniqueCount, duplicate: row.duplicateCount, syntax_error: row.syntaxErrorCount, verified, remaining },
    cost: { billable_estimate: remaining, credits_required: remaining },
    stats: computeStats(row),
    progress: computeProgress(row),
    stopped_reason: row.stoppedReason,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    verified_at: row.verifiedAt?.toISOString() ?? null,
  };
}

/** A list the caller sees (404 otherwise: another organisation's, or another member's for an Executive). */
async function requireList(exec: TDb, ctx: Pick<TCallerContext, 'orgId'> & Partial<Pick<TCallerContext, 'userId' | 'role'>>, listId: string): Promise<TListRow> {
  const row = await selectList(exec, getVisibleScope(ctx), listId);
  if (!row) throwNotFound('List');
  return row;
}

// ---------- upload ----------

export type TUploadPart = {
  filename: string;
  file: Readable & { truncated?: boolean };
  fields: Record<string, string>;
};

function throwBadFile(message: string, field = 'file'): never {
  throw new AppError(400, 'validation_failed', message, { reasons: [{ field, location: 'body', messages: [message] }] });
}

async function readHead(storage: TFileStorage, key: string, bytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  const stream = storage.read(key);
  try {
    for await (const chunk of stream) {
      chunks.push(chunk as Buffer);
      total += (chunk as Buffer).length;
      if (total >= bytes) break;
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks).subarray(0, bytes);
}

/** Checks a stored upload and reads its first rows: detection of header and e-mail column, or a FileParseError. */
async function inspectStoredFile(
  storage: TFileStorage,
  key: string,
  opts: { fileName: string; fileType: TUploadFileType; emailColumn?: number; hasHeader?: boolean },
): Promise<TUploadPreviewData> {
  checkFileHead(await readHead(storage, key, 65_536), opts.fileType);
  const stream = storage.read(key);
  try {
    return await inspectRows(readRows(stream, opts.fileType), opts);
  } finally {
    stream.destroy();
  }
}

function parseUploadFields(fields: Record<string, string>) {
  const parsed = ZBulkUploadFields.safeParse(fields);
  if (!parsed.success) {
    const reasons = parsed.error.issues.map((i) => ({ field: i.path.join('.') || '(root)', location: 'body' as const, messages: [i.message] }));
    throw new AppError(400, 'validation_failed', summariseReasons(reasons), { reasons });
  }
  return parsed.data;
}

function requireFileType(fileName: string): TUploadFileType {
  const type = detectFileType(fileName);
  if (!type) throwBadFile('Please upload a .csv, .xlsx or .txt file');
  return type;
}

/** Stores the upload, checks it and reads its first rows; a bad file is answered 4xx and nothing is kept. */
async function receiveUpload(storage: TFileStorage, key: string, part: TUploadPart, opts: { emailColumn?: number; hasHeader?: boolean }) {
  const fileType = requireFileType(part.filename);
  const { size, sha256 } = await storeCappedUpload(storage, key, part);
  try {
    if (size === 0) throw new FileParseError('The file is empty');
    const preview = await inspectStoredFile(storage, key, { fileName: part.filename, fileType, ...opts });
    return { fileType, size, sha256, preview };
  } catch (err) {
    await storage.remove(key);
    if (err instanceof FileParseError) throwBadFile(err.message);
    throw err;
  }
}

/** POST /email_verify/bulk_upload/preview: nothing is stored. */
export async function previewUpload(storage: TFileStorage, part: TUploadPart): Promise<TUploadPreviewData> {
  const fields = parseUploadFields(part.fields);
  const key = `tmp/preview-${randomUUID()}`;
  try {
    const { preview } = await receiveUpload(storage, key, part, { emailColumn: fields.email_column, hasHeader: fields.has_header });
    return preview;
  } finally {
    await storage.remove(key);
  }
}

const LIST_NAME_MAX = 200;

/** The list name a file gets when none is given: its name without the extension. */
export function listNameOfFile(fileName: string): string {
  return fileName.replace(/\.(csv|xlsx|txt)$/i, '').trim().slice(0, LIST_NAME_MAX) || 'Untitled list';
}

/** `base` if no name in `taken` equals it (case-insensitive), else the first free `base (2)`, `base (3)`, … */
export function nextFreeListName(base: string, taken: Iterable<string>): string {
  const used = new Set(Array.from(taken, (n) => n.toLowerCase()));
  if (!used.has(base.toLowerCase())) return base;
  for (let n = 2; ; n += 1) {
    const suffix = ` (${n})`;
    const candidate = `${base.slice(0, LIST_NAME_MAX - suffix.length).trimEnd()}${suffix}`;
    if (!used.has(candidate.toLowerCase())) return candidate;
  }
}

/** A name no list of the organisation has yet: "leads", then "leads (2)", "leads (3)", … */
async function uniqueListName(exec: TDb, ctx: Pick<TCallerContext, 'orgId'>, base: string): Promise<string> {
  const stem = base.slice(0, LIST_NAME_MAX - 8).trimEnd();
  return nextFreeListName(base, await selectListNamesStartingWith(exec, ctx, stem));
}

/** POST /email_verify/bulk_upload: stores the file, creates the list and starts the `analyse` job. */
/** How long a retried API upload of the same file (same caller, name and bytes) answers the list it made. */
export const UPLOAD_RETRY_WINDOW_HOURS = 24;

export async function uploadList(
  deps: TDeps,
  storage: TFileStorage,
  ctx: TCallerContext,
  part: TUploadPart,
  opts: { reuseRetried?: boolean } = {},
): Promise<TVerifyList> {
  const fields = parseUploadFields(part.fields);
  const listId = randomUUID();
  const key = `uploads/${ctx.orgId}/${listId}`;
  const { fileType, size, sha256, preview } = await receiveUpload(storage, key, part, { emailColumn: fields.email_column, hasHeader: fields.has_header });
  if (opts.reuseRetried) {
    // A client retrying a request whose answer it never saw gets the list it already made: nothing is verified or charged twice.
    const earlier = await selectRecentListByContent(deps.database.db, { orgId: ctx.orgId, userId: ctx.userId, fileName: part.filename.slice(0, 255), sha256, withinHours: UPLOAD_RETRY_WINDOW_HOURS });
    if (earlier) {
      await storage.remove(key);
      return toListView(earlier);
    }
  }
  try {
    const row = await deps.database.transaction(async (tx) => {
      const list = await insertList(tx, {
        id: listId,
        orgId: ctx.orgId,
        userId: ctx.userId,
        name: await uniqueListName(tx, ctx, fields.list_name ?? listNameOfFile(part.filename)),
        fileName: part.filename.slice(0, 255),
        fileType,
        source: 'upload',
        storageKey: key,
        sizeBytes: size,
        contentSha256: sha256,
        emailColumn: preview.email_column ?? 0,
        hasHeader: preview.has_header,
        state: 'non_verified',
        activity: 'analyse',
        analysisState: 'pending',
        counters: { ...EMPTY_COUNTERS },
      });
      await deps.queue.enqueue(ANALYSE_JOB, { listId }, { tx, orgId: ctx.orgId, userId: ctx.userId });
      await recordActivity(tx, { orgId: ctx.orgId, userId: ctx.userId, type: 'analyse', description: `Uploaded the list "${list.name}"`, metadata: { list_id: listId, file_name: list.fileName } });
      return list;
    });
    return toListView(row);
  } catch (err) {
    await storage.remove(key);
    throw err;
  }
}

export async function checkDuplicateFileName(exec: TDb, ctx: TCallerContext, fileName: string): Promise<TCheckDuplicateData> {
  const lists = await selectListsByFileName(exec, getVisibleScope(ctx), fileName.trim());
  return {
    is_duplicate: lists.length > 0,
    suggested_name: await uniqueListName(exec, ctx, listNameOfFile(fileName.trim())),
    message: lists.length > 0 ? `A file named "${fileName.trim()}" was already uploaded. Upload it again?` : 'No file with this name was uploaded before',
    lists: lists.map((l) => ({ id: l.id, name: l.name, created_at: l.createdAt.toISOString() })),
  };
}

// ---------- analyse job ----------

/** A row of an uploaded file as the analysis numbers it: blank rows are skipped, the header row (if any) is row 0, data rows count from 1. */
export type TNumberedRow = { rowNumber: number; header: boolean; cells: string[] };

/** Numbers the rows of an uploaded file: the one numbering the analysis stores and the exports read back. */
export async function* numberDataRows(rows: AsyncIterable<string[]>, hasHeader: boolean): AsyncGenerator<TNumberedRow> {
  let headerSkipped = !hasHeader;
  let rowNumber = 0;
  for await (const cells of rows) {
    if (cells.every((c) => c.trim() === '')) continue;
    if (!headerSkipped) {
      headerSkipped = true;
      yield { rowNumber: 0, header: true, cells };
      continue;
    }
    rowNumber += 1;
    yield { rowNumber, header: false, cells };
  }
}

const ANALYSE_BATCH = 2_000;
type TAnalysedRow = { rowNumber: number; email: string; dedupeKey: string; kind: 'unique' | 'duplicate' | 'syntax_error' };

/** The `analyse` activity: reads every row, counts syntax errors and duplicates (normalised), stores one row per data row. Idempotent. */
export async function runAnalyseJob(
  database: TDatabase,
  storage: TFileStorage,
  listId: string,
  job: Pick<TJobContext, 'reportProgress' | 'attempt'>,
  maxAttempts = 3,
): Promise<void> {
  const list = await selectListById(database.db, listId);
  if (!list || list.analysisState === 'ready') return;
  await updateList(database.db, listId, { analysisState: 'processing', activity: 'analyse', analysisError: null });
  // A retried run starts over: rows of an interrupted run are removed first.
  await deleteListEmails(database.db, listId);
  let rowNumber = 0;
  let unique = 0;
  let duplicate = 0;
  let syntaxError = 0;
  let batch: TAnalysedRow[] = [];
  let readBytes = 0;

  const flush = async () => {
    if (batch.length === 0) return;
    // Duplicates inside the batch are marked here; the statement marks those of earlier batches.
    const seen = new Set<string>();
    for (const r of batch) {
      if (r.kind !== 'unique') continue;
      if (seen.has(r.dedupeKey)) r.kind = 'duplicate';
      else seen.add(r.dedupeKey);
    }
    const counts = await insertListEmailsDeduped(database.db, listId, batch);
    unique += counts.unique;
    duplicate += counts.duplicate;
    batch = [];
  };

  const source = storage.read(list.storageKey);
  source.on('data', (chunk: Buffer) => (readBytes += chunk.length));
  try {
    for await (const numbered of numberDataRows(readRows(source, list.fileType as TUploadFileType), list.hasHeader)) {
      if (numbered.header) continue;
      rowNumber = numbered.rowNumber;
      const email = (numbered.cells[list.emailColumn] ?? '').trim().slice(0, 500);
      const parsed = email ? parseAddress(email) : null;
      if (!parsed || !parsed.ok) {
        syntaxError += 1;
        batch.push({ rowNumber, email, dedupeKey: email.toLowerCase(), kind: 'syntax_error' });
      } else {
        batch.push({ rowNumber, email, dedupeKey: normaliseForDedupe(parsed.address), kind: 'unique' });
      }
      if (batch.length >= ANALYSE_BATCH) {
        await flush();
        if (rowNumber % (ANALYSE_BATCH * 25) === 0) await job.reportProgress((readBytes / Math.max(1, list.sizeBytes)) * 100);
      }
    }
    await flush();
  } catch (err) {
    source.destroy();
    // A file that cannot be read fails the analysis at once; other errors are retried, and fail it on the last attempt.
    if (err instanceof FileParseError || job.attempt >= maxAttempts) {
      await deleteListEmails(database.db, listId);
      const message = err instanceof FileParseError ? err.message : 'The file could not be read; please upload it again';
      await updateList(database.db, listId, { analysisState: 'failed', analysisError: message, activity: null });
      return;
    }
    throw err;
  }
  await updateList(database.db, listId, {
    analysisState: 'ready',
    activity: null,
    rowCount: rowNumber,
    uniqueCount: unique,
    duplicateCount: duplicate,
    syntaxErrorCount: syntaxError,
  });
}

// ---------- lists ----------

export async function listVerifyLists(exec: TDb, ctx: TCallerContext, q: z.output<typeof ZVerifyListsRequest>): Promise<TVerifyListsData> {
  const { rows, total } = await selectLists(exec, {
    ...getVisibleScope(ctx),
    search: q.search,
    state: q.state,
    listId: q.list_id,
    sortBy: q.sort_by,
    sortOrder: q.sort_order,
    offset: (q.page - 1) * q.limit,
    limit: q.limit,
  });
  return { items: rows.map(toListView), total, page: q.page, limit: q.limit };
}

export async function getProgressStatus(exec: TDb, ctx: TCallerContext, listId: string): Promise<TProgressStatusData> {
  const row = await requireList(exec, ctx, listId);
  const view = toListView(row);
  return {
    list_id: view.id,
    state: view.state,
    activity: view.activity,
    analysis: view.analysis,
    progress: view.progress,
    verified: view.counts.verified,
    total: view.counts.unique,
    stats: view.stats,
    stopped_reason: view.stopped_reason,
  };
}

/** POST /email_verify/list/verify: checks credits for the remaining addresses, then starts the durable `verify` job. */
export async function startListVerification(
  deps: Pick<TDeps, 'database' | 'queue'>,
  ctx: TCallerContext,
  input: { list_id: string; mode?: TVerificationMode },
): Promise<TVerifyList> {
  const { database } = deps;
  const list = await requireList(database.db, ctx, input.list_id);
  if (list.analysisState !== 'ready') {
    throw new AppError(409, 'conflict', list.analysisState === 'failed' ? `The file could not be analysed: ${list.analysisError}` : 'The file is still being analysed; please wait');
  }
  if (list.state === 'in_progress') throw new AppError(409, 'conflict', 'The list is already being verified');
  const remaining = await countPendingEmails(database.db, list.id);
  if (remaining === 0) throw new AppError(409, 'conflict', 'Every address of this list is already verified');
  await assertCreditsAvailable(database.db, ctx, remaining);
  const row = await database.transaction(async (tx) => {
    const current = await selectListForUpdate(tx, list.id);
    if (!current || current.state === 'in_progress') throw new AppError(409, 'conflict', 'The list is already being verified');
    const jobId = await deps.queue.enqueue(VERIFY_JOB, { listId: list.id }, { tx, orgId: ctx.orgId, userId: ctx.userId, maxAttempts: 20, backoffMs: 2_000 });
    await updateList(tx, list.id, { state: 'in_progress', activity: 'verify', verifyJobId: jobId, stoppedReason: null, mode: input.mode ?? null });
    return (await selectListById(tx, list.id))!;
  });
  return toListView(row);
}

/**
 * Makes sure an analysed list is being verified: starts it, or — when auto-pilot has already started it, or it has
 * nothing left to verify — answers it as it is. For API callers that upload and verify in one request.
 */
export async function ensureListVerification(deps: Pick<TDeps, 'database' | 'queue'>, ctx: TCallerContext, listId: string): Promise<TVerifyList> {
  const alreadyStarted = async (): Promise<TVerifyList | null> => {
    const list = await requireList(deps.database.db, ctx, listId);
    if (list.state === 'in_progress' || list.state === 'verified') return toListView(list);
    return (await countPendingEmails(deps.database.db, list.id)) === 0 ? toListView(list) : null;
  };
  const current = await alreadyStarted();
  if (current) return current;
  try {
    return await startListVerification(deps, ctx, { list_id: listId });
  } catch (err) {
    // Auto-pilot may have started it between the look and the start.
    const started = isAppError(err) && err.httpStatus === 409 ? await alreadyStarted() : null;
    if (started) return started;
    throw err;
  }
}

/**
 * Auto-pilot: once a list is analysed, its verification starts by itself when the uploader turned auto-pilot on
 * (same credit check as list/verify; when it cannot start, the reason is kept on the list). Idempotent.
 */
export async function startAutoPilot(deps: Pick<TDeps, 'database' | 'queue'>, listId: string): Promise<void> {
  const list = await selectListById(deps.database.db, listId);
  if (!list || list.analysisState !== 'ready' || list.state !== 'non_verified' || list.verifyJobId || list.uniqueCount === 0) return;
  const prefs = await getVerifierPreferences(deps.database.db, list);
  if (!prefs.autoPilot) return;
  // The uploader's context: credits and limits are theirs (the role plays no part in starting a list).
  const ctx: TCallerContext = { userId: list.userId, orgId: list.orgId, role: 'analyst', sessionId: null, via: 'session' };
  try {
    await startListVerification(deps, ctx, { list_id: listId });
  } catch (err) {
    if (!isAppError(err)) throw err;
    await updateList(deps.database.db, listId, { stoppedReason: `Auto-pilot could not start the verification: ${err.message}` });
  }
}

/** POST /email_verify/list/cancel: stops the job; finished results stay billed, the rest is never charged. */
export async function cancelListVerification(deps: TDeps, ctx: TCallerContext, listId: string): Promise<TVerifyList> {
  const list = await requireList(deps.database.db, ctx, listId);
  if (list.state !== 'in_progress') throw new AppError(409, 'conflict', 'Only a list being verified can be cancelled');
  const moved = await deps.database.transaction(async (tx) => {
    // The row lock waits for a batch being stored; once cancelled, no further batch is stored or charged (storeBatch).
    const current = await selectListForUpdate(tx, listId);
    if (!current || current.state !== 'in_progress') return false;
    if (!(await transitionList(tx, getVisibleScope(ctx), listId, ['in_progress'], { state: 'cancelled', activity: null, stoppedReason: 'Cancelled by the user' }))) return false;
    // What the cancelled list verified and charged shows in Activities (the list owner's, and the canceller's).
    const c = { ...EMPTY_COUNTERS, ...current.counters };
    const credits = `${c.billable} credit${c.billable === 1 ? '' : 's'} charged`;
    const entry = {
      orgId: list.orgId,
      type: 'verify' as const,
      description: `Cancelled the verification of "${list.name}": ${c.verified} of ${list.uniqueCount} addresses verified, ${credits}`,
      metadata: { list_id: listId, cancelled: true, verified: c.verified, credits_charged: c.billable },
    };
    await recordActivity(tx, { ...entry, userId: list.userId });
    if (ctx.userId !== list.userId) await recordActivity(tx, { ...entry, userId: ctx.userId });
    return true;
  });
  if (!moved) throw new AppError(409, 'conflict', 'Only a list being verified can be cancelled');
  if (list.verifyJobId) await deps.queue.cancel(list.verifyJobId, ctx.orgId);
  return toListView((await selectList(deps.database.db, getVisibleScope(ctx), listId))!);
}

export async function checkListRemoval(exec: TDb, ctx: TCallerContext, listId: string): Promise<TListRemoveCheckData> {
  const list = await requireList(exec, ctx, listId);
  const busy = list.state === 'in_progress' || list.analysisState === 'processing' || list.analysisState === 'pending';
  return {
    list_id: list.id,
    can_remove: !busy,
    reason: busy ? (list.state === 'in_progress' ? 'The list is being verified; cancel it first' : 'The file is still being analysed') : null,
  };
}

export async function removeList(deps: TDeps, storage: TFileStorage, ctx: TCallerContext, listId: string): Promise<{ message: string }> {
  const check = await checkListRemoval(deps.database.db, ctx, listId);
  if (!check.can_remove) throw new AppError(409, 'conflict', check.reason ?? 'The list cannot be removed now');
  const list = await requireList(deps.database.db, ctx, listId);
  await deps.database.transaction((tx) => deleteList(tx, getVisibleScope(ctx), listId));
  await storage.remove(list.storageKey);
  return { message: 'List removed successfully' };
}

// ---------- verify job ----------

const FLUSH_SIZE = 100;
const FLUSH_MS = 1_000;
const PAGE = 500;

function addToCounters(c: TListCounters, r: TVerificationResult, billable: boolean): void {
  c.verified += 1;
  c[r.status] += 1;
  if (r.disposable) c.disposable += 1;
  if (r.gibberish) c.gibberish += 1;
  if (r.free_account) c.free_account += 1;
  if (r.role_account) c.role_account += 1;
  if (billable) c.billable += 1;
  if (r.safe_to_send === 'yes') c.safe_to_send += 1;
  if (r.status === 'valid') c.valid_score_sum += r.deliverability_score;
}

/** What a bulk row keeps of a result (everything but the transcript). */
function toStoredResult(r: TVerificationResult): Record<string, unknown> {
  const { transcript: _transcript, ...rest } = r;
  return rest;
}

type TPending = { rowNumber: number; result: TVerificationResult };

/**
 * Stores results with their charges in one transaction: a row that already has a result is skipped and never
 * charged again. Throws the ledger's 402/403 when credits run out (nothing of the batch is kept then).
 */
async function storeBatch(database: TDatabase, list: TListRow, batch: TPending[]): Promise<void> {
  await database.transaction(async (tx) => {
    const current = await selectListForUpdate(tx, list.id);
    // A cancelled (or stopped) list stores and charges nothing more: what it charged was told at the cancel.
    if (!current || current.state !== 'in_progress') return;
    const counters = { ...EMPTY_COUNTERS, ...current.counters };
    const prepared = batch.map(({ rowNumber, result }) => ({ rowNumber, result, status: result.status, billable: isBillable(result) }));
    const stored = await storeEmailResults(
      tx,
      list.id,
      prepared.map((p) => ({ rowNumber: p.rowNumber, status: p.status, billable: p.billable, result: toStoredResult(p.result) })),
    );
    for (const p of prepared) {
      if (!stored.has(p.rowNumber)) continue;
      if (p.billable) {
        await chargeCredits(tx, {
          orgId: list.orgId,
          userId: list.userId,
          amount: 1,
          reason: 'Bulk verification',
          sourceAgent: 'bulk_verify',
          objectType: 'verify_list_email',
          objectId: `${list.id}:${p.rowNumber}`,
        });
      }
      addToCounters(counters, p.result, p.billable);
    }
    await updateList(tx, list.id, { counters });
  });
}

/** The `verify` activity: verifies every unique address without a result, through verifyMany. Idempotent and resumable. */
export async function runVerifyJob(database: TDatabase, verifier: TVerifier, listId: string, job: Pick<TJobContext, 'reportProgress' | 'isCancelled'>): Promise<void> {
  const list = await selectListById(database.db, listId);
  if (!list || list.state !== 'in_progress') return;
  const prefs = await getVerifierPreferences(database.db, { userId: list.userId, orgId: list.orgId });
  const rowsByEmail = new Map<string, number>();
  let stop = false;

  async function* pending(): AsyncGenerator<string> {
    let after = 0;
    for (;;) {
      const page = await selectPendingEmails(database.db, listId, after, PAGE);
      if (page.length === 0) return;
      for (const r of page) {
        if (stop) return;
        rowsByEmail.set(r.email, r.rowNumber);
        yield r.email;
      }
      after = page[page.length - 1]!.rowNumber;
    }
  }

  const isStopped = async () => {
    if (await job.isCancelled()) return true;
    const now = await selectListById(database.db, listId);
    return !now || now.state !== 'in_progress';
  };

  let batch: TPending[] = [];
  let lastFlush = Date.now();
  let creditError: AppError | null = null;

  /** Stores a batch; when credits run out, keeps what can still be paid one by one, then stops the list. */
  const store = async (items: TPending[]) => {
    if (items.length === 0) return;
    try {
      await storeBatch(database, list, items);
    } catch (err) {
      if (!isAppError(err) || (err.httpStatus !== 402 && err.httpStatus !== 403)) throw err;
      for (const item of items) {
        try {
          await storeBatch(database, list, [item]);
        } catch (inner) {
          if (isAppError(inner) && (inner.httpStatus === 402 || inner.httpStatus === 403)) {
            creditError = inner;
            break;
          }
          throw inner;
        }
      }
      creditError ??= err;
      stop = true;
    }
  };

  // One store runs in the background while the engine keeps verifying (at most one in flight).
  let storing: Promise<void> = Promise.resolve();
  let storeError: unknown = null;
  const storeInBackground = (items: TPending[]) => {
    storing = storing.then(async () => {
      if (stop || storeError) return;
      try {
        await store(items);
      } catch (err) {
        storeError = err;
        stop = true;
      }
    });
  };

  const mode = (list.mode as TVerificationMode | null) ?? prefs.mode;
  try {
    for await (const result of verifier.verifyMany(pending(), { mode, gibberishThreshold: prefs.gibberishThreshold, wbList: prefs.wbList })) {
      const rowNumber = rowsByEmail.get(result.email);
      if (rowNumber === undefined) continue;
      rowsByEmail.delete(result.email);
      batch.push({ rowNumber, result });
      if (batch.length >= FLUSH_SIZE || Date.now() - lastFlush >= FLUSH_MS) {
        await storing;
        if (stop) break;
        if (await isStopped()) {
          // Cancelled: what was stored before the cancel stays billed; the rest is dropped, never charged.
          stop = true;
          break;
        }
        const items = batch;
        batch = [];
        lastFlush = Date.now();
        storeInBackground(items);
        const now = await selectListById(database.db, listId);
        if (now) await job.reportProgress(computeProgress(now));
      }
    }
  } finally {
    await storing;
  }
  if (storeError) throw storeError;
  if (!stop && !(await isStopped())) await store(batch);

  const failure = creditError as AppError | null;
  if (failure) {
    await updateList(database.db, listId, { state: 'non_verified', activity: null, stoppedReason: failure.message });
    return;
  }
  await finishListIfDone(database, listId);
}

/** Marks the list verified once nothing is pending, and records `email_verifier.bulk.completed` in the same transaction. */
async function finishListIfDone(database: TDatabase, listId: string): Promise<void> {
  const remaining = await countPendingEmails(database.db, listId);
  if (remaining > 0) return;
  await database.transaction(async (tx) => {
    const list = await selectListForUpdate(tx, listId);
    if (!list || list.state !== 'in_progress') return;
    await updateList(tx, listId, { state: 'verified', activity: null, verifiedAt: new Date(), stoppedReason: null });
    const done = (await selectListById(tx, listId))!;
    await recordActivity(tx, {
      orgId: list.orgId,
      userId: list.userId,
      type: 'verify',
      description: `Verified the list "${list.name}" (${list.uniqueCount} addresses)`,
      metadata: { list_id: listId },
    });
    await recordEvent(tx, {
      orgId: list.orgId,
      userId: list.userId,
      type: EMAIL_VERIFIER_EVENTS.bulkCompleted,
      payload: { list_id: listId, name: list.name, stats: computeStats(done), verified_at: done.verifiedAt?.toISOString() ?? null },
    });
  });
}

// ---------- export support (used by downloads) ----------

/** A list of the caller's organisation for an export (404 otherwise). */
export async function getListForExport(exec: TDb, ctx: Pick<TCallerContext, 'orgId'> & Partial<Pick<TCallerContext, 'userId' | 'role'>>, listId: string) {
  const list = await requireList(exec, ctx, listId);
  return {
    id: list.id,
    name: list.name,
    fileName: list.fileName,
    fileType: list.fileType as TUploadFileType,
    storageKey: list.storageKey,
    analysisState: list.analysisState,
    state: list.state,
    hasHeader: list.hasHeader,
    emailColumn: list.emailColumn,
  };
}

export type TExportRow = {
  row_number: number;
  email: string;
  duplicate: boolean;
  syntax_error: boolean;
  status: string | null;
  result: Record<string, unknown> | null;
};

/** Every row of a list in file order, with results (duplicates carry their first occurrence's result). */
export async function* iterateListRows(exec: TDb, listId: string): AsyncGenerator<TExportRow> {
  let after = 0;
  for (;;) {
    const page = await selectListRowsPage(exec, listId, after, 2_000);
    if (page.length === 0) return;
    for (const r of page) {
      yield { row_number: r.row_number, email: r.email, duplicate: r.kind === 'duplicate', syntax_error: r.kind === 'syntax_error', status: r.status, result: r.result };
    }
    after = page[page.length - 1]!.row_number;
  }
}

// ---------- instant ----------

function toInstantView(row: { id: string; result: Record<string, unknown>; billable: boolean; creditsCharged: number }): TInstantVerifyData {
  const result = row.result as unknown as TVerificationResult;
  return { ...result, id: row.id, billable: row.billable, credits_charged: row.creditsCharged, safe_to_send_until: addHours(result.verified_on, SAFE_TO_SEND_WINDOW_HOURS) };
}

/** POST /email_verify/instant: verifies, stores the result, charges (valid/invalid/catch_all) and records the event, in one transaction. */
export type TInstantOptions = {
  /**
   * Cancels the call (a caller's timeout). Until the charge begins, a cancelled call rejects with the signal's reason and
   * stores and charges nothing; once the charge has begun it completes, and the result is answered.
   */
  signal?: AbortSignal;
  /** Runs inside the charging transaction with the credits charged (an API app's usage and credit limit); throwing undoes the charge. */
  onCharge?: (tx: TDb, creditsCharged: number) => Promise<void>;
};

/** Rejects with the signal's reason as soon as it aborts, else settles as `work` does. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

export async function verifyInstant(
  database: TDatabase,
  verifier: TVerifier,
  ctx: TCallerContext,
  email: string,
  options: TInstantOptions = {},
): Promise<TInstantVerifyData> {
  const { signal } = options;
  await assertCreditsAvailable(database.db, ctx, 1);
  const prefs = await getVerifierPreferences(database.db, ctx);
  const verifying = verifier.verify(email, { ...prefs, signal });
  verifying.catch(() => undefined); // a cancelled verification's own rejection is not this call's answer
  const result = await untilAborted(verifying, signal);
  if (signal?.aborted) throw signal.reason;
  const billable = isBillable(result);
  const row = await database.transaction(async (tx) => {
    const inserted = await insertInstant(tx, {
      orgId: ctx.orgId,
      userId: ctx.userId,
      email: result.email,
      status: result.status,
      source: ctx.via === 'session' ? 'app' : 'api',
      result: result as unknown as Record<string, unknown>,
      billable,
      creditsCharged: billable ? 1 : 0,
    });
    if (billable) {
      await chargeCredits(tx, {
        orgId: ctx.orgId,
        userId: ctx.userId,
        amount: 1,
        reason: 'Instant verification',
        sourceAgent: 'instant_verify',
        objectType: 'instant_verification',
        objectId: inserted.id,
      });
    }
    await options.onCharge?.(tx, billable ? 1 : 0);
    await recordEvent(tx, {
      orgId: ctx.orgId,
      userId: ctx.userId,
      type: EMAIL_VERIFIER_EVENTS.instantCompleted,
      payload: { id: inserted.id, email: result.email, status: result.status, reason: result.reason.code, safe_to_send: result.safe_to_send },
    });
    return inserted;
  });
  return toInstantView(row);
}

export async function listRecentInstant(exec: TDb, ctx: TCallerContext, limit: number, source?: TInstantSource): Promise<TRecentInstantData> {
  const rows = await selectRecentInstant(exec, { orgId: ctx.orgId, userId: ctx.userId, limit, source });
  return { items: rows.map(toInstantView) };
}

/** POST /public/verify: no account, nothing stored or charged (the route is rate-limited per IP). */
export async function verifyPublic(verifier: TVerifier, email: string): Promise<TPublicVerifyData> {
  const result = await verifier.verify(email, { mode: 'fastest_turnaround' });
  return { ...result, safe_to_send_until: addHours(result.verified_on, SAFE_TO_SEND_WINDOW_HOURS) };
}

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
