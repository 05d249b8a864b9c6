import { randomUUID } from 'node:crypto';
import { fillPlaceholders, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { sqlMemberDaily } from '../../platform/credits/ledger';
import { sqlExecutorFor, type TDb } from '../../platform/db/database';
import { memberships } from '../../platform/tenancy/tables';
import { explainChargeError, isChargeRefusal, storeInstantResultOnce, type TInstantRowInput, type TStoredInstant } from './instant-charge';

/**
 * Concurrent charges of one payer (organisation, member, app and day), grouped into one statement.
 *
 * Every instant charge updates the same three rows of its payer (the membership, the organisation and the app), so
 * concurrent charges of one payer wait for each other's commit whatever the pool size. Instead of queueing in the
 * database, a charge that arrives while one of its payer's statements is in flight waits here, and every charge
 * that waited is then sent as ONE statement: one round trip, one lock of each row, one commit for the whole group.
 * A charge that finds nothing in flight is sent at once (no added latency when calls do not overlap).
 *
 * The group statement is all or nothing: when the group as a whole would pass a limit (the member's daily or
 * life-time limit, the balance, the app's credit limit), it changes nothing, and its charges are then sent one by
 * one through the single statement, which decides each exactly as before (so a group never passes a limit, and
 * near a limit every call gets the answer it would get alone).
 */

const GROUP_MAX = 250;

type TWaiting = { input: TInstantRowInput; resolve: (row: TStoredInstant) => void; reject: (err: unknown) => void };
type TPayerQueue = { waiting: TWaiting[] };

const dialect = new PgDialect();
const P = (name: string) => sql.placeholder(name);
const compiled = new Map<'plain' | 'app', { sql: string; params: unknown[] }>();

/** The group statement: the same steps as the single statement (instant-charge.ts), counted `k` times at once. */
function groupStatement(kind: 'plain' | 'app'): { sql: string; params: unknown[] } {
  let q = compiled.get(kind);
  if (q) return q;
  const orgId = sql`${P('orgId')}::uuid`;
  const userId = sql`${P('userId')}::uuid`;
  const appId = sql`${P('appId')}::uuid`;
  const k = sql`(select cnt from k)`;
  const { usedOn, capOn } = sqlMemberDaily(sql`current_date`);
  const appSteps =
    kind === 'app'
      ? sql`,
          a as (
            update apps set credits_used_life_time = credits_used_life_time + ${k}, last_used_at = now(),
                   status = case when status = 'new' then 'active' else status end
            where id = ${appId} and exists (select 1 from o)
            returning credit_limit, credits_used_life_time),
          d as (
            insert into app_daily_usage (app_id, day, credits) select ${appId}, ${P('appDay')}::date, ${k} from a
            on conflict (app_id, day) do update set credits = app_daily_usage.credits + excluded.credits
            returning credits)`
      : sql``;
  const appRefusal =
    kind === 'app'
      ? sql`
                 when (select credit_limit->>'type' from a) = 'life_time' and (select credits_used_life_time from a) > (select (credit_limit->>'value')::int from a) then verilead_refuse_charge('app_life_time')
                 when (select credit_limit->>'type' from a) = 'daily' and (select credits from d) > (select (credit_limit->>'value')::int from a) then verilead_refuse_charge('app_daily')`
      : sql``;
  q = dialect.sqlToQuery(sql`with x as (
            select * from json_to_recordset(${P('rows')}::json) as x(n int, id uuid, email text, status text, source text, result jsonb, event_type text, event_payload jsonb)),
          k as (select count(*)::int as cnt from x),
          m as (
            update ${memberships} set daily_used = ${usedOn} + ${k}, daily_used_on = current_date, life_time_used = life_time_used + ${k}
            where user_id = ${userId} and org_id = ${orgId} and status = 'active'
              and (life_time_limit is null or life_time_used + ${k} <= life_time_limit)
              and (${capOn} is null or ${usedOn} + ${k} <= ${capOn})
            returning 1 as ok),
          o as (
            update organisations set credits_balance = credits_balance - ${k}
            where id = ${orgId} and credits_balance >= ${k} and exists (select 1 from m)
            returning credits_balance)${appSteps},
          i as (
            insert into instant_verifications (id, org_id, user_id, email, status, source, result, billable, credits_charged)
            select x.id, ${orgId}, ${userId}, x.email, x.status, x.source, x.result, true, 1 from x where exists (select 1 from o)),
          l as (
            insert into credit_transactions (org_id, user_id, kind, amount, reason, source_agent, object_type, object_id, balance_after)
            select ${orgId}, ${userId}, 'charge', 1, 'Instant verification', 'instant_verify', 'instant_verification', x.id::text,
                   (select credits_balance from o) + ${k} - x.n
            from x where exists (select 1 from o)),
          e as (
            insert into events (org_id, user_id, type, payload)
            select ${orgId}, ${userId}, x.event_type, x.event_payload || jsonb_build_object('id', x.id) from x where exists (select 1 from o))
        select case
                 when not exists (select 1 from m) then verilead_refuse_charge('member')
                 when not exists (select 1 from o) then verilead_refuse_charge('balance')${appRefusal}
               end as refused`);
  compiled.set(kind, q);
  return q;
}

/** Stores and charges `group` (one payer's billable rows) in one statement; rejects when the group was refused. */
async function storeGroupOnce(exec: TDb, group: TInstantRowInput[]): Promise<TStoredInstant[]> {
  const first = group[0]!;
  const ids = group.map(() => randomUUID());
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
  await sqlExecutorFor(exec).executeSql(q.sql, values);
  return group.map((input, i) => ({ id: ids[i]!, result: input.result, billable: true, creditsCharged: 1 }));
}

const payerKey = (input: TInstantRowInput) => `${input.orgId}|${input.userId}|${input.app?.id ?? ''}|${input.app?.day ?? ''}`;

/** One charger per database handle (each process has one): the payers with a statement in flight and who waits. */
const chargers = new WeakMap<TDb, (input: TInstantRowInput) => Promise<TStoredInstant>>();

function createCharger(exec: TDb): (input: TInstantRowInput) => Promise<TStoredInstant> {
  const inFlight = new Map<string, TPayerQueue>();

  /** Settles one charge alone through the single statement (its refusal explained exactly). */
  const settleAlone = async (w: TWaiting) => {
    try {
      w.resolve(await storeInstantResultOnce(exec, w.input));
    } catch (err) {
      w.reject(await explainChargeError(exec, w.input, err).catch(() => err));
    }
  };

  const settleGroup = async (group: TWaiting[]) => {
    if (group.length === 1) return settleAlone(group[0]!);
    try {
      const rows = await storeGroupOnce(
        exec,
        group.map((w) => w.input),
      );
      group.forEach((w, i) => w.resolve(rows[i]!));
    } catch (err) {
      // Refused as a whole (it would pass a limit): nothing of it was stored, and each charge is decided on its own.
      if (isChargeRefusal(err)) for (const w of group) await settleAlone(w);
      // Any other failure (a lost connection): answered as it is, never retried (it may have been stored).
      else for (const w of group) w.reject(err);
    }
  };

  const drain = async (key: string, queue: TPayerQueue) => {
    while (queue.waiting.length > 0) await settleGroup(queue.waiting.splice(0, GROUP_MAX));
    inFlight.delete(key);
  };

  return (input) =>
    new Promise<TStoredInstant>((resolve, reject) => {
      const key = payerKey(input);
      const queue = inFlight.get(key);
      if (queue) {
        queue.waiting.push({ input, resolve, reject });
        return;
      }
      const fresh: TPayerQueue = { waiting: [{ input, resolve, reject }] };
      inFlight.set(key, fresh);
      void drain(key, fresh);
    });
}

/**
 * Stores an instant result and charges it when billable. Billable results of one payer that overlap in time are
 * grouped into one statement (see above); a free result is stored at once. Rejects with the error to answer.
 */
export function chargeInstantResult(exec: TDb, input: TInstantRowInput): Promise<TStoredInstant> {
  if (!input.billable) return storeFree(exec, input);
  let charge = chargers.get(exec);
  if (!charge) {
    charge = createCharger(exec);
    chargers.set(exec, charge);
  }
  return charge(input);
}

async function storeFree(exec: TDb, input: TInstantRowInput): Promise<TStoredInstant> {
  try {
    return await storeInstantResultOnce(exec, input);
  } catch (err) {
    throw await explainChargeError(exec, input, err);
  }
}
