import { fillPlaceholders, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { insufficientCreditsError, memberLimitError, sqlMemberDaily } from '../../platform/credits/ledger';
import { selectRows, sqlExecutorFor, type TDb } from '../../platform/db/database';
import { AppError } from '../../platform/errors/app-error';
import { createTtlCache } from '../../platform/cache/ttl-cache';
import { memberships } from '../../platform/tenancy/tables';

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

export type TStoredInstant = { id: string; result: Record<string, unknown>; billable: boolean; creditsCharged: number };

/** An app's credit limit refused the charge (nothing was stored or charged). */
export class AppCreditLimitRefused extends Error {
  constructor(readonly limit: 'daily' | 'life_time') {
    super(`The app's ${limit === 'daily' ? 'daily' : 'life-time'} credit limit is reached`);
    this.name = 'AppCreditLimitRefused';
  }
}

const REFUSED = /charge refused: (member|balance|app_daily|app_life_time)/;

/** Whether `err` is the database's refusal of a charge statement (nothing of the statement was stored). */
export function isChargeRefusal(err: unknown): boolean {
  return refusalOf(err) !== null;
}

function refusalOf(err: unknown): string | null {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth += 1) {
    const m = REFUSED.exec(String((e as { message?: unknown }).message ?? ''));
    if (m) return m[1]!;
  }
  return null;
}

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
          o as (
            update organisations set credits_balance = credits_balance - 1
            where id = ${orgId} and credits_balance >= 1 and exists (select 1 from m)
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
                   when not exists (select 1 from m) then verilead_refuse_charge('member')
                   when not exists (select 1 from o) then verilead_refuse_charge('balance')${appRefusal}
                 end as refused
          from (select 1) as one left join i on true`);
  }
  compiled.set(kind, q);
  return q;
}

/**
 * Stores an instant result and, when billable, charges it: ONE statement (one round trip, atomic by itself).
 * In order, each step only if the previous one passed:
 *   1. the member's daily and life-time limits (counted on the membership row, which it locks),
 *   2. the organisation's balance (decreased only if it covers the credit),
 *   3. the app's usage, life-time and today's (its row locked, so concurrent calls of one app count one after another),
 *   4. the result row, the ledger entry (balance after) and the product event.
 * A refused step (or an app usage past its credit limit) calls verilead_refuse_charge, whose error undoes the whole
 * statement; the reason is then read once more to answer the right error.
 */
export async function storeInstantResult(exec: TDb, input: TInstantRowInput): Promise<TStoredInstant> {
  try {
    return await storeInstantResultOnce(exec, input);
  } catch (err) {
    throw await explainChargeError(exec, input, err);
  }
}

/** The charge statement alone: a refusal rejects with the database's error (the statement undid itself). */
export async function storeInstantResultOnce(exec: TDb, input: TInstantRowInput): Promise<TStoredInstant> {
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
  const row = rows[0] as { id: string | null; result: Record<string, unknown> } | undefined;
  if (!row?.id) throw new Error('instant charge: no row stored');
  return { id: row.id, result: row.result, billable: input.billable, creditsCharged: input.billable ? 1 : 0 };
}

/** The error to answer for a failed charge statement: why it was refused (read again), or the error itself. */
export async function explainChargeError(exec: TDb, input: TInstantRowInput, err: unknown): Promise<unknown> {
  const reason = refusalOf(err);
  if (!reason) return err;
  if (reason === 'app_daily' || reason === 'app_life_time') return new AppCreditLimitRefused(reason === 'app_daily' ? 'daily' : 'life_time');
  return explainRefusal(exec, input.orgId, input.userId, reason);
}

type TPayer = { status: string; life_time_limit: number | null; life_time_used: number; cap: number | null; used: number; balance: number };

async function selectPayer(exec: TDb, orgId: string, userId: string): Promise<TPayer | null> {
  const { usedOn, capOn } = sqlMemberDaily(sql`current_date`);
  const rows = await selectRows<TPayer>(
    exec,
    sql`select ${memberships.status} as status, ${memberships.lifeTimeLimit} as life_time_limit, ${memberships.lifeTimeUsed} as life_time_used,
               ${capOn} as cap, (${usedOn})::int as used, o.credits_balance as balance
        from ${memberships} join organisations o on o.id = ${memberships.orgId}
        where ${memberships.userId} = ${userId} and ${memberships.orgId} = ${orgId} limit 1`,
  );
  return rows[0] ?? null;
}

/** The error that says why `m` cannot pay one credit, or null when it can. */
function refusalFor(m: TPayer | null): AppError | null {
  if (!m) return new AppError('not_found', 'Member not found');
  if (m.status !== 'active') return new AppError('account_inactive', 'Your account is not active. Please contact the owner of your organisation.');
  if (m.life_time_limit !== null && m.life_time_used + 1 > m.life_time_limit) return memberLimitError('life_time', 1, m.life_time_limit, Math.max(0, m.life_time_limit - m.life_time_used));
  if (m.cap !== null && m.used + 1 > m.cap) return memberLimitError('daily', 1, m.cap, Math.max(0, m.cap - m.used));
  if (m.balance < 1) return insufficientCreditsError(1 - Math.max(0, m.balance));
  return null;
}

/** Why the member or the organisation could not pay one credit (read after the refused statement). */
async function explainRefusal(exec: TDb, orgId: string, userId: string, reason: string): Promise<AppError> {
  const m = await selectPayer(exec, orgId, userId);
  return refusalFor(m) ?? (reason === 'member' ? memberLimitError('daily', 1, m?.cap ?? 0, 0) : insufficientCreditsError(1));
}

/** Payers with plenty of room (≥ ROOMY credits on every count): for a second, no need to ask again before verifying. */
const ROOMY = 50;
const roomyPayers = createTtlCache<true>({ max: 10_000, ttlMs: 1_000 });

/** Whether the payer was seen with plenty of room within the last second (then assertCanPayOne asks nothing). */
export function hasRoomToPay(orgId: string, userId: string): boolean {
  return roomyPayers.get(`${orgId}|${userId}`) === true;
}

/**
 * Before verifying (the SMTP work), whether the member could pay one credit: throws the same 402 the charge would.
 * Only a hint (the charge decides); a payer seen with plenty of room is not asked again for a second.
 */
export async function assertCanPayOne(exec: TDb, orgId: string, userId: string): Promise<void> {
  const key = `${orgId}|${userId}`;
  if (roomyPayers.get(key)) return;
  const m = await selectPayer(exec, orgId, userId);
  const refused = refusalFor(m);
  if (refused) throw refused;
  const room = Math.min(m!.balance, m!.cap === null ? Infinity : m!.cap - m!.used, m!.life_time_limit === null ? Infinity : m!.life_time_limit - m!.life_time_used);
  if (room >= ROOMY) roomyPayers.set(key, true);
}
