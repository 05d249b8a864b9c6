import { sql } from 'drizzle-orm';
import { selectRows, type TDb } from '../db/database';
import { JOB_SCHEMA } from '../db/job-schema';

const S = sql.raw(JOB_SCHEMA);

/** True once pg-boss's tables exist (the queue may never have started on this database). */
export async function isJobSchemaInstalled(exec: TDb): Promise<boolean> {
  const installed = await selectRows<{ ok: boolean }>(exec, sql`select to_regclass(${`${JOB_SCHEMA}.job`}) is not null as ok`);
  return installed[0]?.ok ?? false;
}

/** Deletes the organisation's jobs from `pgboss.job`, found through their `job_status` rows; answers how many. */
export async function deleteQueuedJobsOf(exec: TDb, orgId: string): Promise<number> {
  const jobs = await selectRows<{ n: number }>(
    exec,
    sql`with gone as (delete from ${S}.job j using job_status s where s.org_id = ${orgId} and j.name = s.queue and j.id = s.id returning 1)
        select count(*)::int as n from gone`,
  );
  return jobs[0]?.n ?? 0;
}

/** Deletes the organisation's jobs from `pgboss.archive`, found through their `job_status` rows; answers how many. */
export async function deleteArchivedJobsOf(exec: TDb, orgId: string): Promise<number> {
  const archived = await selectRows<{ n: number }>(
    exec,
    sql`with gone as (delete from ${S}.archive a using job_status s where s.org_id = ${orgId} and a.name = s.queue and a.id = s.id returning 1)
        select count(*)::int as n from gone`,
  );
  return archived[0]?.n ?? 0;
}

/**
 * Makes due at once the jobs paused for a suspension (pg-boss `retry` state with the pause's message) of an
 * organisation, or of a user in any organisation; answers how many.
 */
export async function makePausedJobsDue(exec: TDb, owner: { orgId: string } | { userId: string }, pausedMessage: string): Promise<number> {
  const whose = 'orgId' in owner ? sql`s.org_id = ${owner.orgId}::uuid` : sql`s.user_id = ${owner.userId}::uuid`;
  const rows = await selectRows<{ n: number }>(
    exec,
    sql`with due as (update ${S}.job j set start_after = now() from job_status s
                      where ${whose} and j.name = s.queue and j.id = s.id and j.state = 'retry' and j.output->>'message' = ${pausedMessage}
                      returning 1)
        select count(*)::int as n from due`,
  );
  return rows[0]?.n ?? 0;
}
