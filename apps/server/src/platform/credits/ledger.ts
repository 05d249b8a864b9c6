import type { TCreditTransactionKind, TErrorCode, TMemberLimits, TSourceAgent } from '@verilead/contracts';
import type { TDatabase, TDb } from '../db/database';
import { AppError, isAppError } from '../errors/app-error';
import { PAUSED_ORG_SUSPENDED, PAUSED_USER_SUSPENDED } from '../tenancy/suspension-queries';
import {
  countMemberUsage,
  lockActiveUser,
  selectSuspension,
  creditOrgBalance,
  debitOrgBalance,
  insertLedgerEntry,
  lowerMemberUsage,
  selectMemberChargeState,
  selectMemberLimitsRow,
  selectOrgBalance,
  updateMemberLimits,
} from './ledger-queries';

export { sqlDay, sqlMemberDaily } from './ledger-queries';

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
  /**
   * An operator's own adjustment (the console's credit removal): charged even while the organisation or member is
   * suspended. Every other charge is refused then (`suspendedChargeError`).
   */
  whileSuspended?: boolean;
};

export type TLedgerResult = { transactionId: string; balanceAfter: number };

function assertAmount(amount: number) {
  if (!Number.isInteger(amount) || amount <= 0) throw new Error(`credit amount must be a positive integer, got ${amount}`);
}

async function insertEntry(tx: TDb, kind: TCreditTransactionKind, input: TLedgerEntryInput, balanceAfter: number): Promise<TLedgerResult> {
  const transactionId = await insertLedgerEntry(tx, {
    orgId: input.orgId,
    userId: input.userId ?? null,
    kind,
    amount: input.amount,
    reason: input.reason,
    sourceAgent: input.sourceAgent ?? null,
    objectType: input.objectType ?? null,
    objectId: input.objectId ?? null,
    balanceAfter,
  });
  return { transactionId, balanceAfter };
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
  // Nothing is charged to a suspended organisation or member (unless an operator's own adjustment), checked where the
  // charge locks their rows (the member's share lock, the balance's conditional UPDATE): an operator's suspension waits
  // for a charge under way, and a charge after it sees it, so a job that read the account as active before a
  // suspension cannot slip a charge in after it. Its work then waits (platform/jobs pauses a job refused this way).
  const activeOnly = !input.whileSuspended;
  if (input.userId) {
    const counted = await countMemberUsage(tx, { orgId: input.orgId, userId: input.userId, n, today: input.today });
    if (!counted) {
      const m = await selectMemberChargeState(tx, { orgId: input.orgId, userId: input.userId, today: input.today });
      if (!m) throw new AppError('not_found', 'Member not found');
      // a suspension is told before a limit: the work waits for the restore instead of stopping
      const suspended = activeOnly ? await selectSuspension(tx, input.orgId, input.userId) : null;
      if (suspended) throw suspendedChargeError(suspended);
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
  if (activeOnly && input.userId && !(await lockActiveUser(tx, input.userId))) throw suspendedChargeError('user');
  const balance = await debitOrgBalance(tx, input.orgId, n, { activeOnly });
  if (balance === undefined) {
    if (activeOnly && (await selectSuspension(tx, input.orgId, null)) === 'organisation') throw suspendedChargeError('organisation');
    const have = await selectOrgBalance(tx, input.orgId);
    throw insufficientCreditsError(n - have);
  }
  return insertEntry(tx, 'charge', input, balance);
}

async function addCredits(tx: TDb, kind: 'grant' | 'purchase' | 'refund', input: TLedgerEntryInput): Promise<TLedgerResult> {
  assertAmount(input.amount);
  const balance = await creditOrgBalance(tx, input.orgId, input.amount);
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
    await lowerMemberUsage(tx, { orgId: input.orgId, userId: input.userId, amount: input.amount, today: input.today });
  }
  return addCredits(tx, 'refund', input);
}

/** Opens a transaction and charges in it. */
export function chargeCreditsNow(database: TDatabase, input: TLedgerEntryInput): Promise<TLedgerResult> {
  return database.transaction((tx) => chargeCredits(tx, input));
}

export function getOrgBalance(exec: TDb, orgId: string): Promise<number> {
  return selectOrgBalance(exec, orgId);
}

/**
 * The member's limits with today's and life-time usage (null limit = unlimited). The daily limit is
 * today's allowance: a directly set remaining allowance counts for today, a changed limit from its day.
 */
export async function getMemberLimits(exec: TDb, orgId: string, userId: string, today?: string): Promise<TMemberLimits> {
  const row = await selectMemberLimitsRow(exec, orgId, userId, today);
  const m = row ?? { daily_limit: null, life_time_limit: null, daily_used: 0, life_time_used: 0 };
  const usage = (limit: number | null, used: number) => ({ limit, used, remaining: limit === null ? null : Math.max(0, limit - used) });
  return { daily: usage(m.daily_limit, m.daily_used), life_time: usage(m.life_time_limit, m.life_time_used) };
}

/** Sets a member's limits at once (tooling, tests; team administration schedules daily changes instead). */
export async function setMemberLimits(exec: TDb, orgId: string, userId: string, limits: { daily?: number | null; lifeTime?: number | null }) {
  const daily = limits.daily === undefined ? {} : { dailyLimit: limits.daily, dailyLimitNext: null, dailyLimitNextFrom: null, dailyCap: null, dailyCapOn: null };
  await updateMemberLimits(exec, orgId, userId, { ...daily, lifeTimeLimit: limits.lifeTime });
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

/** The refusal of a charge to a suspended organisation or member (`account_suspended`): the work waits, nothing is charged. */
export function suspendedChargeError(who: 'organisation' | 'user'): AppError {
  return new AppError('account_suspended', who === 'organisation' ? PAUSED_ORG_SUSPENDED : PAUSED_USER_SUSPENDED, { additional_info: { suspended: who } });
}

/** True for the ledger's refusal of a charge to a suspended organisation or member. */
export function isSuspendedCharge(err: unknown): err is AppError {
  return isAppError(err) && err.code === 'account_suspended';
}

const OUT_OF_CREDITS_CODES: ReadonlySet<TErrorCode> = new Set(['insufficient_credits', 'daily_limit_exceeded', 'life_time_limit_exceeded']);

/** True for the ledger's "cannot pay" refusals: the organisation's balance is short or a member's own limit is reached. */
export function isOutOfCredits(err: unknown): err is AppError {
  return isAppError(err) && OUT_OF_CREDITS_CODES.has(err.code);
}
