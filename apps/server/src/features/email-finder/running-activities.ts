import { toRunningListJob } from '../../platform/bulk-lists/list-views';
import type { TDb } from '../../platform/db/database';
import type { TRunningJobActivity } from '../activities';
import { toListView } from './list-view';
import { selectRunningLists } from './queries';

/** The member's finder list jobs still queued or running (reading the file, then the search), read from the list rows. */
export async function listRunningJobActivities(exec: TDb, who: { orgId: string; userId: string }): Promise<TRunningJobActivity[]> {
  const rows = await selectRunningLists(exec, who);
  return rows.map((row) => {
    const view = toListView(row);
    return toRunningListJob(row, {
      feature: 'email_finder',
      // Reading the file is queued until its job stores the first rows.
      analysis: row.activity === 'analyse' ? (row.hasRows ? 'in_progress' : 'queued') : null,
      analyseKey: 'finder-analyse',
      work: 'find_emails',
      label: `The finder list "${row.name}"`,
      size: `${view.counts.searchable} people`,
      progress: () => view.progress,
      done: { processed: view.counts.processed },
    });
  });
}
