import { z } from 'zod';
import { ZDateInput } from './common';
import { ZDatePreset } from './date-presets';
import { ZGibberishThreshold } from './email-verifier';

// ---------- form guard: the settings of a guard (a client app that runs the embeddable widget) ----------

/** Verdicts a guard can refuse besides invalid addresses (always refused). */
export const FORM_GUARD_EMAIL_RULES = ['role', 'free', 'disposable', 'gibberish', 'unknown', 'catch_all'] as const;
export const ZFormGuardEmailRule = z.enum(FORM_GUARD_EMAIL_RULES);
export type TFormGuardEmailRule = z.infer<typeof ZFormGuardEmailRule>;
export const FORM_GUARD_EMAIL_RULE_LABELS: Record<TFormGuardEmailRule, string> = {
  role: 'Role addresses (info@, sales@)',
  free: 'Free providers (Gmail, Yahoo)',
  disposable: 'Disposable addresses',
  gibberish: 'Gibberish addresses',
  unknown: 'Unknown (could not be verified)',
  catch_all: 'Catch-all domains',
};

/** Phone line types (libphonenumber's names). */
export const FORM_GUARD_LINE_TYPES = ['MOBILE', 'FIXED_LINE', 'FIXED_LINE_OR_MOBILE', 'VOIP', 'TOLL_FREE', 'PREMIUM_RATE', 'SHARED_COST', 'PERSONAL_NUMBER', 'PAGER', 'UAN', 'VOICEMAIL'] as const;
export const ZFormGuardLineType = z.enum(FORM_GUARD_LINE_TYPES);
export type TFormGuardLineType = z.infer<typeof ZFormGuardLineType>;

export const FORM_GUARD_FIELD_TYPES = ['email', 'phone', 'name'] as const;
export const ZFormGuardFieldType = z.enum(FORM_GUARD_FIELD_TYPES);
export type TFormGuardFieldType = z.infer<typeof ZFormGuardFieldType>;

/** Limit windows: minute / hour / day rates, or a life-time total. Scope: per visitor IP or for the whole guard. */
export const ZFormGuardLimitWindow = z.enum(['minute', 'hour', 'day', 'life_time']);
export type TFormGuardLimitWindow = z.infer<typeof ZFormGuardLimitWindow>;
export const FORM_GUARD_LIMIT_WINDOW_SECONDS: Record<Exclude<TFormGuardLimitWindow, 'life_time'>, number> = { minute: 60, hour: 3600, day: 86_400 };
export const ZFormGuardLimit = z.object({
  scope: z.enum(['ip', 'global']),
  window: ZFormGuardLimitWindow,
  max: z.number().int().min(1, { message: 'A limit allows at least 1 check' }).max(100_000_000),
});
export type TFormGuardLimit = z.infer<typeof ZFormGuardLimit>;

const ZCountryCode = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2}$/, { message: 'A country is a two-letter code such as US or IN' });

/**
 * A page address pattern: a full URL, where `*` stands for any characters (https://www.example.com/signup/*).
 * No pattern means every page of the app's allowed origins.
 */
const ZUrlPattern = z
  .string()
  .trim()
  .min(1)
  .max(500)
  .regex(/^(https?:\/\/|\*)[^\s]*$/, { message: 'A page address starts with http:// or https:// (use * for any part)' });

const ZMessage = z.string().trim().min(1, { message: 'Please enter a message' }).max(300);

export const DEFAULT_FORM_GUARD_MESSAGES = {
  email: 'Please enter a valid email address',
  phone: 'Please enter a valid phone number',
  name: 'Please enter your real name',
  timeout: 'We could not check this right now, please try again',
} as const;

/** The e-mail refusals besides `invalid` (whose message is `messages.email`): each has its own message, never "invalid". */
export const FORM_GUARD_EMAIL_REFUSALS = ['disposable', 'role', 'free', 'gibberish', 'unknown', 'catch_all', 'not_safe_to_send'] as const;
export type TFormGuardEmailRefusal = (typeof FORM_GUARD_EMAIL_REFUSALS)[number];
export const DEFAULT_FORM_GUARD_EMAIL_REFUSAL_MESSAGES: Record<TFormGuardEmailRefusal, string> = {
  disposable: 'Please use a permanent email address, not a disposable one',
  role: 'Please use your own email address, not a shared one such as info@ or sales@',
  free: 'Please use your work email address',
  gibberish: 'This email address does not look like a real person\'s; please check it',
  unknown: 'We could not confirm this email address; please use another one',
  catch_all: 'We cannot confirm this mailbox exists (the domain accepts any address); please use another email address',
  not_safe_to_send: 'We cannot confirm this email address receives mail; please use another one',
};

