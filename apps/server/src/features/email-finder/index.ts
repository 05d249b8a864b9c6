// The email-finder feature's public face: the only file that other features and the composition root may import (eslint.config.js
// enforces it). Everything else in this folder is the feature's own business.
export { summariseFinds } from './find-summary';
export { downloadListResult, finderExportSource } from './finder-downloads';
export { findInstant, getQueueStatus } from './instant-find';
export { createEmailFinderJobs } from './jobs';
export { cancelFindEmails, removeFinderList } from './list-lifecycle';
export { getFinderProgress, listFinderLists } from './list-queries';
export { uploadFinderList } from './list-upload';
export { registerEmailFinderRoutes } from './routes';
export { listRunningJobActivities } from './running-activities';
