// The developer feature's public face: the only file that other features and the composition root may import (eslint.config.js
// enforces it). Everything else in this folder is the feature's own business.
export { buildPublicFailure } from './public-api-format';
export { registerPublicApiRoutes } from './public-api-routes';
export { CLIENT_TOKEN_REFUSED, createAnonymousLimit, publicRateLimit, resolveServerAppToken } from './public-api/auth';
export { INVALID_TOKEN, PublicApiError, mapServiceError } from './public-api/errors';
export { findForApp } from './public-api/finder-service';
export { verifyForApp } from './public-api/instant-service';
export { registerDeveloperRoutes } from './routes';
export { AppCreditLimitReached, chargeAppUsage, getApp, getVisibleAppIds, resolveAppToken } from './service';
export type { TAppCaller } from './service';
