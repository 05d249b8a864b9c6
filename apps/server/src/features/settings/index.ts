// The settings feature's public face: the only file that other features and the composition root may import (eslint.config.js
// enforces it). Everything else in this folder is the feature's own business.
export { registerSettingsRoutes } from './routes';
export { getUserPreferences, getVerifierPreferences } from './service';
export type { TVerifierPreferences } from './service';
