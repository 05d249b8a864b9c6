import type { TDatabase } from '../../platform/db/database';
import type { TMaintenanceTask } from '../../platform/jobs/maintenance';
import type { TFileStorage } from '../../platform/storage/storage';
import {
  deleteListResults,
  eraseBounces,
  markBounceReportFileDeleted,
  markExportFileDeleted,
  markListFileDeleted,
  rollUpExpiredInstantResults,
  selectExpiredBounceReportFiles,
  selectExpiredBounces,
  selectExpiredExportFiles,
  selectExpiredListFiles,
  selectExpiredListResults,
} from './queries';

/** The clock of data retention: tests move it instead of the wall clock. */
export type TClock = () => Date;
export const systemClock: TClock = () => new Date();

export type TRetentionResult = { listFiles: number; exportFiles: number; bounceReportFiles: number; listResults: number; instantResults: number; bounces: number };

/**
 * Applies every organisation's retention at `now`: uploaded list files and prepared exports older than its file
 * retention are removed from storage (the list remembers `file_deleted_at`, the download reads `expired`); list results
 * and instant results older than its result retention are deleted, the lists keeping their counters and the instant
 * results living on as quarter-hour aggregates, so analytics figures do not change. Uploaded bounce reports' files go
 * with the file retention (the report keeps its figures), bounces' addresses with the result retention (eraseBounces:
 * a bounce a settled credit-back claim hangs on stays without its address, one a pending claim hangs on waits for its
 * re-check). Idempotent; batches of `batch`.
 */
export async function applyDataRetention(database: TDatabase, storage: TFileStorage, now: Date, batch = 200): Promise<TRetentionResult> {
  const out: TRetentionResult = { listFiles: 0, exportFiles: 0, bounceReportFiles: 0, listResults: 0, instantResults: 0, bounces: 0 };
  for (;;) {
    const files = await selectExpiredListFiles(database.db, now, batch);
    for (const f of files) {
      await storage.remove(f.storage_key);
      await markListFileDeleted(database.db, f.kind, f.id, now);
      out.listFiles += 1;
    }
    if (files.length < batch) break;
  }
  for (;;) {
    const exports = await selectExpiredExportFiles(database.db, now, batch);
    for (const d of exports) {
      // An `input` download points at its list's upload, which the list's own retention removes.
      if (d.kind !== 'input') await storage.remove(d.storage_key);
      await markExportFileDeleted(database.db, d.id, now);
      out.exportFiles += 1;
    }
    if (exports.length < batch) break;
  }
  for (;;) {
    const reports = await selectExpiredBounceReportFiles(database.db, now, batch);
    for (const r of reports) {
      await storage.remove(r.storage_key);
      await markBounceReportFileDeleted(database.db, r.id, now);
      out.bounceReportFiles += 1;
    }
    if (reports.length < batch) break;
  }
  for (;;) {
    const lists = await selectExpiredListResults(database.db, now, batch);
    for (const l of lists) {
      await database.transaction((tx) => deleteListResults(tx, l.id, now));
      out.listResults += 1;
    }
    if (lists.length < batch) break;
  }
  out.instantResults = await database.transaction((tx) => rollUpExpiredInstantResults(tx, now));
  for (;;) {
    const ids = await selectExpiredBounces(database.db, now, batch);
    await database.transaction((tx) => eraseBounces(tx, ids));
    out.bounces += ids.length;
    if (ids.length < batch) break;
  }
  return out;
}

/** The maintenance task (`JOB_MAINTENANCE_CRON`): retention at the clock's time. */
export function createRetentionMaintenance(opts: { database: TDatabase; storage: TFileStorage; clock?: TClock }): TMaintenanceTask {
  const clock = opts.clock ?? systemClock;
  return { name: 'dataRetention', run: () => applyDataRetention(opts.database, opts.storage, clock()) };
}
