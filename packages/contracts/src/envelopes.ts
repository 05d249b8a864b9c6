import { z } from 'zod';
import { APP_UPDATE_CODES } from './app-headers';

/** Where a validation problem was found. */
export const ZErrorLocation = z.enum(['body', 'query', 'params', 'headers']);
export type TErrorLocation = z.infer<typeof ZErrorLocation>;

/** One field-level problem inside a failure envelope. */
export const ZErrorReason = z.object({
  field: z.string(),
  location: ZErrorLocation,
  messages: z.array(z.string()),
});
export type TErrorReason = z.infer<typeof ZErrorReason>;

/** Every error code the API answers with. */
export const ERROR_CODES = [
  'validation_failed',
  'malformed_request',
  'unsupported_media_type',
  'payload_too_large',
  'not_found',
  'route_not_found',
  'method_not_allowed',
  'unauthorized',
  'session_expired',
  'forbidden',
  'invalid_credentials',
  'account_inactive',
  'account_suspended',
  'password_expired',
  'email_already_registered',
  'email_not_verified',
  'invalid_token',
  'token_expired',
  'wrong_password',
  'same_password',
  'owner_has_active_members',
  'insufficient_credits',
  'daily_limit_exceeded',
  'life_time_limit_exceeded',
  'conflict',
  'card_declined',
  'payment_provider_error',
  'payments_not_configured',
  'rate_limited',
  'app_version_outdated',
  'sso_required',
  'sso_not_configured',
  'integration_not_configured',
  'sso_failed',
  'service_unavailable',
  'internal_error',
] as const;
export const ZErrorCode = z.enum(ERROR_CODES);
export type TErrorCode = z.infer<typeof ZErrorCode>;

/** How the app reloads itself when the server answers 418 (app version too old). */
export const ZAppUpdateCode = z.enum(APP_UPDATE_CODES);
export type TAppUpdateCode = z.infer<typeof ZAppUpdateCode>;

export const ZFailureError = z.object({
  code: z.string(),
  message: z.string(),
  reasons: z.array(ZErrorReason).optional(),
  additional_info: z.record(z.string(), z.unknown()).optional(),
});
export type TFailureError = z.infer<typeof ZFailureError>;

/** Failure envelope: `{ status: 'failed', error: { code, message, reasons?, additional_info? } }`. */
export const ZFailure = z.object({
  status: z.literal('failed'),
  error: ZFailureError,
});
export type TFailure = z.infer<typeof ZFailure>;

/** Success envelope around `data`. */
export function ZSuccess<T extends z.ZodType>(data: T) {
  return z.object({ status: z.literal('success'), data });
}
export type TSuccess<T> = { status: 'success'; data: T };

/** A simple `{ message }` payload used by calls that only acknowledge. */
export const ZMessageData = z.object({ message: z.string() });
export type TMessageData = z.infer<typeof ZMessageData>;

/** 418 additional_info. */
export const ZAppVersionOutdatedInfo = z.object({ update_code: ZAppUpdateCode });
/** 402 additional_info. */
export const ZPaymentRequiredInfo = z.object({ required_credits: z.number().int().nonnegative() });
/** 403 password_expired additional_info: a single-use token for POST /user/reset-password. */
export const ZPasswordExpiredInfo = z.object({ change_token: z.string() });

export { ANNOUNCEMENT_TS_HEADER, APP_UPDATE_CODES, APP_VERSION_HEADER, isAppUpdateCode } from './app-headers';
