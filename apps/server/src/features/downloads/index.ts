export { createDownloadMaintenance } from './expiry';
export type { TExportSource } from './export-source';
export { createDownloadJobs } from './jobs';
export { requestListExport } from './list-export';
export { registerDownloadRoutes } from './routes';
export { getDownloadStatus, listRunningJobActivities, openDownload, queueExportDownload } from './service';
