// The email-verifier feature's public face: the only file that other features and the composition root may import (eslint.config.js
// enforces it). Everything else in this folder is the feature's own business.
export { numberDataRows } from './analyse-list-job';
export type { TNumberedRow } from './analyse-list-job';
export { readRows } from './file-parsing';
export { verifyInstant } from './instant';
export { AppCreditLimitRefused } from './instant-charge';
export { createEmailVerifierJobs } from './jobs';
export { cancelListVerification, ensureListVerification, getProgressStatus, removeList } from './list-lifecycle';
export { getListForExport, iterateListRows, readListRowsPage } from './list-rows';
export type { TExportRow } from './list-rows';
export { registerEmailVerifierRoutes } from './routes';
export { listRunningJobActivities } from './running-activities';
export { createSourcedList, uploadList } from './upload-list';
export type { TUploadPart } from './upload-list';
export { summariseVerifications } from './verification-summary';
export { selectVerdictsOf, type TBounceVerdict } from './bounce-verdict-queries';
export { appendContactsAndVerify, readRunChanges } from './reverify-new-rows';
export type { TFinishedRun, TReverifyHooks } from './reverify-run-job';
export { createReverifyMaintenance } from './reverify-schedule';
