import { z } from 'zod';
import type { TDeps } from '../../platform/deps';
import { defineJob, type TJobDefinition } from '../../platform/jobs/jobs';
import { defineListWorkJobs } from '../../platform/bulk-lists/list-jobs';
import { ANALYSE_JOB, runAnalyseJob } from './analyse-list-job';
import { startAutoPilot } from './list-lifecycle';
import { planVerifyChunks, runVerifyChunk, VERIFY_CHUNK_JOB, VERIFY_JOB } from './verify-list-job';
import { runGreylistRecheck, ZRecheckPayload } from './greylist-recheck-job';
import { GREYLIST_RECHECK_JOB } from './store-results';
import { REVERIFY_RUN_JOB, runReverify, type TReverifyHooks } from './reverify-run-job';

const ZListJobPayload = z.object({ listId: z.uuid() });

/**
 * The verifier's durable jobs: `analyse` (read and count the file; then auto-pilot may start the list), `verify`
 * (plan a started list into chunk jobs), `verify_chunk` (verify, store and charge one chunk's rows; any worker
 * takes any chunk) `greylist_recheck` (re-verify the rows whose greylist wait is over) and `reverify_run` (a list kept verified). They read the queue from the dependency record when they run, to enqueue follow-up work.
 */
export function createEmailVerifierJobs(opts: TDeps, hooks: TReverifyHooks = {}): TJobDefinition[] {
  const { storage, verifier } = opts;
  const deps = () => ({ database: opts.database, queue: opts.queue });
  return [
    defineJob({
      name: ANALYSE_JOB,
      queue: 'analysis',
      payload: ZListJobPayload,
      maxAttempts: 3,
      handler: async (p, ctx) => {
        await runAnalyseJob(opts.database, storage, p.listId, ctx);
        await startAutoPilot(deps(), p.listId);
      },
    }),
    ...defineListWorkJobs({
      queue: 'verification',
      plan: { name: VERIFY_JOB, run: (listId, ctx) => planVerifyChunks({ ...deps(), chunkSize: opts.config.jobs.chunkSize }, listId, ctx.jobId) },
      chunk: { name: VERIFY_CHUNK_JOB, run: (chunk, ctx) => runVerifyChunk(deps(), verifier, chunk, ctx) },
    }),
    defineJob({
      name: GREYLIST_RECHECK_JOB,
      queue: 'verification',
      payload: ZRecheckPayload,
      maxAttempts: 20,
      backoffMs: 2_000,
      pausesWhileSuspended: true,
      handler: (p, ctx) => runGreylistRecheck(deps(), verifier, p, ctx),
    }),
    // A run of a list that stays verified (reverify-run-job.ts): `afterRun` is the composition root's (a platform list's write-back).
    defineJob({
      name: REVERIFY_RUN_JOB,
      queue: 'verification',
      payload: z.object({ runId: z.uuid() }),
      maxAttempts: 5,
      backoffMs: 5_000,
      pausesWhileSuspended: true,
      handler: (p, ctx) => runReverify({ ...deps(), clock: opts.clock }, verifier, hooks, p.runId, ctx),
    }),
  ] as unknown as TJobDefinition[];
}