/**
 * The message a visitor sees for a refused value: the refusal's own message for an e-mail (`messages.email` is the
 * `invalid` one); guards saved before refusals had messages get the defaults.
 */
export function formGuardMessageFor(messages: { email: string; phone: string; name: string; email_refusals?: Partial<Record<TFormGuardEmailRefusal, string>> }, type: 'email' | 'phone' | 'name', reason: string | null): string {
  if (type !== 'email' || !reason || reason === 'invalid') return messages[type];
  const refusal = reason as TFormGuardEmailRefusal;
  if (!(FORM_GUARD_EMAIL_REFUSALS as readonly string[]).includes(refusal)) return messages.email;
  return messages.email_refusals?.[refusal] ?? DEFAULT_FORM_GUARD_EMAIL_REFUSAL_MESSAGES[refusal];
}

export const FORM_GUARD_TIMEOUT_MS = { min: 1_000, max: 60_000, default: 10_000 } as const;
const TIMEOUT_MESSAGE = 'The timeout is between 1000 and 60000 ms';

export const ZFormGuardSettings = z.object({
  fields: z.object({ email: z.boolean(), phone: z.boolean(), name: z.boolean() }).default({ email: true, phone: false, name: false }),
  /** Check as soon as the visitor leaves a field (always checked again on submit). */
  validate_on_blur: z.boolean().default(true),
  email: z
    .object({ reject: z.array(ZFormGuardEmailRule).max(FORM_GUARD_EMAIL_RULES.length).default(['disposable']), safe_to_send_only: z.boolean().default(false) })
    .default({ reject: ['disposable'], safe_to_send_only: false }),
  phone: z
    .object({
      allowed_countries: z.array(ZCountryCode).max(250).default([]),
      default_country: ZCountryCode.nullable().default(null),
      line_types: z.array(ZFormGuardLineType).max(FORM_GUARD_LINE_TYPES.length).default([]),
    })
    .default({ allowed_countries: [], default_country: null, line_types: [] }),
  name: z.object({ gibberish_threshold: ZGibberishThreshold.default('high') }).default({ gibberish_threshold: 'high' }),
  messages: z
    .object({
      email: ZMessage,
      phone: ZMessage,
      name: ZMessage,
      timeout: ZMessage,
      email_refusals: z
        .object(Object.fromEntries(FORM_GUARD_EMAIL_REFUSALS.map((r) => [r, ZMessage])) as Record<TFormGuardEmailRefusal, typeof ZMessage>)
        .default({ ...DEFAULT_FORM_GUARD_EMAIL_REFUSAL_MESSAGES }),
    })
    .default({ ...DEFAULT_FORM_GUARD_MESSAGES, email_refusals: { ...DEFAULT_FORM_GUARD_EMAIL_REFUSAL_MESSAGES } }),
  limits: z.array(ZFormGuardLimit).max(8).default([]),
  allowed_urls: z.array(ZUrlPattern).max(50).default([]),
  timeout_ms: z
    .number()
    .int({ message: TIMEOUT_MESSAGE })
    .min(FORM_GUARD_TIMEOUT_MS.min, { message: TIMEOUT_MESSAGE })
    .max(FORM_GUARD_TIMEOUT_MS.max, { message: TIMEOUT_MESSAGE })
    .default(FORM_GUARD_TIMEOUT_MS.default),
  /** Refuse the form when a check times out (default: accept it, "fail open"). */
  block_on_timeout: z.boolean().default(false),
});
export type TFormGuardSettings = z.output<typeof ZFormGuardSettings>;
export type TFormGuardSettingsInput = z.input<typeof ZFormGuardSettings>;

/** A new guard's settings. */
export function buildDefaultFormGuardSettings(): TFormGuardSettings {
  return ZFormGuardSettings.parse({});
}

