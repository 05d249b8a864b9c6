import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { selectRows, type TDb } from '../../platform/db/database';
import { memberships, users } from '../../platform/tenancy/tables';
import { usageRollups } from './tables';

/** Which rows a report adds up: the organisation, optionally only some members, in [from, to). */
export type TUsageFilter = { orgId: string; userIds?: string[]; from: Date; to: Date };

const NO_USER = '00000000-0000-0000-0000-000000000000';

function whereUsage(f: TUsageFilter): SQL {
  const parts: SQL[] = [
    sql`${usageRollups.orgId} = ${f.orgId}`,
    sql`${usageRollups.bucket} >= ${f.from.toISOString()}`,
    sql`${usageRollups.bucket} < ${f.to.toISOString()}`,
  ];
  if (f.userIds) parts.push(inArray(usageRollups.userId, f.userIds.length ? f.userIds : [NO_USER]));
  return and(...parts)!;
}

export type TUsageTotalRow = { feature: string; detail: string; charged: number; refunded: number; charges: number; refunds: number };

/** Charged and refunded credits per feature and detail. */
export function selectUsageTotals(exec: TDb, f: TUsageFilter): Promise<TUsageTotalRow[]> {
  return selectRows<TUsageTotalRow>(
    exec,
    sql`select ${usageRollups.feature} as feature, ${usageRollups.detail} as detail,
               sum(${usageRollups.charged})::float8 as charged, sum(${usageRollups.refunded})::float8 as refunded,
               sum(${usageRollups.charges})::float8 as charges, sum(${usageRollups.refunds})::float8 as refunds
        from ${usageRollups} where ${whereUsage(f)}
        group by 1, 2`,
  );
}

const BUCKET_FORMATS = { hour: 'YYYY-MM-DD"T"HH24:00', day: 'YYYY-MM-DD', month: 'YYYY-MM' } as const;

/** Net credits per local bucket (hour, day or month in `timeZone`) and feature. */
export function selectUsageSeries(
  exec: TDb,
  f: TUsageFilter & { bucket: keyof typeof BUCKET_FORMATS; timeZone: string },
): Promise<{ label: string; feature: string; net: number }[]> {
  const local = sql`(${usageRollups.bucket} at time zone ${f.timeZone})`;
  return selectRows(
    exec,
    sql`select to_char(${local}, ${BUCKET_FORMATS[f.bucket]}) as label, ${usageRollups.feature} as feature,
               sum(${usageRollups.charged} - ${usageRollups.refunded})::float8 as net
        from ${usageRollups} where ${whereUsage(f)}
        group by 1, 2`,
  );
}

/** Net credits per member and feature. */
export function selectUsageByMember(exec: TDb, f: TUsageFilter): Promise<{ user_id: string; feature: string; net: number }[]> {
  return selectRows(
    exec,
    sql`select ${usageRollups.userId} as user_id, ${usageRollups.feature} as feature,
               sum(${usageRollups.charged} - ${usageRollups.refunded})::float8 as net
        from ${usageRollups} where ${whereUsage(f)}
        group by 1, 2`,
  );
}

/** The caller's time zone setting. */
export async function selectUserTimezone(exec: TDb, userId: string): Promise<string> {
  const rows = await exec.select({ timezone: users.timezone }).from(users).where(eq(users.id, userId)).limit(1);
  return rows[0]?.timezone ?? 'UTC';
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
  await exec.execute(sql`
    insert into usage_rollups (org_id, user_id, feature, detail, bucket, charged, refunded, charges, refunds)
    select org_id, coalesce(user_id, ${NO_USER}::uuid), analytics_usage_feature(source_agent), analytics_usage_detail(source_agent, object_type),
           date_bin('15 minutes', created_at, timestamptz '2000-01-01 00:00:00+00'),
           sum(case when kind = 'charge' then amount else 0 end), sum(case when kind = 'refund' then amount else 0 end),
           count(*) filter (where kind = 'charge'), count(*) filter (where kind = 'refund')
    from credit_transactions where kind in ('charge', 'refund') ${org}
    group by 1, 2, 3, 4, 5`);
}
