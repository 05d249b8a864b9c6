// The integrations feature's public face: the only file that other features and the composition root may import (eslint.config.js
// enforces it). Everything else in this folder is the feature's own business.
export { createIntegrationJobs } from './jobs';
export { registerIntegrationRoutes } from './routes';
export { listRunningJobActivities } from './service';
export { createNewContactsPollTask, createRunWriteBackHook } from './list-sync';
