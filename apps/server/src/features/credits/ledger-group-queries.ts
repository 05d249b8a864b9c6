import { sql, type SQL } from 'drizzle-orm';
import { selectRows, type TDb } from '../../platform/db/database';

/**
 * The SQL of the ledger in lines (ledger-groups.ts shapes them for the API): the group key of a row (one per job, one
 * per day, source and object type for other charges, else one per row), the page of lines and the page of one line's rows.
 */
const JOB_OBJECTS = sql.raw(`('verify_list_email', 'finder_list_row')`);
const JOB_SOURCES = sql.raw(`('enrich_list', 'enrich_lead')`);

function groupKey(timeZone: string): SQL {
  return sql`case
    when ct.object_type = 'operator_adjustment' then 'row:' || ct.id::text
    when ct.object_type in ${JOB_OBJECTS} or ct.source_agent in ${JOB_SOURCES}
      then 'job:' || coalesce(ct.source_agent, '') || ':' || split_part(coalesce(ct.object_id, ''), ':', 1)
    when ct.kind = 'charge'
      then 'day:' || to_char(ct.created_at at time zone ${timeZone}, 'YYYY-MM-DD') || ':' || coalesce(ct.source_agent, '') || ':' || coalesce(ct.object_type, '')
    else 'row:' || ct.id::text
  end`;
}

export type TLedgerFilter = { orgId: string; userId?: string; kind?: string; from?: Date; toExclusive?: Date; timeZone: string };

function whereOf(f: TLedgerFilter): SQL {
  const parts: SQL[] = [sql`ct.org_id = ${f.orgId}`];
  if (f.userId) parts.push(sql`ct.user_id = ${f.userId}`);
  if (f.kind) parts.push(sql`ct.kind = ${f.kind}`);
  if (f.from) parts.push(sql`ct.created_at >= ${f.from.toISOString()}`);
  if (f.toExclusive) parts.push(sql`ct.created_at < ${f.toExclusive.toISOString()}`);
  return sql.join(parts, sql` and `);
}

/** A ledger row as read from the database (camelCase, as Drizzle reads `credit_transactions`). */
export type TLedgerRow = {
  id: string;
  kind: string;
  amount: number;
  reason: string;
  sourceAgent: string | null;
  objectType: string | null;
  objectId: string | null;
  balanceAfter: number;
  userId: string | null;
  createdAt: string | Date;
};

export type TGroupRow = {
  key: string;
  n: number;
  total: number;
  balance_after: number;
  kind: string;
  reason: string;
  source_agent: string | null;
  object_type: string | null;
  object_id: string | null;
  user_name: string | null;
  first_at: string | Date;
  last_at: string | Date;
};

/** A page of ledger lines, newest first (the last row written), and how many lines there are. */
export async function selectLedgerGroupPage(exec: TDb, f: TLedgerFilter, page: number, limit: number): Promise<{ rows: TGroupRow[]; total: number }> {
  const key = groupKey(f.timeZone);
  const keyed = sql`select ct.*, ${key} as group_key from credit_transactions ct where ${whereOf(f)}`;
  const [rows, totals] = await Promise.all([
    selectRows<TGroupRow>(
      exec,
      sql`with t as (${keyed})
          select t.group_key as key, count(*)::int as n,
            sum(case when t.kind = 'charge' then -t.amount else t.amount end)::int as total,
            (array_agg(t.balance_after order by t.seq desc))[1] as balance_after,
            (array_agg(t.kind order by t.seq desc))[1] as kind,
            (array_agg(t.reason order by t.seq desc))[1] as reason,
            (array_agg(t.source_agent order by t.seq desc))[1] as source_agent,
            (array_agg(t.object_type order by t.seq desc))[1] as object_type,
            (array_agg(t.object_id order by t.seq desc))[1] as object_id,
            (array_agg(u.name order by t.seq desc))[1] as user_name,
            min(t.created_at) as first_at, max(t.created_at) as last_at
          from t left join users u on u.id = t.user_id
          group by t.group_key
          order by max(t.seq) desc
          limit ${limit} offset ${(page - 1) * limit}`,
    ),
    selectRows<{ n: number }>(exec, sql`select count(distinct ${key})::int as n from credit_transactions ct where ${whereOf(f)}`),
  ]);
  return { rows, total: totals[0]?.n ?? 0 };
}

/** A page of the rows of one ledger line, newest first, and how many rows it has. */
export async function selectLedgerGroupRowPage(
  exec: TDb,
  f: TLedgerFilter,
  key: string,
  page: number,
  limit: number,
): Promise<{ rows: (TLedgerRow & { user_name: string | null })[]; total: number }> {
  const cond = sql`${whereOf(f)} and ${groupKey(f.timeZone)} = ${key}`;
  const [rows, totals] = await Promise.all([
    selectRows<TLedgerRow & { user_name: string | null }>(
      exec,
      sql`select ct.id, ct.kind, ct.amount, ct.reason, ct.source_agent as "sourceAgent", ct.object_type as "objectType", ct.object_id as "objectId",
                 ct.balance_after as "balanceAfter", ct.user_id as "userId", u.name as user_name, ct.created_at as "createdAt"
          from credit_transactions ct left join users u on u.id = ct.user_id
          where ${cond} order by ct.seq desc limit ${limit} offset ${(page - 1) * limit}`,
    ),
    selectRows<{ n: number }>(exec, sql`select count(*)::int as n from credit_transactions ct where ${cond}`),
  ]);
  return { rows, total: totals[0]?.n ?? 0 };
}
