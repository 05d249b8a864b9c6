import { z } from 'zod';
import type { TConfig } from '../../config';
import type { TDatabase } from '../../platform/db/database';
import { defineJob, type TJobDefinition, type TJobQueue } from '../../platform/jobs/jobs';
import { getVerifier, type TVerifier } from '../../platform/verifier/verifier';
import { ENRICH_CHUNK_JOB, runEnrichChunk } from './enrich';

/** The prospect feature's durable job: one chunk of a list enrichment (each chunk enqueues the next). */
export function createProspectJobs(opts: { database: TDatabase; config: TConfig; getQueue: () => TJobQueue; verifier?: TVerifier }): TJobDefinition[] {
  const verifier = opts.verifier ?? getVerifier(opts.config);
  return [
    defineJob({
      name: ENRICH_CHUNK_JOB,
      queue: 'finder',
      payload: z.object({ requestId: z.uuid() }),
      maxAttempts: 10,
      backoffMs: 2_000,
      handler: (p, ctx) => runEnrichChunk(opts.database, verifier, { queue: opts.getQueue() }, p.requestId, ctx),
    }),
  ] as unknown as TJobDefinition[];
}
