import type { TImportState, TIntegration, TIntegrationImport } from '@verilead/contracts';
import { cancelListJob } from '../../platform/bulk-lists/lifecycle';
import type { TDeps } from '../../platform/deps';
import { isAppError } from '../../platform/errors/app-error';
import type { TCallerContext } from '../../platform/tenancy/context';
import { recordActivity } from '../activities';
import { cancelListVerification } from '../email-verifier';
import { toImportView } from './import-views';
import { platformLabel } from './platform-access';
import { importRuns } from './queries';

export const IMPORT_CANCELLED_REASON = 'Cancelled by the user';

/**
 * POST /integration/imports/cancel: stops a running import at the user's request, as a verification list is
 * cancelled (the kernel's cancelListJob: one winner under the row lock, history for the importer and the canceller).
 * Its steps (pages, finish, the verification's watcher, write-back chunks) each check the import's state, so none goes
 * on; while it is verifying, the verifier list's verification is cancelled too, so nothing more is charged. What was
 * imported, verified (and charged) and written back stays; the import reads `cancelled` with the reason.
 */
export async function cancelImport(deps: TDeps, ctx: TCallerContext, importId: string): Promise<TIntegrationImport> {
  let phase: TImportState | null = null;
  const row = await cancelListJob(deps, importRuns, ctx, importId, {
    refusal: 'Only an import still running can be cancelled',
    cancel: (current) => (importRuns.isRunning(current.state) ? { from: current.state, values: { state: 'cancelled' as const, error: IMPORT_CANCELLED_REASON } } : null),
    onCancelled: async (_tx, current) => {
      phase = current.state;
    },
    describe: (current) => ({
      type: 'sync',
      description: `Cancelled syncing "${current.remoteListName}" from ${platformLabel(current.platform as TIntegration)}: ${current.imported} contacts imported, ${current.writtenBack} written back`,
      metadata: { feature: 'integrations', import_id: current.id, integration: current.platform, imported: current.imported, written_back: current.writtenBack, cancelled: true },
    }),
    recordActivity,
    dropJobs: [],
  });
  if (phase === 'verifying' && row.verifyListCreated) {
    // The list is the importer's: its verification is cancelled in their name (their credits paid for it).
    const importer: TCallerContext = { userId: row.userId, orgId: row.orgId, role: 'analyst', sessionId: null, via: 'session' };
    try {
      await cancelListVerification(deps, importer, row.verifyListId);
    } catch (err) {
      // not being verified (not started yet, or just finished): nothing to stop
      if (!isAppError(err) || err.code !== 'conflict') throw err;
    }
  }
  return toImportView(row);
}
