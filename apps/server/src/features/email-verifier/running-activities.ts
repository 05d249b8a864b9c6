import { toRunningListJob } from '../../platform/bulk-lists/list-views';
import type { TDb } from '../../platform/db/database';
import type { TRunningJobActivity } from '../activities';
import { toListView } from './list-view';
import { selectRunningLists } from './queries';

/** The member's list jobs still queued or running (analysis, then verification), read from the list rows. */
export async function listRunningJobActivities(exec: TDb, who: { orgId: string; userId: string }): Promise<TRunningJobActivity[]> {
  const rows = await selectRunningLists(exec, who);
  return rows.map((row) => {
    const view = toListView(row);
    const analysing = row.analysisState === 'pending' || row.analysisState === 'processing';
    return toRunningListJob(row, {
      feature: 'email_verifier',
      analysis: analysing ? (row.analysisState === 'processing' ? 'in_progress' : 'queued') : null,
      analyseKey: 'analyse',
      work: 'verify',
      label: `The list "${row.name}"`,
      size: `${view.counts.unique} addresses`,
      progress: () => view.progress,
      done: { verified: view.counts.verified },
    });
  });
}
