import { z } from 'zod';
import type { TDeps } from '../../platform/deps';
import { defineJob, type TJobDefinition } from '../../platform/jobs/jobs';
import { defineListWorkJobs } from '../../platform/bulk-lists/list-jobs';
import { FINDER_ANALYSE_JOB, runFinderAnalyseJob } from './list-upload';
import { FIND_CHUNK_JOB, FIND_EMAILS_JOB, planFindChunks, runFindChunk } from './find-list-job';
import { INSTANT_JOB, runInstantJob } from './instant-find';

/**
 * The finder's durable jobs: `instant` (a search that outlived its request), `analyse` (read an uploaded list's
 * rows), `find_emails` (plan a started list into chunks) and `find_chunk` (search one chunk's rows).
 */
export function createEmailFinderJobs(opts: TDeps & { concurrency?: number }): TJobDefinition[] {
  const { storage, verifier } = opts;
  const deps = () => ({ database: opts.database, queue: opts.queue });
  return [
    defineJob({
      name: FINDER_ANALYSE_JOB,
      queue: 'analysis',
      payload: z.object({ listId: z.uuid(), autoStart: z.boolean().default(false) }),
      maxAttempts: 3,
      handler: (p, ctx) => runFinderAnalyseJob(deps(), storage, p, ctx),
    }),
    defineJob({
      name: INSTANT_JOB,
      queue: 'finder',
      payload: z.object({ findId: z.uuid() }),
      maxAttempts: 3,
      backoffMs: 5_000,
      handler: (p) => runInstantJob(opts.database, verifier, p.findId),
    }),
    ...defineListWorkJobs({
      queue: 'finder',
      plan: {
        name: FIND_EMAILS_JOB,
        // People search slower than addresses verify: a finder chunk is a quarter of a verifier chunk.
        run: (listId, ctx) => planFindChunks({ ...deps(), chunkSize: Math.max(10, Math.floor(opts.config.jobs.chunkSize / 4)) }, listId, ctx.jobId),
      },
      chunk: { name: FIND_CHUNK_JOB, run: (chunk, ctx) => runFindChunk(deps(), verifier, chunk, ctx, { concurrency: opts.concurrency }) },
    }),
  ] as unknown as TJobDefinition[];
}
