export { registerSettingsRoutes } from './routes';
export { getUserPreferences, getVerifierPreferences } from './service';
export type { TVerifierPreferences } from './service';
