// The sso feature's public face: the only file that other features and the composition root may import (eslint.config.js
// enforces it). Everything else in this folder is the feature's own business.
export { seedVerifiedSsoDomain } from './domain-claims';
export { registerSsoRoutes } from './routes';
export { assertPasswordLoginAllowed, issueOnetoolToken } from './service';
export { getSsoSettings, saveSsoSettings } from './sso-settings';
