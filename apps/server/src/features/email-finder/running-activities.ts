import type { TDb } from '../../platform/db/database';
import type { TRunningJobActivity } from '../activities';
import { toListView } from './list-view';
import { selectRunningLists } from './queries';

/** The member's finder list jobs still queued or running (reading the file, then the search), read from the list rows. */
export async function listRunningJobActivities(exec: TDb, who: { orgId: string; userId: string }): Promise<TRunningJobActivity[]> {
  const rows = await selectRunningLists(exec, who);
  return rows.map((row): TRunningJobActivity => {
    const metadata = { feature: 'email_finder', list_id: row.id, file_name: row.fileName };
    // Reading the file is queued until its job stores the first rows.
    if (row.activity === 'analyse') {
      return { key: `finder-analyse:${row.id}`, type: 'analyse', status: row.hasRows ? 'in_progress' : 'queued', progress: null, description: `The finder list "${row.name}"`, metadata, since: row.updatedAt };
    }
    // A started search is queued until its plan job has split it into chunks; then it runs, with its progress.
    const planned = row.jobId !== null && row.plannedJobId === row.jobId;
    const view = toListView(row);
    return {
      key: `find_emails:${row.id}`,
      type: 'find_emails',
      status: planned ? 'in_progress' : 'queued',
      progress: planned ? view.progress : null,
      description: `The finder list "${row.name}" (${view.counts.searchable} people)`,
      metadata: { ...metadata, processed: view.counts.processed },
      since: row.updatedAt,
    };
  });
}
