import type { TDb } from '../../platform/db/database';
import type { TRunningJobActivity } from '../activities';
import { toListView } from './list-view';
import { selectRunningLists } from './queries';

/** The member's list jobs still queued or running (analysis, then verification), read from the list rows. */
export async function listRunningJobActivities(exec: TDb, who: { orgId: string; userId: string }): Promise<TRunningJobActivity[]> {
  const rows = await selectRunningLists(exec, who);
  return rows.map((row): TRunningJobActivity => {
    const metadata = { feature: 'email_verifier', list_id: row.id, file_name: row.fileName };
    if (row.analysisState === 'pending' || row.analysisState === 'processing') {
      const running = row.analysisState === 'processing';
      return { key: `analyse:${row.id}`, type: 'analyse', status: running ? 'in_progress' : 'queued', progress: null, description: `The list "${row.name}"`, metadata, since: row.updatedAt };
    }
    // A started verification is queued until its plan job has split it into chunks; then it runs, with its progress.
    const planned = row.verifyJobId !== null && row.plannedJobId === row.verifyJobId;
    const view = toListView(row);
    return {
      key: `verify:${row.id}`,
      type: 'verify',
      status: planned ? 'in_progress' : 'queued',
      progress: planned ? view.progress : null,
      description: `The list "${row.name}" (${view.counts.unique} addresses)`,
      metadata: { ...metadata, verified: view.counts.verified },
      since: row.updatedAt,
    };
  });
}
