import { z } from 'zod';
import type { TDeps } from '../../platform/deps';
import { defineJob, type TJobDefinition } from '../../platform/jobs/jobs';
import { ADVANCE_JOB, IMPORT_FINISH_JOB, IMPORT_PAGE_JOB, runAdvance, runImportFinish, runImportPage, runWriteBack, WRITE_BACK_CHUNK, WRITE_BACK_JOB, type TIntegrationRuntime } from './service';

/**
 * The integration jobs, one chunk each: a page of an import, the finish (the members become a verifier list),
 * the watcher that starts the verification and then the write-back, and a chunk of the write-back.
 */
export function createIntegrationJobs(opts: TDeps & { runtime?: Partial<TIntegrationRuntime> }): TJobDefinition[] {
  const rt: TIntegrationRuntime = { config: opts.config, storage: opts.storage, standIns: opts.standIns, ...opts.runtime };
  const deps = () => ({ database: opts.database, queue: opts.queue });
  const ZImport = z.object({ importId: z.uuid() });
  return [
    defineJob({
      name: IMPORT_PAGE_JOB,
      queue: 'integrations',
      payload: ZImport.extend({ page: z.number().int().min(0) }),
      maxAttempts: 8,
      backoffMs: 2_000,
      handler: (p, ctx) => runImportPage(deps(), rt, p, ctx),
    }),
    defineJob({ name: IMPORT_FINISH_JOB, queue: 'integrations', payload: ZImport, maxAttempts: 5, backoffMs: 2_000, handler: (p) => runImportFinish(deps(), rt, p) }),
    defineJob({ name: ADVANCE_JOB, queue: 'integrations', payload: ZImport, maxAttempts: 8, backoffMs: 2_000, handler: (p, ctx) => runAdvance(deps(), rt, p, ctx) }),
    defineJob({
      name: WRITE_BACK_JOB,
      queue: 'integrations',
      payload: ZImport.extend({ afterSeq: z.number().int().min(0), written: z.array(z.string()).max(WRITE_BACK_CHUNK).optional() }),
      maxAttempts: 8,
      backoffMs: 2_000,
      handler: (p, ctx) => runWriteBack(deps(), rt, p, ctx),
    }),
  ] as unknown as TJobDefinition[];
}
