import { z } from 'zod';
import type { TConfig } from '../../config';
import type { TDatabase } from '../../platform/db/database';
import { defineJob, type TJobDefinition } from '../../platform/jobs/jobs';
import { getStorage, type TFileStorage } from '../../platform/storage/storage';
import { runExportJob } from './export-job';
import type { TExportSources } from './export-source';
import { EXPORT_JOB } from './service';

/** The `export` activity: prepares result and activity files, and the kinds of file `sources` reads for other features. */
export function createDownloadJobs(opts: { database: TDatabase; config: TConfig; sources: TExportSources; storage?: TFileStorage }): TJobDefinition[] {
  const storage = opts.storage ?? getStorage(opts.config);
  return [
    defineJob({
      name: EXPORT_JOB,
      queue: 'exports',
      payload: z.object({ downloadId: z.uuid() }),
      maxAttempts: 3,
      handler: (p, ctx) => runExportJob(opts.database, storage, opts.sources, p.downloadId, ctx),
    }),
  ] as unknown as TJobDefinition[];
}
