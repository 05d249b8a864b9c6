export { eraseUserActivities, listActivities, recordActivity, resolveActivityRange, toActivityTypes } from './service';
export type { TRunningJobActivity } from './service';
