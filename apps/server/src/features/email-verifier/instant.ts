import {
  EMAIL_VERIFIER_EVENTS,
  SAFE_TO_SEND_WINDOW_HOURS,
  type TInstantSource,
  type TInstantVerifyData,
  type TPublicVerifyData,
  type TRecentInstantData,
  type TVerificationResult,
} from '@verilead/contracts';
import type { TDatabase, TDb } from '../../platform/db/database';
import type { TCallerContext } from '../../platform/tenancy/context';
import type { TVerifier } from '../../platform/verifier/verifier';
import { getVerifierPreferences } from '../settings';
import { selectRecentInstant } from './queries';
import { assertCanPayOne, hasRoomToPay, type TChargeApp } from './instant-charge';
import { chargeInstantResult } from './instant-charge-batch';
import { isBillable } from './list-view';
import { addCatchAllScores } from './catch-all-evidence';
import { overlayBounce, selectHardBounces } from '../../platform/bounces/read';

function addHours(iso: string, hours: number): string {
  const t = Date.parse(iso);
  return new Date((Number.isNaN(t) ? Date.now() : t) + hours * 3_600_000).toISOString();
}

function toInstantView(row: { id: string; result: Record<string, unknown>; billable: boolean; creditsCharged: number }): TInstantVerifyData {
  const result = row.result as unknown as TVerificationResult;
  return { ...result, id: row.id, billable: row.billable, credits_charged: row.creditsCharged, safe_to_send_until: addHours(result.verified_on, SAFE_TO_SEND_WINDOW_HOURS) };
}

/** How long an instant check without a time limit of its own waits for a paused mail host. */
export const INSTANT_PAUSE_WAIT_MS = 30_000;

/** POST /email_verify/instant: verifies, then stores the result, charges it (valid/invalid/catch_all) and records the event in one statement. */
export type TInstantOptions = {
  /**
   * Cancels the call (a caller's timeout). Until the charge's statement is sent (a charge may wait for its payer's
   * statement in flight), a cancelled call rejects with the signal's reason and stores and charges nothing; once the
   * statement is sent it completes, and the result is answered.
   */
  signal?: AbortSignal;
  /**
   * The signal carries the call's own time limit (the /v2 `timeout`): a paused mail host is waited for up to it.
   * Otherwise (the app's single check, whose signal is only its client leaving) at most INSTANT_PAUSE_WAIT_MS.
   */
  timeLimited?: boolean;
  /** The API app the call came through: its usage and credit limit move in the charge itself (AppCreditLimitRefused). */
  app?: TChargeApp;
};

/**
 * Round trips: the preferences (cached a few seconds), a credit check that runs while the address is verified (skipped
 * for a second after a payer is seen with plenty of room), and one statement that stores and charges.
 */
export async function verifyInstant(
  database: TDatabase,
  verifier: TVerifier,
  ctx: TCallerContext,
  email: string,
  options: TInstantOptions = {},
): Promise<TInstantVerifyData> {
  // A call without its own time limit (the app's single check) waits at most INSTANT_PAUSE_WAIT_MS for a mail host an
  // operator paused, then answers unknown / smtp_timeout (not billable); a call with one (/v2 `timeout`) waits up to it.
  const prefs = { ...(await getVerifierPreferences(database.db, ctx)), ...(options.timeLimited ? {} : { pauseWaitMs: INSTANT_PAUSE_WAIT_MS }) };
  let result: TVerificationResult;
  if (hasRoomToPay(ctx.orgId, ctx.userId)) {
    // Seen with plenty of room within the second: nothing to check, and the verification answers the caller's signal.
    result = await verifier.verify(email, { ...prefs, signal: options.signal });
  } else {
    // The credit check runs beside the verification: when it refuses, the verification is cancelled.
    const stop = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
    const check = assertCanPayOne(database.db, ctx.orgId, ctx.userId).catch((err: unknown) => {
      stop.abort(err);
      throw err;
    });
    // A cancelled verification rejects at once with the signal's reason (the caller's timeout, or the refused check).
    const verifying = verifier.verify(email, { ...prefs, signal });
    check.catch(() => undefined);
    result = await verifying.catch(async (err: unknown) => {
      await check; // the credit check's refusal, when it is what stopped the verification
      throw err;
    });
    await check;
  }
  if (options.signal?.aborted) throw options.signal.reason;
  // A catch_all verdict is scored from this organisation's evidence before it is stored (the score is part of the result).
  if (result.status === 'catch_all') [result] = (await addCatchAllScores(database.db, ctx.orgId, [result])) as [TVerificationResult];
  const row = await chargeInstantResult(database.db, {
    orgId: ctx.orgId,
    userId: ctx.userId,
    email: result.email,
    status: result.status,
    source: ctx.via === 'session' ? 'app' : 'api',
    result: result as unknown as Record<string, unknown>,
    billable: isBillable(result),
    event: {
      type: EMAIL_VERIFIER_EVENTS.instantCompleted,
      payload: { email: result.email, status: result.status, reason: result.reason.code, safe_to_send: result.safe_to_send },
    },
    app: options.app,
  }, options.signal);
  return toInstantView(row);
}

export async function listRecentInstant(exec: TDb, ctx: TCallerContext, limit: number, source?: TInstantSource): Promise<TRecentInstantData> {
  const rows = await selectRecentInstant(exec, { orgId: ctx.orgId, userId: ctx.userId, limit, source });
  // An address that hard-bounced for the organisation since reads invalid, with the bounce (issue 32).
  const bounced = await selectHardBounces(exec, ctx.orgId, rows.map((r) => r.email));
  return { items: rows.map((r) => overlayBounce(toInstantView(r), bounced.get(r.email.toLowerCase()))) };
}

/** POST /public/verify: no account, nothing stored or charged (the route is rate-limited per IP). */
export async function verifyPublic(verifier: TVerifier, email: string): Promise<TPublicVerifyData> {
  const result = await verifier.verify(email, { mode: 'fastest_turnaround' });
  return { ...result, safe_to_send_until: addHours(result.verified_on, SAFE_TO_SEND_WINDOW_HOURS) };
}
