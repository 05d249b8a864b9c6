import { z } from 'zod';
import type { TConfig } from '../../config';
import type { TDatabase } from '../../platform/db/database';
import { defineJob, type TJobDefinition, type TJobQueue } from '../../platform/jobs/jobs';
import { getStorage, type TFileStorage } from '../../platform/storage/storage';
import { getVerifier, type TVerifier } from '../../platform/verifier/verifier';
import { ANALYSE_JOB, runAnalyseJob, runVerifyJob, startAutoPilot, VERIFY_JOB } from './service';

const ZListJobPayload = z.object({ listId: z.uuid() });

/**
 * The verifier's durable jobs: `analyse` (read and count the file; then auto-pilot may start the list) and `verify`
 * (verify and charge every address). `getQueue` lets auto-pilot enqueue the verification.
 */
export function createEmailVerifierJobs(opts: {
  database: TDatabase;
  config: TConfig;
  verifier?: TVerifier;
  storage?: TFileStorage;
  getQueue?: () => TJobQueue;
}): TJobDefinition[] {
  const storage = opts.storage ?? getStorage(opts.config);
  const verifier = opts.verifier ?? getVerifier(opts.config);
  return [
    defineJob({
      name: ANALYSE_JOB,
      queue: 'analysis',
      payload: ZListJobPayload,
      maxAttempts: 3,
      handler: async (p, ctx) => {
        await runAnalyseJob(opts.database, storage, p.listId, ctx);
        if (opts.getQueue) await startAutoPilot({ database: opts.database, queue: opts.getQueue() }, p.listId);
      },
    }),
    defineJob({
      name: VERIFY_JOB,
      queue: 'verification',
      payload: ZListJobPayload,
      maxAttempts: 20,
      backoffMs: 2_000,
      handler: (p, ctx) => runVerifyJob(opts.database, verifier, p.listId, ctx),
    }),
  ] as unknown as TJobDefinition[];
}
