import { randomUUID } from 'node:crypto';
import { ZFinderUploadFields, type TFinderColumnMapping, type TFinderList } from '@verilead/contracts';
import { checkFileHead, detectFileType, FileParseError, readRows } from '../../platform/bulk/file-parsing';
import { SeenKeys } from '../../platform/bulk/seen-keys';
import { readStoredHead, storeCappedUpload, type TUploadPart } from '../../platform/bulk/upload';
import { parseUploadFields } from '../../platform/bulk-lists/upload-part';
import type { TDatabase } from '../../platform/db/database';
import type { TDeps } from '../../platform/deps';
import { isAppError } from '../../platform/errors/app-error';
import type { TJobContext, TJobQueue } from '../../platform/jobs/jobs';
import type { TFileStorage } from '../../platform/storage/storage';
import type { TCallerContext } from '../../platform/tenancy/context';
import { recordActivity } from '../activities';
import { foldName, splitFullName, type TPersonName } from './candidates';
import { deleteListRows, EMPTY_FINDER_COUNTERS, finderListStore, insertListRows, selectFirstRowsOfPeople, type TFinderRowInsert } from './queries';
import { readDomainInput } from './search';
import { DUPLICATE_STATUS } from './finder-downloads';
import { badRequest } from './finder-support';
import { startFindEmails } from './list-lifecycle';
import { toListView } from './list-view';

/**
 * A finder list's upload and analysis: the request stores the file and checks its head and first rows (mapping,
 * columns); the `analyse` job then reads every row in batches, outside any long transaction, and marks repeats.
 */
export const FINDER_ANALYSE_JOB = 'email_finder.analyse';

/** Rows read in the request to check the mapping before answering. */
const SAMPLE_ROWS = 50;
const INSERT_BATCH = 1_000;

/** Reads one data row with the mapping: a searchable person, or the reason it is skipped. */
function readPersonRow(cells: string[], m: TFinderColumnMapping): Omit<TFinderRowInsert, 'listId' | 'rowNumber' | 'cells'> {
  const cell = (i: number | null) => (i === null ? '' : (cells[i] ?? '').trim().slice(0, 200));
  const name: TPersonName = m.first_name !== null ? { first: cell(m.first_name), middle: cell(m.middle_name) || null, last: cell(m.last_name) } : splitFullName(cell(m.full_name));
  const base = { firstName: name.first, middleName: name.middle, lastName: name.last, domain: '' };
  if (!name.first || !name.last) return { ...base, skipReason: 'Missing first or last name' };
  const raw = cell(m.domain) || cell(m.company);
  if (!raw) return { ...base, skipReason: 'Missing domain or company' };
  const read = readDomainInput(raw);
  if ('error' in read) return { ...base, skipReason: read.error };
  if ('company' in read) return { ...base, skipReason: 'Company names need the companies directory, which is not available; give a domain' };
  return { ...base, domain: read.domain, skipReason: null };
}

/** One person of a list: the folded first, middle and last name and the domain. */
function makePersonKey(p: { firstName?: string; middleName?: string | null; lastName?: string; domain?: string }): string {
  return [foldName(p.firstName ?? ''), foldName(p.middleName ?? ''), foldName(p.lastName ?? ''), p.domain ?? ''].join('|');
}

type TMappingCheck = { width: number; dataRows: number; searchable: number; complete: boolean };

/** The first rows of the stored file, read with the mapping (the request's checks). */
async function sampleRows(storage: TFileStorage, key: string, fileType: 'csv' | 'xlsx', hasHeader: boolean, mapping: TFinderColumnMapping): Promise<TMappingCheck> {
  const source = storage.read(key);
  let headerSeen = !hasHeader;
  const check: TMappingCheck = { width: 0, dataRows: 0, searchable: 0, complete: true };
  try {
    for await (const cells of readRows(source, fileType)) {
      if (cells.every((c) => c.trim() === '')) continue;
      check.width = Math.max(check.width, cells.length);
      if (!headerSeen) {
        headerSeen = true;
        continue;
      }
      if (check.dataRows === SAMPLE_ROWS) {
        check.complete = false;
        break;
      }
      check.dataRows += 1;
      if (!readPersonRow(cells, mapping).skipReason) check.searchable += 1;
    }
  } finally {
    source.destroy();
  }
  return check;
}

