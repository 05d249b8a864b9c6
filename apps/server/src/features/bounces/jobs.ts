import { z } from 'zod';
import type { TDeps } from '../../platform/deps';
import { defineJob, type TJobDefinition } from '../../platform/jobs/jobs';
import { CONFIRM_CREDIT_BACKS_JOB, confirmCreditBacks } from './confirm-credit-backs';

/** The guarantee's re-checks: on the verification queue (they talk SMTP, as the bulk verifier does). */
export function createBounceJobs(deps: Pick<TDeps, 'database' | 'verifier' | 'queue' | 'clock'>): TJobDefinition[] {
  return [
    defineJob({
      name: CONFIRM_CREDIT_BACKS_JOB,
      queue: 'verification',
      payload: z.object({ orgId: z.uuid() }),
      maxAttempts: 3,
      backoffMs: 60_000,
      handler: async ({ orgId }) => confirmCreditBacks(deps, orgId),
    }),
  ];
}
