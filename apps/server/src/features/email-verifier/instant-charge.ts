import { insufficientCreditsError, memberLimitError, suspendedChargeError } from '../../platform/credits/ledger';
import type { TDb } from '../../platform/db/database';
import { AppError } from '../../platform/errors/app-error';
import { createTtlCache } from '../../platform/cache/ttl-cache';
import { insertInstantRow, selectPayer, type TChargeApp, type TInstantRowInput, type TPayer } from './instant-charge-queries';

export type { TChargeApp, TInstantRowInput };

export type TStoredInstant = { id: string; result: Record<string, unknown>; billable: boolean; creditsCharged: number };

/** An app's credit limit refused the charge (nothing was stored or charged). */
export class AppCreditLimitRefused extends Error {
  constructor(readonly limit: 'daily' | 'life_time') {
    super(`The app's ${limit === 'daily' ? 'daily' : 'life-time'} credit limit is reached`);
    this.name = 'AppCreditLimitRefused';
  }
}

const REFUSED = /charge refused: (member|balance|app_daily|app_life_time|suspended_organisation|suspended_user)/;

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

/**
 * Stores an instant result and, when billable, charges it: ONE statement (one round trip, atomic by itself).
 * In order, each step only if the previous one passed:
 *   1. the member's daily and life-time limits (counted on the membership row, which it locks),
 *   2. the member not suspended (their user row share-locked, as the ledger does: an operator's suspension waits for
 *      the charge, and a charge after it sees it),
 *   3. the organisation's balance, decreased only if it covers the credit and the organisation is not suspended
 *      (re-checked on the row a suspension just changed),
 *   4. the app's usage, life-time and today's (its row locked, so concurrent calls of one app count one after another),
 *   5. the result row, the ledger entry (balance after) and the product event.
 * A refused step (or an app usage past its credit limit) calls verilead_refuse_charge, whose error undoes the whole
 * statement; a suspension is answered as the ledger answers it (`account_suspended`), any other reason is read once
 * more to answer the right error.
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
  const row = await insertInstantRow(exec, input);
  if (!row?.id) throw new Error('instant charge: no row stored');
  return { id: row.id, result: row.result, billable: input.billable, creditsCharged: input.billable ? 1 : 0 };
}

/** The error to answer for a failed charge statement: why it was refused (read again), or the error itself. */
export async function explainChargeError(exec: TDb, input: TInstantRowInput, err: unknown): Promise<unknown> {
  const reason = refusalOf(err);
  if (!reason) return err;
  if (reason === 'app_daily' || reason === 'app_life_time') return new AppCreditLimitRefused(reason === 'app_daily' ? 'daily' : 'life_time');
  if (reason === 'suspended_organisation' || reason === 'suspended_user') return suspendedChargeError(reason === 'suspended_organisation' ? 'organisation' : 'user');
  return explainRefusal(exec, input.orgId, input.userId, reason);
}

/** The error that says why `m` cannot pay one credit, or null when it can. */
function refusalFor(m: TPayer | null): AppError | null {
  if (!m) return new AppError('not_found', 'Member not found');
  // a suspension is told before a limit, as the ledger tells it
  if (m.suspended) return suspendedChargeError(m.suspended);
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
