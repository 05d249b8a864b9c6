import {
  FORM_GUARD_CREDITS_PER_FIELD,
  FORM_GUARD_ERROR_CODES,
  FORM_GUARD_EVENTS,
  FORM_GUARD_LIMIT_WINDOW_SECONDS,
  formGuardMessageFor,
  PUBLIC_API_ERROR_CODES,
  isUrlAllowed,
  resolveDateRange,
  type TFormGuardLimit,
  type TFormGuardSettings,
  type TFormGuardValidation,
  type TFormGuardWidgetConfig,
  type TJsWidgetUsageData,
  type ZFormGuardValidateRequest,
  type ZJsWidgetUsageRequest,
} from '@verilead/contracts';
import type { z } from 'zod';
import { chargeCredits, isOutOfCredits } from '../../platform/credits/ledger';
import type { TDatabase, TDb } from '../../platform/db/database';
import type { TCallerContext } from '../../platform/tenancy/context';
import { selectUserTimeZone } from '../../platform/tenancy/time-zone';
import { parseDateEndExclusive, parseDateStart } from '../../platform/http/dates';
import type { TVerifier } from '../../platform/verifier/verifier';
import { AppCreditLimitReached, chargeAppUsage, getApp, getVisibleAppIds, resolveAppToken, type TAppCaller } from '../developer';
import { recordEvent } from '../events';
import { findTestAddress, isBillableVerdict, judgeEmail, judgeName, judgePhone, type TJudgement } from './judge';
import { bumpCounter, insertCheck, selectCheck, selectCounts, selectUsage, setCheckCredits, type TCheckRow, type TCounterKey } from './queries';

/** A refusal of a widget call, answered in the public API's envelope with its HTTP status and code. */
export class FormGuardError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly code: number,
    message: string,
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
    this.name = 'FormGuardError';
  }
}

export type TGuard = TAppCaller & { settings: TFormGuardSettings; origin: string };

/**
 * The guard behind a client token called from `origin` on page `pageUrl`: the token must be a live client app with
 * form guard settings, the origin one of the app's allowed origins and the page one of the guard's allowed URLs.
 */
export async function authenticateGuard(exec: TDb, token: string, origin: string | undefined, pageUrl: string | undefined): Promise<TGuard> {
  const found = token ? await resolveAppToken(exec, token) : null;
  if (!found) throw new FormGuardError(401, PUBLIC_API_ERROR_CODES.invalidToken, 'Invalid API Token, please generate new token');
  const settings = found.app.formGuard;
  if (found.app.type !== 'client' || !settings) throw new FormGuardError(403, FORM_GUARD_ERROR_CODES.notFormGuard, 'This token is not a form guard token');
  if (!origin || !found.app.allowedOrigins.includes(origin)) {
    throw new FormGuardError(403, FORM_GUARD_ERROR_CODES.badOrigin, 'This site is not allowed to use this form guard; add its origin to the guard');
  }
  if (settings.allowed_urls.length > 0 && (!pageUrl || !isUrlAllowed(settings.allowed_urls, pageUrl))) {
    throw new FormGuardError(403, FORM_GUARD_ERROR_CODES.urlNotAllowed, 'This page is not one of the form guard\'s allowed pages');
  }
  return { ...found, settings, origin };
}

/** What the widget needs: fields, messages, timeout and whether a timeout blocks. */
export function getWidgetConfig(guard: TGuard): TFormGuardWidgetConfig {
  const s = guard.settings;
  return {
    fields: s.fields,
    validate_on_blur: s.validate_on_blur,
    messages: s.messages,
    timeout_ms: s.timeout_ms,
    block_on_timeout: s.block_on_timeout,
    default_country: s.phone.default_country,
  };
}

/** The counter windows a check counts in, one per limit. */
export function getLimitKeys(limits: readonly TFormGuardLimit[], ip: string, nowMs: number): { limit: TFormGuardLimit; key: TCounterKey }[] {
  return limits.map((limit) => {
    const seconds = limit.window === 'life_time' ? 0 : FORM_GUARD_LIMIT_WINDOW_SECONDS[limit.window];
    const nowS = Math.floor(nowMs / 1000);
    const windowStart = seconds === 0 ? 0 : Math.floor(nowS / seconds) * seconds;
    return { limit, key: { scopeKey: limit.scope === 'ip' ? `ip:${ip}` : '*', window: limit.window, windowStart } };
  });
}