/** Why a whole file cannot be searched (null when it can). */
function emptyFileReason(hasHeader: boolean, dataRows: number, searchable: number): string | null {
  if (dataRows === 0) return hasHeader ? 'The file has a header but no data rows' : 'The file has no rows';
  if (searchable === 0) return 'No row has both a name and a valid domain with this column mapping';
  return null;
}

/**
 * POST /email_finder/bulk_upload: stores the file (≤ 20,000,000 bytes), checks its head and first rows against the
 * column mapping, creates the list and enqueues its analysis. `autoStart` starts the search once the file is read
 * (the public API's upload-and-find).
 */
export async function uploadFinderList(
  deps: Pick<TDeps, 'database' | 'queue'>,
  storage: TFileStorage,
  ctx: TCallerContext,
  part: TUploadPart,
  opts: { autoStart?: boolean; appId?: string } = {},
): Promise<TFinderList> {
  const fields = parseUploadFields(ZFinderUploadFields, part.fields);
  const fileType = detectFileType(part.filename);
  if (fileType !== 'csv' && fileType !== 'xlsx') {
    part.file.resume();
    badRequest('file', 'Please upload a .csv or .xlsx file');
  }
  const listId = randomUUID();
  const key = `uploads/${ctx.orgId}/finder-${listId}`;
  const { size } = await storeCappedUpload(storage, key, part);
  const mapping: TFinderColumnMapping = {
    first_name: fields.first_name_column ?? null,
    last_name: fields.last_name_column ?? null,
    middle_name: fields.middle_name_column ?? null,
    full_name: fields.full_name_column ?? null,
    domain: fields.domain_column ?? null,
    company: fields.company_column ?? null,
  };
  const hasHeader = fields.has_header ?? true;
  const name = fields.list_name ?? part.filename.replace(/\.(csv|xlsx)$/i, '').slice(0, 200);
  try {
    if (size === 0) throw new FileParseError('The file is empty');
    checkFileHead(await readStoredHead(storage, key, 65_536), fileType);
    const sample = await sampleRows(storage, key, fileType, hasHeader, mapping);
    for (const [field, col] of Object.entries(mapping) as [string, number | null][]) {
      if (col !== null && col >= sample.width) badRequest(`${field}_column`, `Column ${col + 1} does not exist: the file has ${sample.width} column(s)`);
    }
    // A file read whole by the sample is refused at once; a longer one is judged by its analysis.
    const reason = sample.complete || sample.dataRows === 0 ? emptyFileReason(hasHeader, sample.dataRows, sample.searchable) : null;
    if (reason) throw new FileParseError(reason);
    const row = await deps.database.transaction(async (tx) => {
      await finderListStore.insert(tx, {
        id: listId,
        orgId: ctx.orgId,
        userId: ctx.userId,
        appId: opts.appId ?? null,
        name,
        fileName: part.filename.slice(0, 255),
        fileType,
        storageKey: key,
        sizeBytes: size,
        hasHeader,
        header: [],
        mapping,
        state: 'not_processed',
        activity: 'analyse',
        counters: { ...EMPTY_FINDER_COUNTERS },
      });
      await deps.queue.enqueue(FINDER_ANALYSE_JOB, { listId, autoStart: opts.autoStart ?? false }, { tx, orgId: ctx.orgId, userId: ctx.userId, maxAttempts: 3 });
      return (await finderListStore.selectById(tx, listId))!;
    });
    return toListView(row);
  } catch (err) {
    await storage.remove(key);
    if (err instanceof FileParseError) badRequest('file', err.message);
    throw err;
  }
}

/**
 * The `analyse` job: reads every row with the mapping and stores it in batches (repeats of a person point at the
 * first row), then the list is ready to search. A retried run starts over; a file that cannot be searched leaves the
 * list not processed with the reason.
 */
