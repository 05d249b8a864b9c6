export { createIntegrationJobs } from './jobs';
export { registerIntegrationRoutes } from './routes';
export { listRunningJobActivities } from './service';
