import { fillPlaceholders, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { sqlMemberDaily } from '../../platform/credits/ledger';
import { selectRows, sqlExecutorFor, type TDb } from '../../platform/db/database';
import { memberships } from '../../platform/tenancy/tables';

/**
 * The SQL of an instant call's charge (instant-charge.ts decides and explains): the one statement that stores a
 * result and, when billable, charges it, and the read of what the payer has left.
 */

/** The app an instant call came through (public API): its usage and credit limit move with the charge. */
export type TChargeApp = { id: string; day: string };

/** What an instant call stores: the result row, charged (billable) or free. */
export type TInstantRowInput = {
  orgId: string;
  userId: string;
  email: string;
  status: string;
  source: 'app' | 'api';
  result: Record<string, unknown>;
  billable: boolean;
  event: { type: string; payload: Record<string, unknown> };
  app?: TChargeApp;
};

/** The statements, built once (drizzle renders them to text with $n parameters) and sent as text at each call. */
const dialect = new PgDialect();
const P = (name: string) => sql.placeholder(name);
const compiled = new Map<string, { sql: string; params: unknown[] }>();

function statementFor(kind: 'free' | 'charge' | 'charge_app'): { sql: string; params: unknown[] } {
  let q = compiled.get(kind);
  if (q) return q;
  const orgId = sql`${P('orgId')}::uuid`;
  const userId = sql`${P('userId')}::uuid`;
  const row = sql`${orgId}, ${userId}, ${P('email')}::text, ${P('status')}::text, ${P('source')}::text, ${P('result')}::jsonb`;
  const event = sql`
          e as (
            insert into events (org_id, user_id, type, payload)
            select ${orgId}, ${userId}, ${P('eventType')}::text, ${P('eventPayload')}::jsonb || jsonb_build_object('id', i.id) from i)`;
  if (kind === 'free') {
    q = dialect.sqlToQuery(sql`with i as (
            insert into instant_verifications (org_id, user_id, email, status, source, result, billable, credits_charged)
            values (${row}, false, 0)
            returning id, result),${event}
          select id, result from i`);
  } else {
    const { usedOn, capOn } = sqlMemberDaily(sql`current_date`);
    const app = kind === 'charge_app';
    const appId = sql`${P('appId')}::uuid`;
    const appSteps = app
      ? sql`,
          a as (
            update apps set credits_used_life_time = credits_used_life_time + 1, last_used_at = now(),
                   status = case when status = 'new' then 'active' else status end
            where id = ${appId} and exists (select 1 from o)
            returning credit_limit, credits_used_life_time),
          d as (
            insert into app_daily_usage (app_id, day, credits) select ${appId}, ${P('appDay')}::date, 1 from a
            on conflict (app_id, day) do update set credits = app_daily_usage.credits + 1
            returning credits)`
      : sql``;
    const appRefusal = app
      ? sql`
                   when (select credit_limit->>'type' from a) = 'life_time' and (select credits_used_life_time from a) > (select (credit_limit->>'value')::int from a) then verilead_refuse_charge('app_life_time')
                   when (select credit_limit->>'type' from a) = 'daily' and (select credits from d) > (select (credit_limit->>'value')::int from a) then verilead_refuse_charge('app_daily')`
      : sql``;
    q = dialect.sqlToQuery(sql`with m as (
            update ${memberships} set daily_used = ${usedOn} + 1, daily_used_on = current_date, life_time_used = life_time_used + 1
            where user_id = ${userId} and org_id = ${orgId} and status = 'active'
              and (life_time_limit is null or life_time_used + 1 <= life_time_limit)
              and (${capOn} is null or ${usedOn} + 1 <= ${capOn})
            returning 1 as ok),
          u as (
            select 1 as ok from users where id = ${userId} and suspended_at is null and exists (select 1 from m)
            for share),
          o as (
            update organisations set credits_balance = credits_balance - 1
            where id = ${orgId} and credits_balance >= 1 and suspended_at is null and exists (select 1 from u)
            returning credits_balance)${appSteps},
          i as (
            insert into instant_verifications (org_id, user_id, email, status, source, result, billable, credits_charged)
            select ${row}, true, 1 from o
            returning id, result),
          l as (
            insert into credit_transactions (org_id, user_id, kind, amount, reason, source_agent, object_type, object_id, balance_after)
            select ${orgId}, ${userId}, 'charge', 1, 'Instant verification', 'instant_verify', 'instant_verification', i.id::text, o.credits_balance from i, o),${event}
          select i.id, i.result,
                 case
                   when not exists (select 1 from o) and (select suspended_at is not null from organisations where id = ${orgId}) then verilead_refuse_charge('suspended_organisation')
                   when not exists (select 1 from o) and (select suspended_at is not null from users where id = ${userId}) then verilead_refuse_charge('suspended_user')
                   when not exists (select 1 from m) then verilead_refuse_charge('member')
                   when not exists (select 1 from u) then verilead_refuse_charge('suspended_user')
                   when not exists (select 1 from o) then verilead_refuse_charge('balance')${appRefusal}
                 end as refused
          from (select 1) as one left join i on true`);
  }
  compiled.set(kind, q);
  return q;
}

/**
 * Runs the statement of `input` (free, charged, or charged through an app): the stored row, or undefined when none
 * was stored. A refused step rejects with the database's error (the statement undid itself).
 */
export async function insertInstantRow(exec: TDb, input: TInstantRowInput): Promise<{ id: string | null; result: Record<string, unknown> } | undefined> {
  const kind = !input.billable ? 'free' : input.app ? 'charge_app' : 'charge';
  const q = statementFor(kind);
  const values = fillPlaceholders(q.params, {
    orgId: input.orgId,
    userId: input.userId,
    email: input.email,
    status: input.status,
    source: input.source,
    result: JSON.stringify(input.result),
    eventType: input.event.type,
    eventPayload: JSON.stringify(input.event.payload),
    appId: input.app?.id ?? null,
    appDay: input.app?.day ?? null,
  });
  const { rows } = await sqlExecutorFor(exec).executeSql(q.sql, values);
  return rows[0] as { id: string | null; result: Record<string, unknown> } | undefined;
}

export type TPayer = {
  status: string;
  life_time_limit: number | null;
  life_time_used: number;
  cap: number | null;
  used: number;
  balance: number;
  /** Who of the organisation and the member an operator suspended, if any. */
  suspended: 'organisation' | 'user' | null;
};

/** What the member and the organisation have left today, and whether either is suspended (null when the user is no member). */
export async function selectPayer(exec: TDb, orgId: string, userId: string): Promise<TPayer | null> {
  const { usedOn, capOn } = sqlMemberDaily(sql`current_date`);
  const rows = await selectRows<TPayer>(
    exec,
    sql`select ${memberships.status} as status, ${memberships.lifeTimeLimit} as life_time_limit, ${memberships.lifeTimeUsed} as life_time_used,
               ${capOn} as cap, (${usedOn})::int as used, o.credits_balance as balance,
               case when o.suspended_at is not null then 'organisation' when u.suspended_at is not null then 'user' end as suspended
        from ${memberships} join organisations o on o.id = ${memberships.orgId} join users u on u.id = ${memberships.userId}
        where ${memberships.userId} = ${userId} and ${memberships.orgId} = ${orgId} limit 1`,
  );
  return rows[0] ?? null;
}

