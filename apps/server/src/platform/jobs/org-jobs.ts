import type { TDb } from '../db/database';
import { deleteArchivedJobsOf, deleteQueuedJobsOf, isJobSchemaInstalled, makePausedJobsDue } from './org-job-queries';
import { JOB_PAUSED_MESSAGE } from './jobs';

/**
 * Deletes an organisation's jobs from the queue's own tables (`pgboss.job` and `pgboss.archive`: payloads, results and
 * errors), found through their `job_status` rows, which the caller deletes with the organisation's other rows.
 * Answers how many jobs went. A job already running finishes on a row that no longer exists, which pg-boss ignores.
 */
export async function deleteOrganisationJobs(exec: TDb, orgId: string): Promise<number> {
  if (!(await isJobSchemaInstalled(exec))) return 0;
  const jobs = await deleteQueuedJobsOf(exec, orgId);
  const archived = await deleteArchivedJobsOf(exec, orgId);
  return jobs + archived;
}

/**
 * An operator restored an organisation or a user: their jobs paused for the suspension (pg-boss-worker.ts) are due at
 * once instead of at their next look. Answers how many.
 */
export async function resumePausedJobs(exec: TDb, owner: { orgId: string } | { userId: string }): Promise<number> {
  if (!(await isJobSchemaInstalled(exec))) return 0;
  return makePausedJobsDue(exec, owner, JOB_PAUSED_MESSAGE);
}
