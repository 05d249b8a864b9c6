import { loadConfig, type TJobQueueName, type TJobQueueConfig, type TJobsConfig } from '../config';
import type { TDatabase } from '../platform/db/database';
import type { TJobDefinition, TJobQueue } from '../platform/jobs/jobs';
import { createJobQueue } from '../platform/jobs/pg-boss-queue';

/** The default job settings (no environment), with some queues changed. */
export function testJobsConfig(queues: Partial<Record<TJobQueueName, Partial<TJobQueueConfig>>> = {}): TJobsConfig {
  const base = loadConfig({}, { appSecret: 'test-secret' }).jobs;
  const merged = { ...base.queues };
  for (const [name, q] of Object.entries(queues) as [TJobQueueName, Partial<TJobQueueConfig>][]) merged[name] = { ...merged[name], ...q };
  return { ...base, queues: merged };
}

/** A worker (job queue) on `database` running `definitions`: what a separate worker process would be. */
export function createTestQueue(
  database: TDatabase,
  definitions: TJobDefinition[],
  opts: { queues?: Parameters<typeof testJobsConfig>[0]; pollIntervalMs?: number } = {},
): TJobQueue {
  return createJobQueue({ database, definitions, jobs: testJobsConfig(opts.queues), pollIntervalMs: opts.pollIntervalMs ?? 50 });
}
