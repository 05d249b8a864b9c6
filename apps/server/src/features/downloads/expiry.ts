import type { TDatabase } from '../../platform/db/database';
import type { TMaintenanceTask } from '../../platform/jobs/maintenance';
import type { TFileStorage } from '../../platform/storage/storage';
import { clearDownloadFile, selectExpiredDownloadFiles } from './queries';

/**
 * Deletes the prepared files of downloads whose retention time is over (their state reads `expired` from then on)
 * and forgets their storage key. An `input` download points at its list's upload, which stays. Answers how many files it removed. Safe to run twice at once: a file already gone
 * is ignored.
 */
export async function deleteExpiredDownloadFiles(database: TDatabase, storage: TFileStorage, now = new Date(), batch = 500): Promise<number> {
  let removed = 0;
  for (;;) {
    const due = await selectExpiredDownloadFiles(database.db, now, batch);
    for (const d of due) {
      if (d.storageKey) await storage.remove(d.storageKey);
      await clearDownloadFile(database.db, d.id);
      removed += 1;
    }
    if (due.length < batch) return removed;
  }
}

export function createDownloadMaintenance(opts: { database: TDatabase; storage: TFileStorage }): TMaintenanceTask {
  return { name: 'expiredDownloadFiles', run: () => deleteExpiredDownloadFiles(opts.database, opts.storage) };
}
