import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { TCreditTransactionKind, TErrorCode, TMemberLimits, TSourceAgent } from '@verilead/contracts';
import { selectRows, type TDatabase, type TDb } from '../db/database';
import { AppError, isAppError } from '../errors/app-error';
import { memberships, organisations } from '../tenancy/tables';
import { creditTransactions } from './tables';

export type TLedgerEntryInput = {
  orgId: string;
  userId?: string | null;
  amount: number;
  reason: string;
  sourceAgent?: TSourceAgent | null;
  objectType?: string | null;
  objectId?: string | null;
  /** The member's day (YYYY-MM-DD) for daily limits; defaults to the database's current_date (tests inject it). */
  today?: string;
};

export type TLedgerResult = { transactionId: string; balanceAfter: number };

function assertAmount(amount: number) {
  if (!Number.isInteger(amount) || amount <= 0) throw new Error(`credit amount must be a positive integer, got ${amount}`);
}

async function insertEntry(tx: TDb, kind: TCreditTransactionKind, input: TLedgerEntryInput, balanceAfter: number): Promise<TLedgerResult> {
  const rows = await tx
    .insert(creditTransactions)
    .values({
      orgId: input.orgId,
      userId: input.userId ?? null,
      kind,
      amount: input.amount,
      reason: input.reason,
      sourceAgent: input.sourceAgent ?? null,
      objectType: input.objectType ?? null,
      objectId: input.objectId ?? null,
      balanceAfter,
    })
    .returning({ id: creditTransactions.id });
  return { transactionId: rows[0]!.id, balanceAfter };
}

/** The day a daily limit is counted on: an injected YYYY-MM-DD or the database's current_date. */
export function sqlDay(today?: string): SQL {
  return today ? sql`${today}::date` : sql`current_date`;
}

/**
 * The member's daily figures on `day`, as SQL over the memberships row:
 * - usedOn: credits used that day (the counter restarts each day);
 * - limitOn: the daily limit in force that day (a pending change applies from its day);
 * - capOn: the allowance that day — today's directly set cap ("remaining daily limit") if set for that day, else limitOn.
 */
export function sqlMemberDaily(day: SQL) {
  const usedOn = sql`(case when ${memberships.dailyUsedOn} = ${day} then ${memberships.dailyUsed} else 0 end)`;
  const limitOn = sql`(case when ${memberships.dailyLimitNextFrom} is not null and ${memberships.dailyLimitNextFrom} <= ${day} then ${memberships.dailyLimitNext} else ${memberships.dailyLimit} end)`;
  const capOn = sql`(case when ${memberships.dailyCapOn} = ${day} then ${memberships.dailyCap} else ${limitOn} end)`;
  return { usedOn, limitOn, capOn };
}

/**
 * Charges `amount` credits to the organisation inside the caller's transaction `tx`.
 * The member's daily and life-time limits are checked and counted first (one conditional UPDATE
 * on the membership row), then the balance is decreased only if it covers the amount (a
 * conditional UPDATE; the CHECK constraint backs it). Any failure throws and rolls the transaction back.
 */
export async function chargeCredits(tx: TDb, input: TLedgerEntryInput): Promise<TLedgerResult> {
  assertAmount(input.amount);
  const n = input.amount;
  if (input.userId) {
    const day = sqlDay(input.today);
    const { usedOn, capOn } = sqlMemberDaily(day);
    const updated = await tx
      .update(memberships)
      .set({
        dailyUsed: sql`${usedOn} + ${n}`,
        dailyUsedOn: sql`${day}`,
        lifeTimeUsed: sql`${memberships.lifeTimeUsed} + ${n}`,
      })
      .where(
        and(
          eq(memberships.userId, input.userId),
          eq(memberships.orgId, input.orgId),
          eq(memberships.status, 'active'),
          sql`(${memberships.lifeTimeLimit} is null or ${memberships.lifeTimeUsed} + ${n} <= ${memberships.lifeTimeLimit})`,
          sql`(${capOn} is null or ${usedOn} + ${n} <= ${capOn})`,
        ),
      )
      .returning({ id: memberships.id });
    if (updated.length === 0) {
      const rows = await selectRows<{ status: string; life_time_limit: number | null; life_time_used: number; cap: number | null; used: number }>(
        tx,
        sql`select ${memberships.status} as status, ${memberships.lifeTimeLimit} as life_time_limit, ${memberships.lifeTimeUsed} as life_time_used,
                   ${capOn} as cap, (${usedOn})::int as used
            from ${memberships} where ${memberships.userId} = ${input.userId} and ${memberships.orgId} = ${input.orgId} limit 1`,
      );
      const m = rows[0];
      if (!m) throw new AppError('not_found', 'Member not found');
      if (m.status !== 'active') {
        throw new AppError('account_inactive', 'Your account is not active. Please contact the owner of your organisation.');
      }
      if (m.life_time_limit !== null && m.life_time_used + n > m.life_time_limit) {
        const remaining = Math.max(0, m.life_time_limit - m.life_time_used);
        throw memberLimitError('life_time', n, m.life_time_limit, remaining);
      }
      const remaining = Math.max(0, (m.cap ?? 0) - m.used);
      throw memberLimitError('daily', n, m.cap, remaining);
    }
  }
  const rows = await tx
    .update(organisations)
    .set({ creditsBalance: sql`${organisations.creditsBalance} - ${n}` })
    .where(and(eq(organisations.id, input.orgId), sql`${organisations.creditsBalance} >= ${n}`))
    .returning({ balance: organisations.creditsBalance });
  const balance = rows[0]?.balance;
  if (balance === undefined) {
    const current = await tx.select({ balance: organisations.creditsBalance }).from(organisations).where(eq(organisations.id, input.orgId)).limit(1);
    const have = current[0]?.balance ?? 0;
    throw insufficientCreditsError(n - have);
  }
  return insertEntry(tx, 'charge', input, balance);
}

