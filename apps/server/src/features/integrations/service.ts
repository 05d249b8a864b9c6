// The integrations' use cases, one a file: reaching a platform (platform-access.ts), connected accounts
// (accounts.ts), starting an import (import-start.ts), its pages and finish (import-pages.ts), following its
// verification (import-advance.ts), the write-back (write-back.ts) and reading imports (import-views.ts). This file
// hands their names on, so routes, jobs, the OAuth connection and the activity log import them from one place.
export { getAdapter, toAppError, type TIntegrationRuntime } from './platform-access';
export { connectAccount, getAccountLists, listLinkedAccounts, listPlatformAccounts, removeAccount, requireFreeName, saveVerifiedAccount } from './accounts';
export { ADVANCE_JOB, IMPORT_FINISH_JOB, IMPORT_PAGE_JOB, WRITE_BACK_JOB } from './import-pipeline';
export { startLeadsImport, startListImport } from './import-start';
export { runImportFinish, runImportPage } from './import-pages';
export { ADVANCE_DELAY_MS, runAdvance } from './import-advance';
export { runWriteBack, WRITE_BACK_CHUNK } from './write-back';
export { listImports, listRunningJobActivities, toImportView } from './import-views';
export { cancelImport } from './import-cancel';
