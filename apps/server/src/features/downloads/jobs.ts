import { z } from 'zod';
import type { TDeps } from '../../platform/deps';
import { defineJob, type TJobDefinition } from '../../platform/jobs/jobs';
import { runExportJob } from './export-job';
import type { TExportSources } from './export-source';
import { EXPORT_JOB } from './service';

/** The `export` activity: prepares result and activity files, and the kinds of file `sources` reads for other features. */
export function createDownloadJobs(deps: Pick<TDeps, 'database' | 'storage'> & { sources: TExportSources }): TJobDefinition[] {
  return [
    defineJob({
      name: EXPORT_JOB,
      queue: 'exports',
      payload: z.object({ downloadId: z.uuid() }),
      maxAttempts: 3,
      handler: (p, ctx) => runExportJob(deps.database, deps.storage, deps.sources, p.downloadId, ctx),
    }),
  ] as unknown as TJobDefinition[];
}
