export { seedVerifiedSsoDomain } from './domain-claims';
export { registerSsoRoutes } from './routes';
export { assertPasswordLoginAllowed, issueOnetoolToken } from './service';
export { getSsoSettings, saveSsoSettings } from './sso-settings';
