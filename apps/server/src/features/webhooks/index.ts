// The webhooks feature's public face: the only file that other features and the composition root may import (eslint.config.js
// enforces it). Everything else in this folder is the feature's own business.
export { createWebhookJobs, ensureWebhookDispatcher } from './jobs';
export { registerWebhookRoutes } from './routes';
