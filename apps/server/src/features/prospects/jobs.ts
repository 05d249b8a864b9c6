import { z } from 'zod';
import type { TDeps } from '../../platform/deps';
import { defineJob, type TJobDefinition } from '../../platform/jobs/jobs';
import { ENRICH_CHUNK_JOB, runEnrichChunk } from './enrich';

/** The prospect feature's durable job: one chunk of a list enrichment (each chunk enqueues the next). */
export function createProspectJobs(deps: TDeps): TJobDefinition[] {
  return [
    defineJob({
      name: ENRICH_CHUNK_JOB,
      queue: 'finder',
      payload: z.object({ requestId: z.uuid() }),
      maxAttempts: 10,
      backoffMs: 2_000,
      handler: (p, ctx) => runEnrichChunk(deps.database, deps.verifier, { queue: deps.queue }, p.requestId, ctx),
    }),
  ] as unknown as TJobDefinition[];
}
