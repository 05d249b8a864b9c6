import { z } from 'zod';
import { defineSourceChainJobs } from '../../platform/bulk-lists/source-chain';
import type { TDeps } from '../../platform/deps';
import { defineJob, type TJobDefinition } from '../../platform/jobs/jobs';
import { POLL_NEW_CONTACTS_JOB, runNewContactsPoll, runRunWriteBack, RUN_WRITE_BACK_JOB } from './list-sync';
import { ADVANCE_JOB, IMPORT_FINISH_JOB, IMPORT_PAGE_JOB, runAdvance, runImportFinish, runImportPage, runWriteBack, WRITE_BACK_CHUNK, WRITE_BACK_JOB, type TIntegrationRuntime } from './service';

/**
 * The integration jobs, one chunk each, declared as a source chain on the bulk-list kernel: a page of an import, the
 * finish (the members become a verifier list), the watcher that starts the verification and then the write-back, and
 * a chunk of the write-back.
 */
export function createIntegrationJobs(opts: TDeps & { runtime?: Partial<TIntegrationRuntime> }): TJobDefinition[] {
  const rt: TIntegrationRuntime = { config: opts.config, storage: opts.storage, standIns: opts.standIns, ...opts.runtime };
  const deps = () => ({ database: opts.database, queue: opts.queue });
  const ZImport = z.object({ importId: z.uuid() });
  const ZPage = ZImport.extend({ page: z.number().int().min(0) });
  const ZWriteBack = ZImport.extend({ afterSeq: z.number().int().min(0), written: z.array(z.string()).max(WRITE_BACK_CHUNK).optional() });
  const retry = { backoffMs: 2_000 } as const;
  const chain = defineSourceChainJobs({
    queue: 'integrations',
    jobs: [
      { name: IMPORT_PAGE_JOB, payload: ZPage, maxAttempts: 8, ...retry, run: (p: z.output<typeof ZPage>, ctx) => runImportPage(deps(), rt, p, ctx) },
      { name: IMPORT_FINISH_JOB, payload: ZImport, maxAttempts: 5, ...retry, run: (p: z.output<typeof ZImport>) => runImportFinish(deps(), rt, p) },
      { name: ADVANCE_JOB, payload: ZImport, maxAttempts: 8, ...retry, run: (p: z.output<typeof ZImport>, ctx) => runAdvance(deps(), rt, p, ctx) },
      { name: WRITE_BACK_JOB, payload: ZWriteBack, maxAttempts: 8, ...retry, run: (p: z.output<typeof ZWriteBack>, ctx) => runWriteBack(deps(), rt, p, ctx) },
    ],
  });
  return [
    ...chain,
    // A platform list kept in sync (list-sync.ts): a page of a poll for new contacts, a chunk of a run's write-back.
    defineJob({
      name: POLL_NEW_CONTACTS_JOB,
      queue: 'integrations',
      payload: ZImport.extend({ cursor: z.string().max(10_000).nullable() }),
      maxAttempts: 5,
      backoffMs: 5_000,
      pausesWhileSuspended: true,
      handler: (p, ctx) => runNewContactsPoll({ ...deps(), clock: opts.clock }, rt, p, ctx),
    }),
    defineJob({
      name: RUN_WRITE_BACK_JOB,
      queue: 'integrations',
      payload: ZImport.extend({ runId: z.uuid(), afterRow: z.number().int().min(0) }),
      maxAttempts: 8,
      backoffMs: 2_000,
      pausesWhileSuspended: true,
      handler: (p) => runRunWriteBack(deps(), rt, p),
    }),
  ] as unknown as TJobDefinition[];
}
