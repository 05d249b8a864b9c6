import { randomUUID } from 'node:crypto';
import type { TListSource } from '@verilead/contracts';
import {
  ZBulkUploadFields,
  type TCheckDuplicateData,
  type TUploadFileType,
  type TUploadPreviewData,
  type TVerifyList,
} from '@verilead/contracts';
import type { TDb } from '../../platform/db/database';
import type { TDeps } from '../../platform/deps';
import { readStoredHead, storeCappedUpload, type TUploadPart } from '../../platform/bulk/upload';
import { duplicateFileAnswer } from '../../platform/bulk-lists/list-views';
import { parseUploadFields } from '../../platform/bulk-lists/upload-part';
import { AppError } from '../../platform/errors/app-error';
import type { TFileStorage } from '../../platform/storage/storage';
import { getVisibleScope, type TCallerContext } from '../../platform/tenancy/context';
import { checkFileHead, detectFileType, FileParseError, inspectRows, readRows } from './file-parsing';
import { EMPTY_COUNTERS, selectListNamesStartingWith, selectRecentListByContent, verifyListStore } from './queries';
import { toListView } from './list-view';
import { ANALYSE_JOB } from './analyse-list-job';

export type { TUploadPart };

function throwBadFile(message: string, field = 'file'): never {
  throw new AppError('validation_failed', message, { reasons: [{ field, location: 'body', messages: [message] }] });
}

/** Checks a stored upload and reads its first rows: detection of header and e-mail column, or a FileParseError. */
async function inspectStoredFile(
  storage: TFileStorage,
  key: string,
  opts: { fileName: string; fileType: TUploadFileType; emailColumn?: number; hasHeader?: boolean },
): Promise<TUploadPreviewData> {
  checkFileHead(await readStoredHead(storage, key, 65_536), opts.fileType);
  const stream = storage.read(key);
  try {
    return await inspectRows(readRows(stream, opts.fileType), opts);
  } finally {
    stream.destroy();
  }
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
  const fields = parseUploadFields(ZBulkUploadFields, part.fields);
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

/** How long a retried API upload of the same file (same caller, name and bytes) answers the list it made. */
export const UPLOAD_RETRY_WINDOW_HOURS = 24;

/** POST /email_verify/bulk_upload: stores the file, creates the list and starts the `analyse` job. */
export async function uploadList(
  deps: TDeps,
  storage: TFileStorage,
  ctx: TCallerContext,
  part: TUploadPart,
  opts: { reuseRetried?: boolean; appId?: string } = {},
): Promise<TVerifyList> {
  const fields = parseUploadFields(ZBulkUploadFields, part.fields);
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
      const list = await verifyListStore.insert(tx, {
        id: listId,
        orgId: ctx.orgId,
        userId: ctx.userId,
        appId: opts.appId ?? null,
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
  input: { listId: string; name: string; fileName: string; source: TListSource; storageKey: string; sizeBytes: number },
): Promise<void> {
  await deps.database.transaction(async (tx) => {
    if (await verifyListStore.selectById(tx, input.listId)) return;
    await verifyListStore.insert(tx, {
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

export async function checkDuplicateFileName(exec: TDb, ctx: TCallerContext, fileName: string): Promise<TCheckDuplicateData> {
  const lists = await verifyListStore.selectByFileName(exec, getVisibleScope(ctx), { fileName: fileName.trim(), anyCase: true, limit: 10 });
  return { ...duplicateFileAnswer(fileName.trim(), lists), suggested_name: await uniqueListName(exec, ctx, listNameOfFile(fileName.trim())) };
}
