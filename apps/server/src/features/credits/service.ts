import type {
  TCreditStatusData,
  TCreditTransactionsData,
  TCreditsAndLimitsData,
  TUserCreditsData,
  ZCreditTransactionsQuery,
  ZCreditLedgerRowsQuery,
  TCreditLedgerData,
} from '@verilead/contracts';
import type { z } from 'zod';
import { getMemberLimits, getOrgBalance, insufficientCreditsError, memberLimitError } from '../../platform/credits/ledger';
import type { TDb } from '../../platform/db/database';
import { AppError } from '../../platform/errors/app-error';
import { parseDateEndExclusive, parseDateStart } from '../../platform/http/dates';
import { selectUserTimeZone } from '../../platform/tenancy/time-zone';
import type { TCallerContext } from '../../platform/tenancy/context';
import { selectOrgAlert, selectTransactions, selectUserAlert } from './queries';
import { selectLedgerGroupRows, selectLedgerGroups, toLedgerItem, type TLedgerFilter } from './ledger-groups';

/** Credits a member can spend now: the org balance capped by their remaining daily and life-time limits. */
function computeAvailable(balance: number, daily: number | null, lifeTime: number | null): number {
  return Math.min(balance, daily ?? Infinity, lifeTime ?? Infinity);
}

/**
 * Throws the 402 that says what stops a spend of `need` credits: the member's daily or life-time limit when that is
 * what binds (a member over their limit is not told the organisation is out of credits), else the balance.
 */
export async function assertCreditsAvailable(exec: TDb, ctx: TCallerContext, need: number): Promise<void> {
  const { credits, org_credits: balance, limits } = await getCreditsAndLimits(exec, ctx);
  if (credits >= need) return;
  if (balance >= need) {
    const daily = limits.daily.remaining;
    if (daily !== null && daily < need) throw memberLimitError('daily', need, limits.daily.limit, daily);
    const lifeTime = limits.life_time.remaining;
    if (lifeTime !== null && lifeTime < need) throw memberLimitError('life_time', need, limits.life_time.limit, lifeTime);
  }
  throw insufficientCreditsError(need - balance);
}

export async function getCreditsAndLimits(exec: TDb, ctx: TCallerContext): Promise<TCreditsAndLimitsData> {
  const [balance, limits, userAlert, orgAlert] = await Promise.all([
    getOrgBalance(exec, ctx.orgId),
    getMemberLimits(exec, ctx.orgId, ctx.userId),
    selectUserAlert(exec, ctx.userId),
    selectOrgAlert(exec, ctx.orgId),
  ]);
  return {
    credits: computeAvailable(balance, limits.daily.remaining, limits.life_time.remaining),
    org_credits: balance,
    limits,
    show_daily_limits: limits.daily.limit !== null,
    low_credit_alert: userAlert,
    org_low_credit_alert: orgAlert,
  };
}

/** The ledger: owners and managers see the whole organisation's rows, executives their own. */
export async function listTransactions(
  exec: TDb,
  ctx: TCallerContext,
  q: z.output<typeof ZCreditTransactionsQuery>,
): Promise<TCreditTransactionsData> {
  const timeZone = q.from || q.to ? await selectUserTimeZone(exec, ctx.userId) : 'UTC';
  const from = q.from ? parseDateStart(q.from, timeZone) : undefined;
  const toExclusive = q.to ? parseDateEndExclusive(q.to, timeZone) : undefined;
  if (from && toExclusive && from >= toExclusive) {
    throw new AppError('validation_failed', 'from must be before to', { reasons: [{ field: 'from', location: 'query', messages: ['from must be before to'] }] });
  }
  const { rows, total } = await selectTransactions(exec, {
    orgId: ctx.orgId,
    userId: ctx.role === 'analyst' ? ctx.userId : undefined,
    kind: q.kind,
    from,
    toExclusive,
    offset: (q.page - 1) * q.limit,
    limit: q.limit,
  });
  return {
    items: rows.map(({ t, userName }) => toLedgerItem(t, userName ?? null)),
    total,
    page: q.page,
    limit: q.limit,
  };
}

/** The ledger in lines (jobs, days of instant calls, single rows) and one line's rows; the same walls as the flat ledger. */
async function ledgerFilter(exec: TDb, ctx: TCallerContext, q: { from?: string; to?: string; kind?: string }): Promise<TLedgerFilter> {
  const timeZone = await selectUserTimeZone(exec, ctx.userId);
  const from = q.from ? parseDateStart(q.from, timeZone) : undefined;
  const toExclusive = q.to ? parseDateEndExclusive(q.to, timeZone) : undefined;
  if (from && toExclusive && from >= toExclusive) {
    throw new AppError('validation_failed', 'from must be before to', { reasons: [{ field: 'from', location: 'query', messages: ['from must be before to'] }] });
  }
  return { orgId: ctx.orgId, userId: ctx.role === 'analyst' ? ctx.userId : undefined, kind: q.kind, from, toExclusive, timeZone };
}

export async function listLedgerGroups(exec: TDb, ctx: TCallerContext, q: z.output<typeof ZCreditTransactionsQuery>): Promise<TCreditLedgerData> {
  return selectLedgerGroups(exec, await ledgerFilter(exec, ctx, q), q.page, q.limit);
}

export async function listLedgerGroupRows(exec: TDb, ctx: TCallerContext, q: z.output<typeof ZCreditLedgerRowsQuery>): Promise<TCreditTransactionsData> {
  return selectLedgerGroupRows(exec, await ledgerFilter(exec, ctx, {}), q.key, q.page, q.limit);
}

export async function checkCreditStatus(exec: TDb, ctx: TCallerContext): Promise<TCreditStatusData> {
  const c = await getCreditsAndLimits(exec, ctx);
  const alert = c.low_credit_alert.enabled ? c.low_credit_alert : c.org_low_credit_alert;
  return {
    credits: c.credits,
    has_credits: c.credits > 0,
    low_credit: c.credits <= alert.threshold,
    threshold: alert.threshold,
    daily_remaining: c.limits.daily.remaining,
    life_time_remaining: c.limits.life_time.remaining,
  };
}

export async function getUserCredits(exec: TDb, ctx: TCallerContext): Promise<TUserCreditsData> {
  const c = await getCreditsAndLimits(exec, ctx);
  return { credits: c.org_credits, available: c.credits, daily_remaining: c.limits.daily.remaining, life_time_remaining: c.limits.life_time.remaining };
}
