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
 * The group statement locks the payer's rows, reads the room every count leaves (the member's daily and life-time
 * limits, the balance, the app's credit limit) and charges the first `room` charges of the group; the others are
 * refused at once with the reason that stopped them (so near an empty balance a burst is answered in one statement,
 * not one refused statement per call). The charges still carry every guard of the single statement: should a count
 * have moved between the read and the write (another process), the statement refuses itself whole, and its charges
 * are then decided one by one through the single statement (never passing a limit).
 *
 * A charge waiting here obeys its caller's signal (a /v2 call's timeout): aborted before its statement is sent, it
 * leaves the group and is rejected with the signal's reason, with nothing stored or charged.
 */

const GROUP_MAX = 250;
const NO_LIMIT = 2_147_483_647;

type TWaiting = { input: TInstantRowInput; resolve: (row: TStoredInstant) => void; reject: (err: unknown) => void; signal?: AbortSignal; onAbort?: () => void };
type TPayerQueue = { waiting: TWaiting[] };

const dialect = new PgDialect();
const P = (name: string) => sql.placeholder(name);
const compiled = new Map<'plain' | 'app', { sql: string; params: unknown[] }>();

/**
 * The group statement: the same steps as the single statement (instant-charge.ts), for the first `k` charges of the
 * group, `k` being the room every count leaves (read on the payer's rows, locked first). It answers `accepted` (k)
 * and, when some were left out, `short_of` (member, balance, app_daily or app_life_time).
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
            select ${memberships.status} as status, o.credits_balance as balance,
                   coalesce(${capOn} - ${usedOn}, ${big}) as daily_room,
                   coalesce(${memberships.lifeTimeLimit} - ${memberships.lifeTimeUsed}, ${big}) as life_room
            from ${memberships} join organisations o on o.id = ${memberships.orgId}
            where ${memberships.userId} = ${userId} and ${memberships.orgId} = ${orgId}
            for update)${appRoomRead},
          k as (
            select coalesce((select greatest(0, least((select count(*)::int from x), p.balance, p.daily_room, p.life_room${appRoom}))
                             from p where p.status = 'active'), 0) as cnt),
          m as (
            update ${memberships} set daily_used = ${usedOn} + ${k}, daily_used_on = current_date, life_time_used = life_time_used + ${k}
            where user_id = ${userId} and org_id = ${orgId} and status = 'active' and ${k} > 0
              and (life_time_limit is null or life_time_used + ${k} <= life_time_limit)
              and (${capOn} is null or ${usedOn} + ${k} <= ${capOn})
            returning 1 as ok),
          o as (
            update organisations set credits_balance = credits_balance - ${k}
            where id = ${orgId} and credits_balance >= ${k} and exists (select 1 from m)
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
                 when not exists (select 1 from p where status = 'active') then 'member'
                 when (select least(daily_room, life_room) from p) <= ${k} then 'member'
                 when (select balance from p) <= ${k} then 'balance'
                 ${appShort}
               end as short_of`);
  compiled.set(kind, q);
  return q;
}

/**
 * Stores and charges as many of `group` (one payer's billable rows) as every count allows, in one statement: answers
 * the stored rows (the first ones of the group) and, for the rest, what they were short of. Rejects when the
 * statement refused itself whole (a count moved under it).
 */
async function storeGroupOnce(exec: TDb, group: TInstantRowInput[]): Promise<{ stored: TStoredInstant[]; shortOf: string | null }> {
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
  const answer = await sqlExecutorFor(exec).executeSql(q.sql, values);
  const row = answer.rows[0] as { accepted: number; short_of: string | null } | undefined;
  const accepted = Number(row?.accepted ?? 0);
  return {
    stored: group.slice(0, accepted).map((input, i) => ({ id: ids[i]!, result: input.result, billable: true, creditsCharged: 1 })),
    shortOf: row?.short_of ?? null,
  };
}

const payerKey = (input: TInstantRowInput) => `${input.orgId}|${input.userId}|${input.app?.id ?? ''}|${input.app?.day ?? ''}`;

/** One charger per database handle (each process has one): the payers with a statement in flight and who waits. */
type TCharger = (input: TInstantRowInput, signal?: AbortSignal) => Promise<TStoredInstant>;
const chargers = new WeakMap<TDb, TCharger>();

function createCharger(exec: TDb): TCharger {
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
    for (const w of group) if (w.onAbort) w.signal?.removeEventListener('abort', w.onAbort);
    if (group.length === 1) return settleAlone(group[0]!);
    try {
      const { stored, shortOf } = await storeGroupOnce(
        exec,
        group.map((w) => w.input),
      );
      stored.forEach((row, i) => group[i]!.resolve(row));
      const left = group.slice(stored.length);
      if (left.length > 0) {
        // Refused at once, with the reason that stopped them (read once for all of them, after the commit).
        const why = await explainChargeError(exec, left[0]!.input, new Error(`charge refused: ${shortOf ?? 'balance'}`)).catch((err: unknown) => err);
        for (const w of left) w.reject(why);
      }
    } catch (err) {
      // Refused as a whole (a count moved under it): nothing of it was stored, and each charge is decided on its own.
      if (isChargeRefusal(err)) for (const w of group) await settleAlone(w);
      // Any other failure (a lost connection): answered as it is, never retried (it may have been stored).
      else for (const w of group) w.reject(err);
    }
  };

  const drain = async (key: string, queue: TPayerQueue) => {
    while (queue.waiting.length > 0) await settleGroup(queue.waiting.splice(0, GROUP_MAX));
    inFlight.delete(key);
  };

  return (input, signal) =>
    new Promise<TStoredInstant>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const key = payerKey(input);
      const queue = inFlight.get(key);
      if (queue) {
        const w: TWaiting = { input, resolve, reject, signal };
        if (signal) {
          // Still waiting when the caller's deadline passes: out of the queue, nothing stored or charged.
          w.onAbort = () => {
            const at = queue.waiting.indexOf(w);
            if (at === -1) return;
            queue.waiting.splice(at, 1);
            reject(signal.reason);
          };
          signal.addEventListener('abort', w.onAbort, { once: true });
        }
        queue.waiting.push(w);
        return;
      }
      const fresh: TPayerQueue = { waiting: [{ input, resolve, reject }] };
      inFlight.set(key, fresh);
      void drain(key, fresh);
    });
}

/**
 * Stores an instant result and charges it when billable. Billable results of one payer that overlap in time are
 * grouped into one statement (see above); a free result is stored at once. Rejects with the error to answer, or with
 * `signal`'s reason when it aborts while the charge still waits for its statement (then nothing is stored).
 */
export function chargeInstantResult(exec: TDb, input: TInstantRowInput, signal?: AbortSignal): Promise<TStoredInstant> {
  if (!input.billable) return storeFree(exec, input);
  let charge = chargers.get(exec);
  if (!charge) {
    charge = createCharger(exec);
    chargers.set(exec, charge);
  }
  return charge(input, signal);
}

async function storeFree(exec: TDb, input: TInstantRowInput): Promise<TStoredInstant> {
  try {
    return await storeInstantResultOnce(exec, input);
  } catch (err) {
    throw await explainChargeError(exec, input, err);
  }
}
