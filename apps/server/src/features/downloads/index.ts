// The downloads feature's public face: the only file that other features and the composition root may import (eslint.config.js
// enforces it). Everything else in this folder is the feature's own business.
export { createDownloadMaintenance } from './expiry';
export type { TExportSource } from './export-source';
export { createDownloadJobs } from './jobs';
export { requestListExport } from './list-export';
export { registerDownloadRoutes } from './routes';
export { getDownloadStatus, listRunningJobActivities, openDownload, queueExportDownload } from './service';
