import { type TUploadFileType } from '@verilead/contracts';
import { notifyCompletion } from '../../platform/jobs/completion';
import { normaliseForDedupe, parseAddress } from '@verilead/verifier';
import type { TDatabase } from '../../platform/db/database';
import { SeenKeys } from '../../platform/bulk/seen-keys';
import type { TJobContext } from '../../platform/jobs/jobs';
import type { TFileStorage } from '../../platform/storage/storage';
import { FileParseError, readRowBatches } from './file-parsing';
import { deleteListEmails, insertListEmails, markListDuplicates, verifyListStore } from './queries';
import { recordActivity } from '../activities';

export const ANALYSE_JOB = 'email_verifier.analyse';

/** A row of an uploaded file as the analysis numbers it: blank rows are skipped, the header row (if any) is row 0, data rows count from 1. */
export type TNumberedRow = { rowNumber: number; header: boolean; cells: string[] };

/**
 * Numbers the rows of an uploaded file, one row at a time: null for a blank row (skipped), 0 for the header row (if
 * any), data rows from 1. The one numbering the analysis stores and the exports read back.
 */
export function createRowNumbering(hasHeader: boolean): (cells: string[]) => number | null {
  let headerSkipped = !hasHeader;
  let rowNumber = 0;
  return (cells) => {
    if (cells.every((c) => c.trim() === '')) return null;
    if (!headerSkipped) {
      headerSkipped = true;
      return 0;
    }
    rowNumber += 1;
    return rowNumber;
  };
}

/** The rows of an uploaded file with their numbers (createRowNumbering), blank rows left out. */
export async function* numberDataRows(rows: AsyncIterable<string[]>, hasHeader: boolean): AsyncGenerator<TNumberedRow> {
  const numberOf = createRowNumbering(hasHeader);
  for await (const cells of rows) {
    const rowNumber = numberOf(cells);
    if (rowNumber !== null) yield { rowNumber, header: rowNumber === 0, cells };
  }
}

const ANALYSE_BATCH = 5_000;
type TAnalysedRow = { rowNumber: number; email: string; dedupeKey: string; syntaxError: boolean };

/**
 * The `analyse` activity: reads every row, stores one row per data row (syntax errors marked), then marks the
 * duplicates (normalised keys) in one statement. Idempotent.
 *
 * Duplicates: a 4-byte hash of every key seen so far (and the row it was first seen on) tells, for each row, whether
 * its key is new for sure; the rows that may repeat an earlier key (true repeats and rare hash collisions) and the
 * first rows of their hashes are kept, and once the whole file is stored one statement ranks those rows only, by
 * key, so no index on the keys is kept up while a million rows are inserted.
 */
export async function runAnalyseJob(
  database: TDatabase,
  storage: TFileStorage,
  listId: string,
  job: Pick<TJobContext, 'reportProgress' | 'attempt'>,
  maxAttempts = 3,
): Promise<void> {
  const list = await verifyListStore.selectById(database.db, listId);
  if (!list || list.analysisState === 'ready') return;
  await verifyListStore.update(database.db, listId, { analysisState: 'processing', activity: 'analyse', analysisError: null });
  // A retried run starts over: rows of an interrupted run are removed first.
  await deleteListEmails(database.db, listId);
  let rowNumber = 0;
  let syntaxError = 0;
  let duplicate = 0;
  let batch: TAnalysedRow[] = [];
  let readBytes = 0;
  let flushes = 0;
  const seen = new SeenKeys(1 << 16, { rows: true });
  // The rows whose key may repeat an earlier one, and the first row of each such key's hash.
  const mayRepeat: number[] = [];
  const firstRows = new Set<number>();

  // One batch is stored while the next is read and parsed (on PostgreSQL the two run on separate cores).
  let storing: Promise<void> = Promise.resolve();
  const flush = async () => {
    await storing;
    if (batch.length === 0) return;
    const rows = batch;
    batch = [];
    const stored = insertListEmails(database.db, listId, rows);
    // Kept handled until the next flush awaits it: a failed insert surfaces there (or at the final flush).
    stored.catch(() => undefined);
    storing = stored;
  };

  const source = storage.read(list.storageKey);
  source.on('data', (chunk: Buffer) => (readBytes += chunk.length));
  try {
    const numberOf = createRowNumbering(list.hasHeader);
    for await (const rows of readRowBatches(source, list.fileType as TUploadFileType)) {
      for (const cells of rows) {
        const n = numberOf(cells);
        if (!n) continue; // a blank row, or the header
        rowNumber = n;
        const email = (cells[list.emailColumn] ?? '').trim().slice(0, 500);
        const parsed = email ? parseAddress(email) : null;
        if (!parsed || !parsed.ok) {
          syntaxError += 1;
          batch.push({ rowNumber, email, dedupeKey: email.toLowerCase(), syntaxError: true });
        } else {
          const dedupeKey = normaliseForDedupe(parsed.address);
          const first = seen.addRow(dedupeKey, rowNumber);
          if (first) {
            mayRepeat.push(rowNumber);
            firstRows.add(first);
          }
          batch.push({ rowNumber, email, dedupeKey, syntaxError: false });
        }
      }
      if (batch.length >= ANALYSE_BATCH) {
        await flush();
        if (++flushes % 25 === 0) await job.reportProgress((readBytes / Math.max(1, list.sizeBytes)) * 100);
      }
    }
    await flush();
    await storing;
    duplicate = await markListDuplicates(database.db, listId, [...firstRows, ...mayRepeat]);
  } catch (err) {
    source.destroy();
    await storing.catch(() => undefined);
    // A file that cannot be read fails the analysis at once; other errors are retried, and fail it on the last attempt.
    if (err instanceof FileParseError || job.attempt >= maxAttempts) {
      await deleteListEmails(database.db, listId);
      const message = err instanceof FileParseError ? err.message : 'The file could not be read; please upload it again';
      await database.transaction(async (tx) => {
        await verifyListStore.update(tx, listId, { analysisState: 'failed', analysisError: message, activity: null });
        await recordActivity(tx, { orgId: list.orgId, userId: list.userId, type: 'failed', description: `Analysing the list "${list.name}" failed: ${message}`, metadata: { job: 'analyse', list_id: listId } });
      });
      await notifyCompletion(database, `verify_list:${listId}`);
      return;
    }
    throw err;
  }
  await database.transaction(async (tx) => {
    await verifyListStore.update(tx, listId, {
      analysisState: 'ready',
      activity: null,
      rowCount: rowNumber,
      uniqueCount: rowNumber - syntaxError - duplicate,
      duplicateCount: duplicate,
      syntaxErrorCount: syntaxError,
    });
    await recordActivity(tx, {
      orgId: list.orgId,
      userId: list.userId,
      type: 'analyse',
      description: `Analysed the list "${list.name}": ${rowNumber} rows, ${rowNumber - syntaxError - duplicate} unique addresses`,
      metadata: { list_id: listId, file_name: list.fileName, rows: rowNumber, unique: rowNumber - syntaxError - duplicate },
    });
  });
  // A /v2 bulk upload waits for this analysis (waitForCompletion).
  await notifyCompletion(database, `verify_list:${listId}`);
}
