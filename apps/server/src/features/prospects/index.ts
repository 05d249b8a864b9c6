export { loadDemoDirectoryCorpus, seedDemoDirectoryIfEmpty } from './directory-import';
export { createProspectJobs } from './jobs';
export { getList, visible } from './lists';
export { runDirectoryCommand } from './ops';
export { registerProspectRoutes } from './routes';
export { listRunningJobActivities } from './service';
export { prospectExportSource } from './export';
