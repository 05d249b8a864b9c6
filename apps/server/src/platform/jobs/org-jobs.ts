import type { TDb } from '../db/database';
import { deleteArchivedJobsOf, deleteQueuedJobsOf, isJobSchemaInstalled } from './org-job-queries';

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
