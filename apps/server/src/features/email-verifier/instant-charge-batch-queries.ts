import { fillPlaceholders, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { sqlMemberDaily } from '../../platform/credits/ledger';
import { sqlExecutorFor, type TDb } from '../../platform/db/database';
import { memberships } from '../../platform/tenancy/tables';
import type { TInstantRowInput } from './instant-charge-queries';

// The SQL of a group of one payer's instant charges (instant-charge-batch.ts groups them and answers each caller).

const NO_LIMIT = 2_147_483_647;

const dialect = new PgDialect();
const P = (name: string) => sql.placeholder(name);
const compiled = new Map<'plain' | 'app', { sql: string; params: unknown[] }>();

/**
 * The group statement: the same steps as the single statement (instant-charge.ts), for the first `k` charges of the
 * group, `k` being the room every count leaves (read on the payer's rows, locked first; none while the organisation or
 * the member is suspended). It answers `accepted` (k) and, when some were left out, `short_of` (suspended_organisation,
 * suspended_user, member, balance, app_daily or app_life_time).
 */
function groupStatement(kind: 'plain' | 'app'): { sql: string; params: unknown[] } {
  let q = compiled.get(kind);
  if (q) return q;
  const orgId = sql`${P('orgId')}::uuid`;
  const userId = sql`${P('userId')}::uuid`;
  const appId = sql`${P('appId')}::uuid`;
  const appDay = sql`${P('appDay')}::date`;
  const k = sql`(select cnt from k)`;
  const big = sql.raw(String(NO_LIMIT));
  const { usedOn, capOn } = sqlMemberDaily(sql`current_date`);
  const appRoomRead =
    kind === 'app'
      ? sql`,
          pa as (
            select credit_limit->>'type' as limit_type, (credit_limit->>'value')::int as limit_value, credits_used_life_time,
                   coalesce((select credits from app_daily_usage where app_id = ${appId} and day = ${appDay}), 0) as today
            from apps where id = ${appId} for update)`
      : sql``;
  const appRoom =
    kind === 'app'
      ? sql`,
                coalesce((select case limit_type when 'life_time' then limit_value - credits_used_life_time
                                                 when 'daily' then limit_value - today end from pa), ${big})`
      : sql``;
  const appSteps =
    kind === 'app'
      ? sql`,
          a as (
            update apps set credits_used_life_time = credits_used_life_time + ${k}, last_used_at = now(),
                   status = case when status = 'new' then 'active' else status end
            where id = ${appId} and exists (select 1 from o)
            returning credit_limit, credits_used_life_time),
          d as (
            insert into app_daily_usage (app_id, day, credits) select ${appId}, ${appDay}, ${k} from a
            on conflict (app_id, day) do update set credits = app_daily_usage.credits + excluded.credits
            returning credits)`
      : sql``;
  const appRefusal =
    kind === 'app'
      ? sql`
                 when (select credit_limit->>'type' from a) = 'life_time' and (select credits_used_life_time from a) > (select (credit_limit->>'value')::int from a) then verilead_refuse_charge('app_life_time')
                 when (select credit_limit->>'type' from a) = 'daily' and (select credits from d) > (select (credit_limit->>'value')::int from a) then verilead_refuse_charge('app_daily')`
      : sql``;
  const appShort = kind === 'app' ? sql`when (select limit_type from pa) = 'daily' then 'app_daily' else 'app_life_time'` : sql`else 'balance'`;
  q = dialect.sqlToQuery(sql`with x as (
            select * from json_to_recordset(${P('rows')}::json) as x(n int, id uuid, email text, status text, source text, result jsonb, event_type text, event_payload jsonb)),
          p as (
            select ${memberships.status} as status, o.credits_balance as balance, o.suspended_at is not null as org_suspended,
                   coalesce(${capOn} - ${usedOn}, ${big}) as daily_room,
                   coalesce(${memberships.lifeTimeLimit} - ${memberships.lifeTimeUsed}, ${big}) as life_room
            from ${memberships} join organisations o on o.id = ${memberships.orgId}
            where ${memberships.userId} = ${userId} and ${memberships.orgId} = ${orgId}
            for update),
          pu as (
            select 1 as ok from users where id = ${userId} and suspended_at is null and exists (select 1 from p)
            for share)${appRoomRead},
          k as (
            select coalesce((select greatest(0, least((select count(*)::int from x), p.balance, p.daily_room, p.life_room${appRoom}))
                             from p where p.status = 'active' and not p.org_suspended and exists (select 1 from pu)), 0) as cnt),
          m as (
            update ${memberships} set daily_used = ${usedOn} + ${k}, daily_used_on = current_date, life_time_used = life_time_used + ${k}
            where user_id = ${userId} and org_id = ${orgId} and status = 'active' and ${k} > 0
              and (life_time_limit is null or life_time_used + ${k} <= life_time_limit)
              and (${capOn} is null or ${usedOn} + ${k} <= ${capOn})
            returning 1 as ok),
          o as (
            update organisations set credits_balance = credits_balance - ${k}
            where id = ${orgId} and credits_balance >= ${k} and suspended_at is null and exists (select 1 from m)
            returning credits_balance)${appSteps},
          i as (
            insert into instant_verifications (id, org_id, user_id, email, status, source, result, billable, credits_charged)
            select x.id, ${orgId}, ${userId}, x.email, x.status, x.source, x.result, true, 1 from x where x.n <= ${k} and exists (select 1 from o)),
          l as (
            insert into credit_transactions (org_id, user_id, kind, amount, reason, source_agent, object_type, object_id, balance_after)
            select ${orgId}, ${userId}, 'charge', 1, 'Instant verification', 'instant_verify', 'instant_verification', x.id::text,
                   (select credits_balance from o) + ${k} - x.n
            from x where x.n <= ${k} and exists (select 1 from o)),
          e as (
            insert into events (org_id, user_id, type, payload)
            select ${orgId}, ${userId}, x.event_type, x.event_payload || jsonb_build_object('id', x.id) from x where x.n <= ${k} and exists (select 1 from o))
        select ${k} as accepted,
               case
                 when ${k} = 0 then null
                 when not exists (select 1 from m) then verilead_refuse_charge('member')
                 when not exists (select 1 from o) then verilead_refuse_charge('balance')${appRefusal}
               end as refused,
               case
                 when ${k} >= (select count(*) from x) then null
                 when exists (select 1 from p where org_suspended) then 'suspended_organisation'
                 when exists (select 1 from p) and not exists (select 1 from pu) then 'suspended_user'
                 when not exists (select 1 from p where status = 'active') then 'member'
                 when (select least(daily_room, life_room) from p) <= ${k} then 'member'
                 when (select balance from p) <= ${k} then 'balance'
                 ${appShort}
               end as short_of`);
  compiled.set(kind, q);
  return q;
}

/**
 * Runs the group statement for `group` (one payer's billable rows, stored under `ids` in order): how many of the first
 * rows were stored and charged (`accepted`), and, when some were left out, what they were short of. Rejects when the
 * statement refused itself whole (a count moved under it).
 */
export async function insertChargedGroup(exec: TDb, group: TInstantRowInput[], ids: string[]): Promise<{ accepted: number; shortOf: string | null }> {
  const first = group[0]!;
  const q = groupStatement(first.app ? 'app' : 'plain');
  const rows = JSON.stringify(
    group.map((input, i) => ({
      n: i + 1,
      id: ids[i],
      email: input.email,
      status: input.status,
      source: input.source,
      result: input.result,
      event_type: input.event.type,
      event_payload: input.event.payload,
    })),
  );
  const values = fillPlaceholders(q.params, { rows, orgId: first.orgId, userId: first.userId, appId: first.app?.id ?? null, appDay: first.app?.day ?? null });
  const answer = await sqlExecutorFor(exec).executeSql(q.sql, values);
  const row = answer.rows[0] as { accepted: number; short_of: string | null } | undefined;
  return { accepted: Number(row?.accepted ?? 0), shortOf: row?.short_of ?? null };
}
