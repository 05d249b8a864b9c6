import type { TDatabase } from '../../platform/db/database';
import type { TMaintenanceTask } from '../../platform/jobs/maintenance';
import { purgeOperatorActions } from './queries';

/** How long failed operator sign-ins are kept (they are written for any address anyone tries). */
export const FAILED_SIGN_IN_RETENTION_DAYS = 30;

/** The maintenance task keeping the operator log as long as the audit log (AUDIT_RETENTION_DAYS), failed sign-ins 30 days. */
export function createOperatorLogRetentionTask(opts: { database: TDatabase; retentionDays: number }): TMaintenanceTask {
  return {
    name: 'operator-log-retention',
    run: async () => ({ deleted: await purgeOperatorActions(opts.database.db, opts.retentionDays, Math.min(opts.retentionDays, FAILED_SIGN_IN_RETENTION_DAYS)) }),
  };
}
