export { summariseFinds } from './find-summary';
export { downloadListResult, finderExportSource } from './finder-downloads';
export { findInstant, getQueueStatus } from './instant-find';
export { createEmailFinderJobs } from './jobs';
export { cancelFindEmails, removeFinderList } from './list-lifecycle';
export { getFinderProgress, listFinderLists } from './list-queries';
export { uploadFinderList } from './list-upload';
export { registerEmailFinderRoutes } from './routes';
export { listRunningJobActivities } from './running-activities';