class LimitReached extends Error {
  constructor(readonly retryAfterSeconds: number | null) {
    super('limit reached');
  }
}

function limitError(retryAfterSeconds: number | null) {
  return new FormGuardError(429, FORM_GUARD_ERROR_CODES.rateLimit, 'The form guard\'s check limit is reached; the form is accepted without checks', retryAfterSeconds);
}

function retryAfter(key: TCounterKey, nowMs: number): number | null {
  if (key.window === 'life_time') return null;
  const seconds = FORM_GUARD_LIMIT_WINDOW_SECONDS[key.window as 'minute' | 'hour' | 'day'];
  return Math.max(1, key.windowStart + seconds - Math.floor(nowMs / 1000));
}

function toValidation(row: TCheckRow, settings: TFormGuardSettings): TFormGuardValidation {
  const type = row.type as TFormGuardValidation['type'];
  const acceptable = row.isAcceptable === 1;
  return {
    type,
    value: row.value,
    is_acceptable: acceptable,
    error_msg: acceptable ? null : formGuardMessageFor(settings.messages, type, row.reason),
    reason: row.reason,
    credits_charged: row.creditsCharged,
    details: row.details,
  };
}

export type TValidateOptions = { ip: string; now?: () => number; signal?: AbortSignal };

/**
 * Checks one field value for the widget. A retried or concurrent call with the same request_id answers the first
 * result and is charged once. The limits are checked before any work and counted, with the charge (source js_widget),
 * the app's usage and the webhook event, in one transaction; a passed limit undoes it all and answers 429.
 */
export async function validateField(
  database: TDatabase,
  verifier: TVerifier,
  guard: TGuard,
  input: z.output<typeof ZFormGuardValidateRequest>,
  opts: TValidateOptions,
): Promise<TFormGuardValidation> {
  const { app, settings } = guard;
  const db = database.db;
  const previous = await selectCheck(db, app.id, input.request_id);
  if (previous) return toValidation(previous, settings);

  const now = opts.now ?? Date.now;
  const keys = getLimitKeys(settings.limits, opts.ip, now());
  const counts = await selectCounts(db, app.id, keys.map((k) => k.key));
  const full = keys.findIndex((k, i) => (counts[i] ?? 0) >= k.limit.max);
  if (full >= 0) throw limitError(retryAfter(keys[full]!.key, now()));

  let judgement: TJudgement;
  let billable = true;
  if (input.type === 'email') {
    const test = findTestAddress(input.value);
    if (test) billable = false;
    const result = test ?? (await verifier.verify(input.value, { mode: 'fastest_turnaround', signal: opts.signal }));
    if (!test) billable = isBillableVerdict(result);
    judgement = judgeEmail(result, settings.email);
  } else if (input.type === 'phone') {
    judgement = await judgePhone(input.value, settings.phone);
  } else {
    judgement = judgeName(input.value, settings.name);
  }
  const credits = billable ? FORM_GUARD_CREDITS_PER_FIELD : 0;

  try {
    const row = await database.transaction(async (tx) => {
      const inserted = await insertCheck(tx, {
        orgId: app.orgId,
        appId: app.id,
        requestId: input.request_id,
        type: input.type,
        value: input.value,
        isAcceptable: judgement.acceptable ? 1 : 0,
        reason: judgement.reason,
        creditsCharged: 0,
        details: judgement.details,
        ip: opts.ip,
        pageUrl: input.page_url ?? null,
      });
      if (!inserted) return null; // the same check is being (or was) answered by another call
      for (const { limit, key } of keys) {
        if ((await bumpCounter(tx, app.id, key)) > limit.max) throw new LimitReached(retryAfter(key, now()));
      }
      if (credits > 0) {
        await chargeCredits(tx, {
          orgId: app.orgId,
          userId: app.userId,
          amount: credits,
          reason: `Form guard ${input.type} check`,
          sourceAgent: 'js_widget',
          // The field checked (form_guard_email, _phone or _name): the analytics report splits form guard usage by it.
          objectType: `form_guard_${input.type}`,
          objectId: inserted.id,
        });
        await setCheckCredits(tx, inserted.id, credits);
      }
      await chargeAppUsage(tx, app, credits);
      if (input.type === 'email') {
        await recordEvent(tx, {
          orgId: app.orgId,
          userId: app.userId,
          type: FORM_GUARD_EVENTS.emailValidationCompleted,
          payload: {
            id: inserted.id,
            app_id: app.id,
            email: input.value,
            is_acceptable: judgement.acceptable,
            reason: judgement.reason,
            status: judgement.details.status ?? null,
            page_url: input.page_url ?? null,
          },
        });
      }
      return { ...inserted, creditsCharged: credits };
    });
    if (row) return toValidation(row, settings);
    const stored = await selectCheck(db, app.id, input.request_id);
    if (!stored) throw new FormGuardError(409, FORM_GUARD_ERROR_CODES.rateLimit, 'This check is already running; please try again');
    return toValidation(stored, settings);
  } catch (err) {
    if (err instanceof LimitReached) throw limitError(err.retryAfterSeconds);
    if (err instanceof AppCreditLimitReached) throw new FormGuardError(429, PUBLIC_API_ERROR_CODES.dailyLimit, err.message);
    if (isOutOfCredits(err)) {
      const code = err.code === 'daily_limit_exceeded' || err.code === 'life_time_limit_exceeded' ? PUBLIC_API_ERROR_CODES.dailyLimit : PUBLIC_API_ERROR_CODES.noCredits;
      throw new FormGuardError(402, code, err.message);
    }
    throw err;
  }
}