export async function runFinderAnalyseJob(
  deps: { database: TDatabase; queue: TJobQueue },
  storage: TFileStorage,
  payload: { listId: string; autoStart: boolean },
  job: Pick<TJobContext, 'attempt' | 'maxAttempts'>,
): Promise<void> {
  const { database } = deps;
  const list = await finderListStore.selectById(database.db, payload.listId);
  if (!list || list.activity !== 'analyse') return;
  const listId = list.id;
  await deleteListRows(database.db, listId);
  let header: string[] = [];
  let headerSeen = !list.hasHeader;
  let rowNumber = 0;
  let searchable = 0;
  let skipped = 0;
  let batch: TFinderRowInsert[] = [];
  // Repeats of a person point at the person's first row. Keys of earlier batches live in a 4-byte-a-key hash set;
  // only keys it may have seen are looked up in the database, so memory stays flat however long the file is.
  const earlier = new SeenKeys(1 << 16);
  let firstInBatch = new Map<string, number>();
  let maybeEarlier = new Set<string>();
  const flush = async () => {
    if (maybeEarlier.size > 0) {
      const stored = await selectFirstRowsOfPeople(database.db, listId, [...maybeEarlier]);
      for (const row of batch) {
        const first = row.personKey ? stored.get(row.personKey) : undefined;
        if (first === undefined) continue;
        if (row.status !== DUPLICATE_STATUS) searchable -= 1;
        Object.assign(row, { status: DUPLICATE_STATUS, result: { duplicate_of: first }, billable: false });
      }
    }
    await insertListRows(database.db, batch);
    batch = [];
    firstInBatch = new Map();
    maybeEarlier = new Set();
  };
  const mapping = list.mapping as TFinderColumnMapping;
  const fail = async (message: string) => {
    await deleteListRows(database.db, listId);
    await database.transaction(async (tx) => {
      await finderListStore.update(tx, listId, { activity: null, stoppedReason: message, rowCount: 0, searchableCount: 0, skippedCount: 0 });
      await recordActivity(tx, { orgId: list.orgId, userId: list.userId, type: 'failed', description: `Reading the finder list "${list.name}" failed: ${message}`, metadata: { job: 'analyse', list_id: listId } });
    });
  };
  const source = storage.read(list.storageKey);
  try {
    for await (const cells of readRows(source, list.fileType as 'csv' | 'xlsx')) {
      if (cells.every((c) => c.trim() === '')) continue;
      if (!headerSeen) {
        headerSeen = true;
        header = cells.map((c) => c.trim());
        continue;
      }
      rowNumber += 1;
      const person = readPersonRow(cells, mapping);
      const row: TFinderRowInsert = { listId, rowNumber, cells: cells.map((c) => c.slice(0, 1_000)), ...person };
      if (person.skipReason) skipped += 1;
      else {
        // The same person twice (same normalised name and domain) is searched once: later rows point at the first.
        const key = makePersonKey(person);
        row.personKey = key;
        const first = firstInBatch.get(key);
        if (first === undefined) {
          firstInBatch.set(key, rowNumber);
          if (!earlier.add(key)) maybeEarlier.add(key);
          searchable += 1;
        } else Object.assign(row, { status: DUPLICATE_STATUS, result: { duplicate_of: first }, billable: false });
      }
      batch.push(row);
      if (batch.length >= INSERT_BATCH) await flush();
    }
    await flush();
  } catch (err) {
    if (err instanceof FileParseError || job.attempt >= job.maxAttempts) {
      await fail(err instanceof FileParseError ? err.message : 'The file could not be read; please upload it again');
      return;
    }
    throw err;
  } finally {
    source.destroy();
  }
  const reason = emptyFileReason(list.hasHeader, rowNumber, searchable);
  if (reason) {
    await fail(reason);
    return;
  }
  // Cancelled while it was read: the rows stay (a later start resumes), nothing starts now.
  const cancelled = (await finderListStore.selectById(database.db, listId))?.state === 'cancelled';
  await database.transaction(async (tx) => {
    await finderListStore.update(tx, listId, { header, rowCount: rowNumber, searchableCount: searchable, skippedCount: skipped, activity: null, ...(cancelled ? {} : { stoppedReason: null }) });
    await recordActivity(tx, {
      orgId: list.orgId,
      userId: list.userId,
      type: 'analyse',
      description: `Read the finder list "${list.name}": ${rowNumber} rows, ${searchable} people to search`,
      metadata: { feature: 'email_finder', list_id: listId, file_name: list.fileName, rows: rowNumber, searchable },
    });
  });
  if (!payload.autoStart || cancelled) return;
  // The uploader's context: credits are theirs (the role plays no part in starting a list).
  const ctx: TCallerContext = { userId: list.userId, orgId: list.orgId, role: 'analyst', sessionId: null, via: 'api_key' };
  try {
    await startFindEmails(deps, ctx, listId);
  } catch (err) {
    if (!isAppError(err)) throw err;
    await finderListStore.update(database.db, listId, { stoppedReason: `The search could not start: ${err.message}` });
  }
}