async function addCredits(tx: TDb, kind: 'grant' | 'purchase' | 'refund', input: TLedgerEntryInput): Promise<TLedgerResult> {
  assertAmount(input.amount);
  const rows = await tx
    .update(organisations)
    .set({ creditsBalance: sql`${organisations.creditsBalance} + ${input.amount}` })
    .where(eq(organisations.id, input.orgId))
    .returning({ balance: organisations.creditsBalance });
  const balance = rows[0]?.balance;
  if (balance === undefined) throw new AppError('not_found', 'Organisation not found');
  return insertEntry(tx, kind, input, balance);
}

/** Adds free credits (sign-up bonus, demo, support). */
export function grantCredits(tx: TDb, input: TLedgerEntryInput): Promise<TLedgerResult> {
  return addCredits(tx, 'grant', input);
}

/** Adds paid credits. */
export function purchaseCredits(tx: TDb, input: TLedgerEntryInput): Promise<TLedgerResult> {
  return addCredits(tx, 'purchase', input);
}

/** Gives charged credits back and lowers the member's usage counters accordingly. */
export async function refundCredits(tx: TDb, input: TLedgerEntryInput): Promise<TLedgerResult> {
  assertAmount(input.amount);
  if (input.userId) {
    const day = sqlDay(input.today);
    const { usedOn } = sqlMemberDaily(day);
    await tx
      .update(memberships)
      .set({
        dailyUsed: sql`greatest(0, ${usedOn} - ${input.amount})`,
        dailyUsedOn: sql`${day}`,
        lifeTimeUsed: sql`greatest(0, ${memberships.lifeTimeUsed} - ${input.amount})`,
      })
      .where(and(eq(memberships.userId, input.userId), eq(memberships.orgId, input.orgId)));
  }
  return addCredits(tx, 'refund', input);
}

/** Opens a transaction and charges in it. */
export function chargeCreditsNow(database: TDatabase, input: TLedgerEntryInput): Promise<TLedgerResult> {
  return database.transaction((tx) => chargeCredits(tx, input));
}

export async function getOrgBalance(exec: TDb, orgId: string): Promise<number> {
  const rows = await exec.select({ balance: organisations.creditsBalance }).from(organisations).where(eq(organisations.id, orgId)).limit(1);
  return rows[0]?.balance ?? 0;
}

/**
 * The member's limits with today's and life-time usage (null limit = unlimited). The daily limit is
 * today's allowance: a directly set remaining allowance counts for today, a changed limit from its day.
 */
export async function getMemberLimits(exec: TDb, orgId: string, userId: string, today?: string): Promise<TMemberLimits> {
  const { usedOn, capOn } = sqlMemberDaily(sqlDay(today));
  const rows = await selectRows<{ daily_limit: number | null; life_time_limit: number | null; daily_used: number; life_time_used: number }>(
    exec,
    sql`select ${capOn} as daily_limit, ${memberships.lifeTimeLimit} as life_time_limit,
               (${usedOn})::int as daily_used, ${memberships.lifeTimeUsed} as life_time_used
        from ${memberships} where ${memberships.orgId} = ${orgId} and ${memberships.userId} = ${userId} limit 1`,
  );
  const m = rows[0] ?? { daily_limit: null, life_time_limit: null, daily_used: 0, life_time_used: 0 };
  const usage = (limit: number | null, used: number) => ({ limit, used, remaining: limit === null ? null : Math.max(0, limit - used) });
  return { daily: usage(m.daily_limit, m.daily_used), life_time: usage(m.life_time_limit, m.life_time_used) };
}

/** Sets a member's limits at once (tooling, tests; team administration schedules daily changes instead). */
export async function setMemberLimits(exec: TDb, orgId: string, userId: string, limits: { daily?: number | null; lifeTime?: number | null }) {
  const daily = limits.daily === undefined ? {} : { dailyLimit: limits.daily, dailyLimitNext: null, dailyLimitNextFrom: null, dailyCap: null, dailyCapOn: null };
  await exec
    .update(memberships)
    .set({ ...daily, lifeTimeLimit: limits.lifeTime })
    .where(and(eq(memberships.orgId, orgId), eq(memberships.userId, userId)));
}

/** The refusal (402 at the edge) when a member's own daily or life-time limit (not the organisation's balance) stops a charge of `need` credits. */
export function memberLimitError(kind: 'daily' | 'life_time', need: number, limit: number | null, remaining: number): AppError {
  const message =
    kind === 'daily'
      ? 'Your daily credit limit is reached. It resets at the start of the next day.'
      : 'Your life-time credit limit is reached. Ask your account owner to raise it.';
  return new AppError(kind === 'daily' ? 'daily_limit_exceeded' : 'life_time_limit_exceeded', message, {
    additional_info: { required_credits: need - remaining, limit_type: kind, limit, remaining },
  });
}

/** The refusal (402 at the edge) when the organisation's balance is short by `short` credits. */
export function insufficientCreditsError(short: number): AppError {
  return new AppError('insufficient_credits', `You have exhausted your credits, please add additional ${short} credits to continue`, {
    additional_info: { required_credits: short },
  });
}

const OUT_OF_CREDITS_CODES: ReadonlySet<TErrorCode> = new Set(['insufficient_credits', 'daily_limit_exceeded', 'life_time_limit_exceeded']);

/** True for the ledger's "cannot pay" refusals: the organisation's balance is short or a member's own limit is reached. */
export function isOutOfCredits(err: unknown): err is AppError {
  return isAppError(err) && OUT_OF_CREDITS_CODES.has(err.code);
}
