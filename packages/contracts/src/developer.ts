import { z } from 'zod';
import { ZPage, ZPageSize } from './common';
import { ZAppStatus, ZAppType, ZLimitType, ZRateScope, ZRateWindow, type TRateWindow } from './enums';
import { ZFormGuardSettings } from './form-guard';

// ---------- apps (developer API tokens) ----------

export const ZCreditLimitType = ZLimitType;
export type TCreditLimitType = z.infer<typeof ZCreditLimitType>;
export const RATE_WINDOW_SECONDS: Record<TRateWindow, number> = { minute: 60, hour: 3600, day: 86_400 };

export const ZAppCreditLimit = z.object({ type: ZCreditLimitType, value: z.number().int().min(1).max(1_000_000_000) });
export type TAppCreditLimit = z.infer<typeof ZAppCreditLimit>;
export const ZAppRateLimit = z.object({ window: ZRateWindow, max: z.number().int().min(1).max(1_000_000), scope: ZRateScope });
export type TAppRateLimit = z.infer<typeof ZAppRateLimit>;

/** Default rate limit of a new app: 100 calls a minute, per IP address. */
export const DEFAULT_APP_RATE_LIMIT: TAppRateLimit = { window: 'minute', max: 100, scope: 'ip' };

const ZOrigin = z
  .string()
  .trim()
  .regex(/^https?:\/\/[^\s/]+$/, { message: 'An origin is a scheme and host, e.g. https://www.example.com' });

const ZAppName = z.string().trim().min(1, { message: 'Please enter a name' }).max(100);

export const ZAppCreateRequest = z.object({
  name: ZAppName,
  description: z.string().trim().max(500).optional(),
  type: ZAppType.default('server'),
  credit_limit: ZAppCreditLimit.nullable().optional(),
  rate_limit: ZAppRateLimit.optional(),
  allowed_origins: z.array(ZOrigin).max(20).default([]),
  /** Makes the (client) app a form guard with these settings. */
  form_guard: ZFormGuardSettings.optional(),
});
export type TAppCreateRequest = z.input<typeof ZAppCreateRequest>;

export const ZAppUpdateRequest = z.object({
  app_id: z.uuid({ message: 'app_id must be an app id' }),
  name: ZAppName.optional(),
  description: z.string().trim().max(500).optional(),
  status: ZAppStatus.exclude(['new']).optional(),
  credit_limit: ZAppCreditLimit.nullable().optional(),
  rate_limit: ZAppRateLimit.optional(),
  allowed_origins: z.array(ZOrigin).max(20).optional(),
  /** Replaces the token: the old one stops working at once and the new one is answered once. */
  rotate_token: z.boolean().optional(),
  /** A form guard's new settings (the whole set). */
  form_guard: ZFormGuardSettings.optional(),
});
export type TAppUpdateRequest = z.input<typeof ZAppUpdateRequest>;

export const ZAppListQuery = z.object({
  page: ZPage.default(1),
  limit: ZPageSize.default(25),
  status: ZAppStatus.optional(),
  search: z.string().trim().max(100).optional(),
  /** `true`: only form guards; `false`: only other apps. */
  form_guard: z.enum(['true', 'false']).optional(),
});
export type TAppListQuery = z.input<typeof ZAppListQuery>;

export const ZAppIdParams = z.object({ id: z.uuid({ message: 'id must be an app id' }) });

export const ZApp = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  type: ZAppType,
  status: ZAppStatus,
  status_label: z.string(),
  is_default: z.boolean(),
  /** The first characters of the token, to recognise it. */
  token_hint: z.string(),
  /** The full token: only in the answer that created or rotated it. */
  token: z.string().nullable(),
  credit_limit: ZAppCreditLimit.nullable(),
  rate_limit: ZAppRateLimit,
  allowed_origins: z.array(z.string()),
  /** The form guard settings of a client app that runs the widget, else null. */
  form_guard: ZFormGuardSettings.nullable(),
  credits_used: z.object({ today: z.number().int(), life_time: z.number().int() }),
  last_used_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TApp = z.infer<typeof ZApp>;

export const ZAppResponse = z.object({ status: z.literal('success'), data: ZApp });
/** GET /apps/default: null until the caller creates their default app (POST /apps/default). */
export const ZDefaultAppResponse = z.object({ status: z.literal('success'), data: ZApp.nullable() });
export const ZAppListData = z.object({ items: z.array(ZApp), total: z.number().int(), page: z.number().int(), limit: z.number().int() });
export type TAppListData = z.infer<typeof ZAppListData>;
export const ZAppListResponse = z.object({ status: z.literal('success'), data: ZAppListData });

// ---------- the public v2 API ----------

/** Prefix of the Clearout-compatible public API. */
export const PUBLIC_API_PREFIX = '/v2';

/** Numeric error codes of the public API (the reference document's). */
export const PUBLIC_API_ERROR_CODES = {
  invalidToken: 1000,
  bulkLimit: 1001,
  noCredits: 1002,
  fileExpired: 1007,
  notAuthorized: 1008,
  dailyLimit: 1017,
  listNotAvailable: 1029,
  notCancellable: 1116,
} as const;

/**
 * Test addresses: fixed verdicts, nothing stored and nothing charged (no DNS or SMTP is used).
 * Any address at the reserved domain example.com whose local part names a status.
 */
export const TEST_ADDRESS_DOMAIN = 'example.com';
export const TEST_ADDRESSES = [
  { email: 'valid@example.com', status: 'valid', safe_to_send: 'yes' },
  { email: 'invalid@example.com', status: 'invalid', safe_to_send: 'no' },
  { email: 'catch_all@example.com', status: 'catch_all', safe_to_send: 'risky' },
  { email: 'unknown@example.com', status: 'unknown', safe_to_send: 'risky' },
  { email: 'disposable@example.com', status: 'invalid', safe_to_send: 'no' },
  { email: 'role@example.com', status: 'valid', safe_to_send: 'risky' },
] as const;
