export { createWebhookJobs, ensureWebhookDispatcher } from './jobs';
export { registerWebhookRoutes } from './routes';