// ---------- form_guard/usage ----------

/** Form guard checks of the caller's organisation (the last 30 days by default), by day, app and field type. */
export async function getJsWidgetUsage(exec: TDb, ctx: TCallerContext, q: z.output<typeof ZJsWidgetUsageRequest>): Promise<TJsWidgetUsageData> {
  if (q.app_id) await getApp(exec, ctx, q.app_id); // another organisation's app answers 404
  // Plain dates are whole days in the caller's time zone; without a range, the last 30 days there.
  const timeZone = await selectUserTimeZone(exec, ctx.userId);
  const custom = typeof q.date_range === 'object' ? q.date_range : null;
  const preset = custom ? null : resolveDateRange(q.date_range ?? 'last_30_days', timeZone);
  const to = custom ? parseDateEndExclusive(custom.to, timeZone) : preset!.to;
  const from = custom ? parseDateStart(custom.from, timeZone) : preset!.from;
  // An Executive's figures are their own guards' (apps are their creator's, like lists).
  const rows = await selectUsage(exec, { orgId: ctx.orgId, from, to, timeZone, appId: q.app_id, appIds: await getVisibleAppIds(exec, ctx) });
  const zero = () => ({ total: 0, email: 0, phone: 0, name: 0 });
  const metrics = zero();
  const refused = zero();
  let billable = 0;
  const days = new Map<string, ReturnType<typeof zero> & { day: string; billable: number }>();
  const byApp = new Map<string, { app_id: string; name: string; total: number; billable: number }>();
  for (const r of rows) {
    const type = r.type as 'email' | 'phone' | 'name';
    metrics.total += r.total;
    metrics[type] += r.total;
    refused.total += r.refused;
    refused[type] += r.refused;
    billable += r.billable;
    const day = days.get(r.day) ?? { day: r.day, ...zero(), billable: 0 };
    day.total += r.total;
    day[type] += r.total;
    day.billable += r.billable;
    days.set(r.day, day);
    const a = byApp.get(r.appId) ?? { app_id: r.appId, name: '', total: 0, billable: 0 };
    a.total += r.total;
    a.billable += r.billable;
    byApp.set(r.appId, a);
  }
  // The guards' names through the developer service (organisation-scoped); a removed guard keeps its name.
  for (const a of byApp.values()) a.name = (await getApp(exec, ctx, a.app_id).catch(() => null))?.name ?? 'Removed guard';
  return {
    metrics,
    refused,
    js_widget_billable: billable,
    by_day: [...days.values()].sort((a, b) => a.day.localeCompare(b.day)),
    by_app: [...byApp.values()].sort((a, b) => b.total - a.total),
  };
}
