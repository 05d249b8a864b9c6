import type { TErrorCode } from '@verilead/contracts';
import { AppErrorWithStatus, type AppError } from './app-error';

/**
 * The HTTP status each error code is answered with: the one place where a domain failure becomes HTTP. Built from
 * what the throws answered before domain errors stopped carrying a status, so every answer stays as it was. The
 * codes the domain never throws are here too (with the status the server answers them with where it builds them
 * itself), so that a new code in the contracts cannot be thrown without a status.
 *
 * The listed exceptions (AppErrorWithStatus) keep their own status, because clients see the code and it cannot be
 * split:
 * - account_inactive is 401 when a bearer token is refused for an inactive member (platform/auth/authorize.ts,
 *   explainRefusedBearer): the session no longer works and the app signs out; at sign-in or charge time it is 403.
 * - account_suspended (an operator suspended the user or the organisation) is 401 when a bearer token is refused
 *   (the same place), 403 at sign-in (platform/auth/sessions.ts, createSession).
 * - sso_failed is 403 when the identity is sound but may not sign in here (features/sso/service.ts: an account of
 *   another organisation, a domain the organisation does not sign in with, an e-mail the provider did not verify);
 *   a broken, expired or replayed sign-in answer is 400.
 * - internal_error is 503 when an instant email search fails (features/email-finder/instant-find.ts, findInstant):
 *   the search may be tried again; anything unexpected is 500.
 */
export const ERROR_HTTP_STATUS: Readonly<Record<TErrorCode, number>> = {
  validation_failed: 400,
  malformed_request: 400,
  unsupported_media_type: 415,
  payload_too_large: 413,
  not_found: 404,
  route_not_found: 404,
  method_not_allowed: 405,
  unauthorized: 401,
  session_expired: 401,
  forbidden: 403,
  invalid_credentials: 401,
  account_inactive: 403,
  account_suspended: 403,
  password_expired: 403,
  email_already_registered: 409,
  email_not_verified: 403,
  invalid_token: 400,
  token_expired: 410,
  wrong_password: 400,
  same_password: 400,
  owner_has_active_members: 409,
  insufficient_credits: 402,
  daily_limit_exceeded: 402,
  life_time_limit_exceeded: 402,
  conflict: 409,
  card_declined: 400,
  payment_provider_error: 502,
  payments_not_configured: 503,
  rate_limited: 429,
  app_version_outdated: 418,
  sso_required: 403,
  sso_not_configured: 404,
  integration_not_configured: 503,
  sso_failed: 400,
  service_unavailable: 503,
  internal_error: 500,
};

/** The HTTP status an error is answered with: its code's, unless the throw is one of the listed exceptions. */
export function httpStatusOf(error: AppError): number {
  return error instanceof AppErrorWithStatus ? error.httpStatus : ERROR_HTTP_STATUS[error.code];
}
