import { type TUploadFileType } from '@verilead/contracts';
import { notifyCompletion } from '../../platform/jobs/completion';
import { normaliseForDedupe, parseAddress } from '@verilead/verifier';
import type { TDatabase } from '../../platform/db/database';
import { SeenKeys } from '../../platform/bulk/seen-keys';
import type { TJobContext } from '../../platform/jobs/jobs';
import type { TFileStorage } from '../../platform/storage/storage';
import { FileParseError, readRows } from './file-parsing';
import { deleteListEmails, insertListEmailsDeduped, selectListById, updateList } from './queries';
import { recordActivity } from '../activities/service';

export const ANALYSE_JOB = 'email_verifier.analyse';

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

  // One batch is stored while the next is read and parsed (on PostgreSQL the two run on separate cores). A batch is
  // sent only once the one before it is stored, so its duplicate look-ups see every earlier row.
  let storing: Promise<void> = Promise.resolve();
  const flush = async () => {
    await storing;
    if (batch.length === 0) return;
    const rows = batch;
    batch = [];
    // Duplicates inside the batch are marked here; the statement checks the possible ones of earlier batches.
    const seen = new Set<string>();
    for (const r of rows) {
      if (r.kind !== 'unique') continue;
      if (seen.has(r.dedupeKey)) r.kind = 'duplicate';
      else seen.add(r.dedupeKey);
    }
    for (const r of rows) if (r.kind === 'unique' && earlier.add(r.dedupeKey)) r.kind = 'first_seen';
    const stored = insertListEmailsDeduped(database.db, listId, rows).then((counts) => {
      unique += counts.unique;
      duplicate += counts.duplicate;
    });
    // Kept handled until the next flush awaits it: a failed insert surfaces there (or at the final flush).
    stored.catch(() => undefined);
    storing = stored;
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
    await storing;
  } catch (err) {
    source.destroy();
    await storing.catch(() => undefined);
    // A file that cannot be read fails the analysis at once; other errors are retried, and fail it on the last attempt.
    if (err instanceof FileParseError || job.attempt >= maxAttempts) {
      await deleteListEmails(database.db, listId);
      const message = err instanceof FileParseError ? err.message : 'The file could not be read; please upload it again';
      await database.transaction(async (tx) => {
        await updateList(tx, listId, { analysisState: 'failed', analysisError: message, activity: null });
        await recordActivity(tx, { orgId: list.orgId, userId: list.userId, type: 'failed', description: `Analysing the list "${list.name}" failed: ${message}`, metadata: { job: 'analyse', list_id: listId } });
      });
      await notifyCompletion(database, `verify_list:${listId}`);
      return;
    }
    throw err;
  }
  await database.transaction(async (tx) => {
    await updateList(tx, listId, {
      analysisState: 'ready',
      activity: null,
      rowCount: rowNumber,
      uniqueCount: unique,
      duplicateCount: duplicate,
      syntaxErrorCount: syntaxError,
    });
    await recordActivity(tx, {
      orgId: list.orgId,
      userId: list.userId,
      type: 'analyse',
      description: `Analysed the list "${list.name}": ${rowNumber} rows, ${unique} unique addresses`,
      metadata: { list_id: listId, file_name: list.fileName, rows: rowNumber, unique },
    });
  });
  // A /v2 bulk upload waits for this analysis (waitForCompletion).
  await notifyCompletion(database, `verify_list:${listId}`);
}
