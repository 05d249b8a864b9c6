// The prospects feature's public face: the only file that other features and the composition root may import (eslint.config.js
// enforces it). Everything else in this folder is the feature's own business.
export { loadDemoDirectoryCorpus, seedDemoDirectoryIfEmpty } from './directory-import';
export { prospectExportSource } from './export';
export { createProspectJobs } from './jobs';
export { getList, visible } from './lists';
export { runDirectoryCommand } from './ops';
export { registerProspectRoutes } from './routes';
export { listRunningJobActivities } from './service';
