import { z } from 'zod';
import { defineJob, type TJobDefinition, type TJobQueue } from './jobs';

export const MAINTENANCE_JOB = 'maintenance.run';

/** One housekeeping step of a feature (e.g. deleting expired files); answers what it did, for the job's result. */
export type TMaintenanceTask = { name: string; run(): Promise<unknown> };

/**
 * The periodic maintenance job (on the `maintenance` queue, scheduled by the worker with config.jobs.maintenanceCron):
 * the job system's own housekeeping (abandoned jobs retried or failed within their cap, finished jobs archived
 * then deleted, status rows of deleted jobs removed), then every feature's task. Idempotent.
 */
export function createMaintenanceJob(opts: { queue: TJobQueue; tasks: TMaintenanceTask[] }): TJobDefinition {
  return defineJob({
    name: MAINTENANCE_JOB,
    queue: 'maintenance',
    payload: z.object({}),
    maxAttempts: 1,
    handler: async () => {
      const result: Record<string, unknown> = { jobs: await opts.queue.maintain() };
      for (const task of opts.tasks) result[task.name] = await task.run();
      return result;
    },
  }) as unknown as TJobDefinition;
}
