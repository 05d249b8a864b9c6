import { PUBLIC_API_ERROR_CODES as CODES, type TVerificationResult } from '@verilead/contracts';
import type { TDeps } from '../../../platform/deps';
import type { TVerifier } from '../../../platform/verifier/verifier';
import { verifyInstant, AppCreditLimitRefused } from '../../email-verifier';
import { findTestVerdict } from '../public-api-format';
import { checkAppCreditLimit, getUtcDay, recordAppUsage, type TAppCaller } from '../service';
import { DAILY_LIMIT, fail, LIFE_TIME_LIMIT, mapServiceError } from './errors';

const DEFAULT_TIMEOUT_MS = 130_000;


/** 200 with the daily-limit code when the app's credit limit leaves no room (checked on what this process knows). */
export async function requireAppCreditRoom(deps: TDeps, c: TAppCaller, credits = 1): Promise<void> {
  const reached = await checkAppCreditLimit(deps.database.db, c.app, credits);
  if (reached === 'daily') throw fail(200, CODES.dailyLimit, DAILY_LIMIT);
  if (reached === 'life_time') throw fail(200, CODES.dailyLimit, LIFE_TIME_LIMIT);
}

/**
 * One /v2 verification: a test address's fixed verdict (free), or the product's instant verification billed by its
 * rule, the charge, the app's usage and its credit limit in one statement.
 *
 * Timeouts (documented in the README): the call's `timeout` cancels the verification. A 524 is answered only when
 * nothing was stored or charged; a call whose charge had begun completes and answers its result. `signal` (the client
 * gone, an MCP call cancelled) cancels it the same way.
 */
export async function verifyForApp(deps: TDeps, verifier: TVerifier, c: TAppCaller, input: { email: string; timeout?: number; signal?: AbortSignal }): Promise<TVerificationResult> {
  const test = findTestVerdict(input.email);
  if (test) {
    await recordAppUsage(deps.database.db, c.app, 0);
    return test;
  }
  // A life-time limit already passed is known without a query; the charge itself is what holds the limit.
  if (c.app.creditLimit?.type === 'life_time') await requireAppCreditRoom(deps, c);
  // The reason the call's own timeout cancels its verification with (a plain object: no stack trace taken per call).
  const timeout = { timeout: 'Timeout Occurred' };
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(timeout), input.timeout ?? DEFAULT_TIMEOUT_MS);
  try {
    const signal = input.signal ? AbortSignal.any([controller.signal, input.signal]) : controller.signal;
    const result = await verifyInstant(deps.database, verifier, c.ctx, input.email, { signal, timeLimited: true, app: { id: c.app.id, day: getUtcDay() } });
    if (result.credits_charged === 0) await recordAppUsage(deps.database.db, c.app, 0);
    return result;
  } catch (err) {
    if (err === timeout) throw fail(524, null, 'Timeout Occurred', { additional_info: { resource_name: 'email', resource_value: input.email } });
    if (err instanceof AppCreditLimitRefused) throw fail(200, CODES.dailyLimit, err.limit === 'daily' ? DAILY_LIMIT : LIFE_TIME_LIMIT);
    return mapServiceError(err);
  } finally {
    clearTimeout(timer);
  }
}
