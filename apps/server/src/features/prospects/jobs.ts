import { z } from 'zod';
import { defineSourceChainJobs } from '../../platform/bulk-lists/source-chain';
import type { TDeps } from '../../platform/deps';
import type { TJobDefinition } from '../../platform/jobs/jobs';
import { ENRICH_CHUNK_JOB, runEnrichChunk } from './enrich';

/** The prospect feature's durable job: one chunk of a list enrichment (each chunk enqueues the next), a source chain on the bulk-list kernel. */
export function createProspectJobs(deps: TDeps): TJobDefinition[] {
  return defineSourceChainJobs({
    queue: 'finder',
    jobs: [
      {
        name: ENRICH_CHUNK_JOB,
        payload: z.object({ requestId: z.uuid() }),
        maxAttempts: 10,
        backoffMs: 2_000,
        run: (p: { requestId: string }, ctx) => runEnrichChunk(deps.database, deps.verifier, { queue: deps.queue }, p.requestId, ctx),
      },
    ],
  });
}
