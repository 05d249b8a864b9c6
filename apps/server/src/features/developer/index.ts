export { buildPublicFailure } from './public-api-format';
export { registerPublicApiRoutes } from './public-api-routes';
export { CLIENT_TOKEN_REFUSED, publicRateLimit, resolveServerAppToken } from './public-api/auth';
export { INVALID_TOKEN, PublicApiError, mapServiceError } from './public-api/errors';
export { findForApp } from './public-api/finder-service';
export { verifyForApp } from './public-api/instant-service';
export { registerDeveloperRoutes } from './routes';
export { AppCreditLimitReached, chargeAppUsage, getApp, getVisibleAppIds, resolveAppToken } from './service';
export type { TAppCaller } from './service';
