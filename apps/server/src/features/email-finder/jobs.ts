import { z } from 'zod';
import type { TConfig } from '../../config';
import type { TDatabase } from '../../platform/db/database';
import { defineJob, type TJobDefinition } from '../../platform/jobs/jobs';
import { getVerifier, type TVerifier } from '../../platform/verifier/verifier';
import { FIND_EMAILS_JOB, INSTANT_JOB, runFindEmailsJob, runInstantJob } from './service';

/** The finder's durable jobs: `instant` (a search that outlived its request) and `find_emails` (a bulk list). */
export function createEmailFinderJobs(opts: { database: TDatabase; config: TConfig; verifier?: TVerifier; concurrency?: number }): TJobDefinition[] {
  const verifier = opts.verifier ?? getVerifier(opts.config);
  return [
    defineJob({
      name: INSTANT_JOB,
      queue: 'finder',
      payload: z.object({ findId: z.uuid() }),
      maxAttempts: 3,
      backoffMs: 5_000,
      handler: (p) => runInstantJob(opts.database, verifier, p.findId),
    }),
    defineJob({
      name: FIND_EMAILS_JOB,
      queue: 'finder',
      payload: z.object({ listId: z.uuid() }),
      maxAttempts: 20,
      backoffMs: 2_000,
      handler: (p, ctx) => runFindEmailsJob(opts.database, verifier, p.listId, ctx, { concurrency: opts.concurrency }),
    }),
  ] as unknown as TJobDefinition[];
}
