import { sql } from 'drizzle-orm';
import { selectRows, type TDb } from '../db/database';
import { JOB_SCHEMA } from '../db/job-schema';

const S = sql.raw(JOB_SCHEMA);

/**
 * Deletes an organisation's jobs from the queue's own tables (`pgboss.job` and `pgboss.archive`: payloads, results and
 * errors), found through their `job_status` rows, which the caller deletes with the organisation's other rows.
 * Answers how many jobs went. A job already running finishes on a row that no longer exists, which pg-boss ignores.
 */
export async function deleteOrganisationJobs(exec: TDb, orgId: string): Promise<number> {
  const installed = await selectRows<{ ok: boolean }>(exec, sql`select to_regclass(${`${JOB_SCHEMA}.job`}) is not null as ok`);
  if (!installed[0]?.ok) return 0;
  const jobs = await selectRows<{ n: number }>(
    exec,
    sql`with gone as (delete from ${S}.job j using job_status s where s.org_id = ${orgId} and j.name = s.queue and j.id = s.id returning 1)
        select count(*)::int as n from gone`,
  );
  const archived = await selectRows<{ n: number }>(
    exec,
    sql`with gone as (delete from ${S}.archive a using job_status s where s.org_id = ${orgId} and a.name = s.queue and a.id = s.id returning 1)
        select count(*)::int as n from gone`,
  );
  return (jobs[0]?.n ?? 0) + (archived[0]?.n ?? 0);
}