/** Whether `url` matches a pattern where `*` is any run of characters (case-insensitive, the whole URL without its hash). */
export function matchUrlPattern(pattern: string, url: string): boolean {
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}$`, 'i').test(url.split('#')[0] ?? '');
}

/** Whether a page may use the guard: no patterns means every page. */
export function isUrlAllowed(patterns: readonly string[], url: string): boolean {
  return patterns.length === 0 || patterns.some((p) => matchUrlPattern(p, url));
}

// ---------- the widget's public calls (client app token, from the allowed origins) ----------

/** Where the widget's calls live (under the public API, app-token auth, CORS per app). */
export const FORM_GUARD_API_PREFIX = '/v2/form_guard';
/** Where the server serves the built widget. */
export const FORM_GUARD_SCRIPT_PATH = '/form-guard.js';

export const ZFormGuardConfigQuery = z.object({ page_url: z.string().trim().max(2000).optional() });

/** What the widget needs to know (nothing secret). */
export const ZFormGuardWidgetConfig = z.object({
  fields: z.object({ email: z.boolean(), phone: z.boolean(), name: z.boolean() }),
  validate_on_blur: z.boolean(),
  messages: z.object({ email: z.string(), phone: z.string(), name: z.string(), timeout: z.string() }),
  timeout_ms: z.number().int(),
  block_on_timeout: z.boolean(),
  default_country: z.string().nullable(),
});
export type TFormGuardWidgetConfig = z.infer<typeof ZFormGuardWidgetConfig>;

export const ZFormGuardValidateRequest = z.object({
  type: ZFormGuardFieldType,
  value: z.string().trim().min(1, { message: 'Please enter a value to check' }).max(320),
  /** Chosen by the widget for each check: a retried check answers its first result and is never charged twice. */
  request_id: z.string().trim().min(8).max(64).regex(/^[A-Za-z0-9_-]+$/, { message: 'request_id holds letters, digits, - and _' }),
  page_url: z.string().trim().max(2000).optional(),
});
export type TFormGuardValidateRequest = z.input<typeof ZFormGuardValidateRequest>;

export const ZFormGuardValidation = z.object({
  type: ZFormGuardFieldType,
  value: z.string(),
  is_acceptable: z.boolean(),
  /** The guard's message for a refused value; null when acceptable. */
  error_msg: z.string().nullable(),
  /** Why a value was refused (e.g. invalid, disposable, country, line_type, gibberish). */
  reason: z.string().nullable(),
  credits_charged: z.number().int(),
  /** Email: the verdict's status; phone: E.164 number; name: the gibberish score. */
  details: z.record(z.string(), z.unknown()),
});
export type TFormGuardValidation = z.infer<typeof ZFormGuardValidation>;

/** Public API codes of the widget's calls (beside PUBLIC_API_ERROR_CODES). */
export const FORM_GUARD_ERROR_CODES = { rateLimit: 1030, badOrigin: 1074, urlNotAllowed: 1075, notFormGuard: 1076 } as const;

/** Credits charged per validated field. */
export const FORM_GUARD_CREDITS_PER_FIELD = 1;

export const FORM_GUARD_EVENTS = { emailValidationCompleted: 'form_guard.email_validation.completed' } as const;

// ---------- reports/js_widget_usage ----------

export const ZJsWidgetUsageRequest = z.object({
  /** One of the twelve date presets, or days (plain dates are days in the caller's time zone); the last 30 days by default. */
  date_range: z.union([ZDatePreset, z.object({ from: ZDateInput, to: ZDateInput })]).optional(),
  app_id: z.uuid({ message: 'app_id must be an app id' }).optional(),
});
export type TJsWidgetUsageRequest = z.input<typeof ZJsWidgetUsageRequest>;

const ZFormGuardMetrics = z.object({ total: z.number().int(), email: z.number().int(), phone: z.number().int(), name: z.number().int() });
export const ZJsWidgetUsageData = z.object({
  /** Checks made (form guard metrics: total, phone, email, name). */
  metrics: ZFormGuardMetrics,
  refused: ZFormGuardMetrics,
  js_widget_billable: z.number().int(),
  by_day: z.array(ZFormGuardMetrics.extend({ day: z.string(), billable: z.number().int() })),
  by_app: z.array(z.object({ app_id: z.string(), name: z.string(), total: z.number().int(), billable: z.number().int() })),
});
export type TJsWidgetUsageData = z.infer<typeof ZJsWidgetUsageData>;
export const ZJsWidgetUsageResponse = z.object({ status: z.literal('success'), data: ZJsWidgetUsageData });
