// The activity screen's aggregator: it reads the running jobs every feature keeps and puts them above the history the
// activities feature records. It sits at the top (it imports the list products); the recorder stays at the bottom.
import type { TActivitiesData, TActivity, ZActivitiesRequest } from '@verilead/contracts';
import type { z } from 'zod';
import type { TDb } from '../../platform/db/database';
import type { TCallerContext } from '../../platform/tenancy/context';
import { listRunningJobActivities as listDownloadJobs } from '../downloads';
import { listRunningJobActivities as listFinderJobs } from '../email-finder';
import { listRunningJobActivities as listVerifierJobs } from '../email-verifier';
import { listRunningJobActivities as listIntegrationJobs } from '../integrations';
import { listRunningJobActivities as listProspectJobs } from '../prospects';
import { listActivities, resolveActivityRange, toActivityTypes, type TRunningJobActivity } from '../activities';

type TActivitiesInput = z.output<typeof ZActivitiesRequest>;

/**
 * The caller's running jobs of every kind, newest first: read from the state each feature keeps (verifier and finder
 * lists, enrichments, downloads, integration imports), scoped to the caller's organisation and to the caller.
 */
export async function listRunningJobs(exec: TDb, ctx: TCallerContext): Promise<TRunningJobActivity[]> {
  const who = { orgId: ctx.orgId, userId: ctx.userId };
  const all = await Promise.all([listVerifierJobs(exec, who), listFinderJobs(exec, who), listProspectJobs(exec, who), listDownloadJobs(exec, who), listIntegrationJobs(exec, who)]);
  return all.flat().sort((a, b) => b.since.getTime() - a.since.getTime() || a.key.localeCompare(b.key));
}

function toActivity(job: TRunningJobActivity): TActivity {
  return {
    id: `job:${job.key}`,
    type: job.type,
    description: job.description,
    metadata: { ...job.metadata, state: job.status },
    created_at: job.since.toISOString(),
    status: job.status,
    progress: job.progress,
  };
}

/**
 * POST /user/activities: the caller's queued and running jobs first (with the spec's queued and in-progress wording),
 * then the history (account actions and finished jobs), one paged list filtered by type and dates.
 */
export async function listActivityLog(exec: TDb, ctx: TCallerContext, input: TActivitiesInput): Promise<TActivitiesData> {
  const { from, toExclusive } = await resolveActivityRange(exec, ctx, input);
  const types = toActivityTypes(input.type);
  const running = (await listRunningJobs(exec, ctx)).filter(
    (j) => (!types || types.includes(j.type)) && (!from || j.since >= from) && (!toExclusive || j.since < toExclusive),
  );
  const offset = (input.page - 1) * input.limit;
  const live = running.slice(offset, offset + input.limit).map(toActivity);
  const history = await listActivities(exec, ctx, input, { offset: Math.max(0, offset - running.length), limit: input.limit - live.length });
  return { items: [...live, ...history.items], total: running.length + history.total, page: input.page, limit: input.limit };
}
