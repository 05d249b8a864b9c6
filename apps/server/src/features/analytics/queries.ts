import { eq, sql, type SQL } from 'drizzle-orm';
import { selectRows, type TDb } from '../../platform/db/database';
import { memberships, users } from '../../platform/tenancy/tables';
import { usageRollups, usageRollupsHourly } from './tables';

/**
 * Which rows a report adds up: the organisation, optionally only some members, in [from, to). `phase` (set only
 * for the whole organisation) reads the hourly organisation roll-up of that phase instead of the per-member one.
 */
export type TUsageFilter = { orgId: string; userIds?: string[]; from: Date; to: Date; phase?: number };

const NO_USER = '00000000-0000-0000-0000-000000000000';

/** `from <table> r where …` for a filter: the hourly organisation roll-up when it can answer, else the per-member one. */
function fromUsage(f: TUsageFilter): SQL {
  const range = sql`r.org_id = ${f.orgId} and r.bucket >= ${f.from.toISOString()} and r.bucket < ${f.to.toISOString()}`;
  if (f.phase !== undefined && !f.userIds) return sql`from ${usageRollupsHourly} r where ${range} and r.phase = ${f.phase}`;
  const users = f.userIds ? sql`and r.user_id in ${f.userIds.length ? f.userIds : [NO_USER]}` : sql``;
  return sql`from ${usageRollups} r where ${range} ${users}`;
}

export type TUsageTotalRow = { feature: string; detail: string; charged: number; refunded: number; charges: number; refunds: number };

/** Charged and refunded credits per feature and detail. */
export function selectUsageTotals(exec: TDb, f: TUsageFilter): Promise<TUsageTotalRow[]> {
  return selectRows<TUsageTotalRow>(
    exec,
    sql`select r.feature, r.detail, sum(r.charged)::float8 as charged, sum(r.refunded)::float8 as refunded,
               sum(r.charges)::float8 as charges, sum(r.refunds)::float8 as refunds
        ${fromUsage(f)}
        group by 1, 2`,
  );
}

const BUCKET_FORMATS = { hour: 'YYYY-MM-DD"T"HH24:00', day: 'YYYY-MM-DD', month: 'YYYY-MM' } as const;

/** Net credits per local bucket (hour, day or month in `timeZone`) and feature. */
export function selectUsageSeries(
  exec: TDb,
  f: TUsageFilter & { bucket: keyof typeof BUCKET_FORMATS; timeZone: string },
): Promise<{ label: string; feature: string; net: number }[]> {
  // Truncate each stored bucket to its local hour, day or month, add up, and only then format the few labels.
  return selectRows(
    exec,
    sql`select to_char(b.local, ${BUCKET_FORMATS[f.bucket]}) as label, b.feature, b.net
        from (select date_trunc(${f.bucket}, r.bucket at time zone ${f.timeZone}) as local, r.feature, sum(r.charged - r.refunded)::float8 as net
              ${fromUsage(f)} group by 1, 2) b`,
  );
}

/** Net credits per member and feature. */
export function selectUsageByMember(exec: TDb, f: TUsageFilter): Promise<{ user_id: string; feature: string; net: number }[]> {
  return selectRows(
    exec,
    sql`select r.user_id, r.feature, sum(r.charged - r.refunded)::float8 as net
        ${fromUsage({ ...f, phase: undefined })}
        group by 1, 2`,
  );
}

/** The caller's dashboard type: `individual` (their own usage) or `team` (the organisation's). */
export async function selectDashboardType(exec: TDb, userId: string): Promise<string> {
  const rows = await exec.select({ type: users.dashboardType }).from(users).where(eq(users.id, userId)).limit(1);
  return rows[0]?.type ?? 'individual';
}

/** The organisation's members (every status), with name, e-mail and role. */
export function selectOrgMembers(exec: TDb, orgId: string): Promise<{ user_id: string; name: string; email: string; role: string }[]> {
  return exec
    .select({ user_id: memberships.userId, name: users.name, email: users.email, role: memberships.role })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.orgId, orgId));
}

/**
 * Rebuilds the roll-up from the ledger (operator tool and benchmark seeding; the trigger keeps it current
 * otherwise). Runs in the caller's transaction.
 */
export async function rebuildUsageRollups(exec: TDb, orgId?: string): Promise<void> {
  const org = orgId ? sql`and org_id = ${orgId}` : sql``;
  await exec.execute(sql`delete from usage_rollups where true ${org}`);
  await exec.execute(sql`delete from usage_rollups_hourly where true ${org}`);
  await exec.execute(sql`
    insert into usage_rollups (org_id, user_id, feature, detail, bucket, charged, refunded, charges, refunds)
    select org_id, coalesce(user_id, ${NO_USER}::uuid), analytics_usage_feature(source_agent), analytics_usage_detail(source_agent, object_type),
           date_bin('15 minutes', created_at, timestamptz '2000-01-01 00:00:00+00'),
           sum(case when kind = 'charge' then amount else 0 end), sum(case when kind = 'refund' then amount else 0 end),
           count(*) filter (where kind = 'charge'), count(*) filter (where kind = 'refund')
    from credit_transactions where kind in ('charge', 'refund') ${org}
    group by 1, 2, 3, 4, 5`);
  await exec.execute(sql`
    insert into usage_rollups_hourly (org_id, phase, bucket, feature, detail, charged, refunded, charges, refunds)
    select org_id, p, date_bin('1 hour', created_at, timestamptz '2000-01-01 00:00:00+00' + make_interval(mins => p)),
           analytics_usage_feature(source_agent), analytics_usage_detail(source_agent, object_type),
           sum(case when kind = 'charge' then amount else 0 end), sum(case when kind = 'refund' then amount else 0 end),
           count(*) filter (where kind = 'charge'), count(*) filter (where kind = 'refund')
    from credit_transactions, unnest(array[0, 30, 45]) as p where kind in ('charge', 'refund') ${org}
    group by 1, 2, 3, 4, 5`);
}
