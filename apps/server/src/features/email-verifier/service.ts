import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  EMAIL_VERIFIER_EVENTS,
  SAFE_TO_SEND_WINDOW_HOURS,
  ZBulkUploadFields,
  type TCheckDuplicateData,
  type TInstantSource,
  type TInstantVerifyData,
  type TListRemoveCheckData,
  type TProgressStatusData,
  type TPublicVerifyData,
  type TRecentInstantData,
  type TUploadFileType,
  type TUploadPreviewData,
  type TVerificationMode,
  type TVerificationResult,
  type TVerifyList,
  type TVerifyListsData,
  type ZVerifyListsRequest,
} from '@verilead/contracts';
import { normaliseForDedupe, parseAddress } from '@verilead/verifier';
import type { z } from 'zod';
import { chargeCredits } from '../../platform/credits/ledger';
import type { TDatabase, TDb } from '../../platform/db/database';
import type { TDeps } from '../../platform/deps';
import { SeenKeys } from '../../platform/bulk/seen-keys';
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
  selectRecentInstant,
  transitionList,
  updateList,
  type TListRow,
} from './queries';
import { isBillable, toListView } from './list-view';
import { VERIFY_CHUNK_JOB, VERIFY_JOB } from './verify-list-job';
import { selectVerificationSummary } from './queries';
import { readSummaryRows } from '../../platform/db/summary-rows';
import type { TVerifierUsageStats } from '@verilead/contracts';

export const ANALYSE_JOB = 'email_verifier.analyse';

function addHours(iso: string, hours: number): string {
  const t = Date.parse(iso);
  return new Date((Number.isNaN(t) ? Date.now() : t) + hours * 3_600_000).toISOString();
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

/**
 * A list whose CSV another feature wrote to storage (an integration import): created with its source and analysed
 * by the same `analyse` job as an upload. Idempotent by `listId` (a retried job finds the list it made).
 */
export async function createSourcedList(
  deps: Pick<TDeps, 'database' | 'queue'>,
  ctx: Pick<TCallerContext, 'orgId' | 'userId'>,
  input: { listId: string; name: string; fileName: string; source: string; storageKey: string; sizeBytes: number },
): Promise<void> {
  await deps.database.transaction(async (tx) => {
    if (await selectListById(tx, input.listId)) return;
    await insertList(tx, {
      id: input.listId,
      orgId: ctx.orgId,
      userId: ctx.userId,
      name: await uniqueListName(tx, ctx, input.name.slice(0, LIST_NAME_MAX)),
      fileName: input.fileName.slice(0, 255),
      fileType: 'csv',
      source: input.source,
      storageKey: input.storageKey,
      sizeBytes: input.sizeBytes,
      emailColumn: 0,
      hasHeader: true,
      state: 'non_verified',
      activity: 'analyse',
      analysisState: 'pending',
      counters: { ...EMPTY_COUNTERS },
    });
    await deps.queue.enqueue(ANALYSE_JOB, { listId: input.listId }, { tx, orgId: ctx.orgId, userId: ctx.userId });
  });
}

/** A page of a list's rows by row number, with results (duplicates carry their first occurrence's result). */
export async function readListRowsPage(exec: TDb, listId: string, afterRow: number, limit: number): Promise<TExportRow[]> {
  const page = await selectListRowsPage(exec, listId, afterRow, limit);
  return page.map((r) => ({ row_number: r.row_number, email: r.email, duplicate: r.kind === 'duplicate', syntax_error: r.kind === 'syntax_error', status: r.status, result: r.result }));
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

const ANALYSE_BATCH = 5_000;
/** `first_seen`: a unique row whose key no earlier batch had for sure (inserted as unique without a lookup). */
type TAnalysedRow = { rowNumber: number; email: string; dedupeKey: string; kind: 'unique' | 'first_seen' | 'duplicate' | 'syntax_error' };

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
  // Keys of earlier batches, 4 bytes each: only a row whose key may have come before is looked up in the database.
  const earlier = new SeenKeys(1 << 16);

  const flush = async () => {
    if (batch.length === 0) return;
    // Duplicates inside the batch are marked here; the statement checks the possible ones of earlier batches.
    const seen = new Set<string>();
    for (const r of batch) {
      if (r.kind !== 'unique') continue;
      if (seen.has(r.dedupeKey)) r.kind = 'duplicate';
      else seen.add(r.dedupeKey);
    }
    for (const r of batch) if (r.kind === 'unique' && earlier.add(r.dedupeKey)) r.kind = 'first_seen';
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
  // Chunks not yet taken are dropped now; running ones stop at their next look at the list (about a second).
  await deps.queue.cancelWhere(VERIFY_CHUNK_JOB, { listId });
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
    const page = await readListRowsPage(exec, listId, after, 2_000);
    if (page.length === 0) return;
    yield* page;
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
