import { Readable } from 'node:stream';
import { DOWNLOAD_RETENTION_DAYS } from '@verilead/contracts';
import type { TDatabase } from '../../platform/db/database';
import type { TJobContext } from '../../platform/jobs/jobs';
import { notifyCompletion } from '../../platform/jobs/completion';
import type { TFileStorage } from '../../platform/storage/storage';
import { recordActivity } from '../activities';
import { activityExportContent } from './activity-export';
import { writeCsv, writeXlsx } from './file-writers';
import { listExportContent } from './list-export';
import type { TExportSources } from './export-source';
import { selectDownloadById, updateDownload, type TDownloadRow } from './queries';

const DAY_MS = 86_400_000;

/** The kinds downloads reads itself: a verifier list's files and the activity log. */
const OWN_SOURCES: TExportSources = { input: listExportContent, result: listExportContent, activities: activityExportContent };

/** The export job: writes the file to storage and marks the download success (idempotent: a rerun rewrites it). */
export async function runExportJob(
  database: TDatabase,
  storage: TFileStorage,
  sources: TExportSources,
  downloadId: string,
  job: Pick<TJobContext, 'reportProgress'> & Partial<Pick<TJobContext, 'attempt' | 'maxAttempts'>>,
): Promise<void> {
  const d = await selectDownloadById(database.db, downloadId);
  if (!d || (d.state !== 'queued' && d.state !== 'processing')) return;
  try {
    await writeExport(database, storage, sources, d);
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

async function writeExport(database: TDatabase, storage: TFileStorage, sources: TExportSources, d: TDownloadRow): Promise<void> {
  await updateDownload(database.db, d.id, { state: 'processing', progress: 0 });
  const key = `downloads/${d.orgId}/${d.id}.${d.fileType}`;
  const counter = { rows: 0 };
  const source = OWN_SOURCES[d.kind] ?? sources[d.kind];
  if (!source) throw new Error(`No export source for downloads of kind ${d.kind}`);
  const content = await source(database.db, storage, d, counter);
  if (!content) {
    await updateDownload(database.db, d.id, { state: 'cancelled', error: 'The list was removed' });
    await notifyCompletion(database, `download:${d.id}`);
    return;
  }
  // The owner's export of everything the organisation holds is JSON lines, written as they are read.
  const stream: Readable = 'lines' in content ? Readable.from(content.lines) : d.fileType === 'xlsx' ? writeXlsx(content.rows) : writeCsv(content.rows);
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
