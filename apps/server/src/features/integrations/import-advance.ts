import { queueSourceJob } from '../../platform/bulk-lists/lifecycle';
import type { TCallerContext } from '../../platform/tenancy/context';
import { isAppError } from '../../platform/errors/app-error';
import { ensureListVerification, getProgressStatus } from '../email-verifier';
import { ADVANCE_JOB, adapterOfImport, endImport, WRITE_BACK_JOB, withPlatform, type TJobCtx } from './import-pipeline';
import type { TIntegrationRuntime, TServiceDeps } from './platform-access';
import { importRuns, type TImportRow } from './queries';

// The import's middle step: following the verifier list's verification, starting it once the list is analysed,
// and, when it is done, preparing the platform for the write-back and queueing its first chunk.

/** How often a waiting import looks at its verification again. */
export const ADVANCE_DELAY_MS = 2_000;

/** The importer's context, as auto-pilot builds it: their credits and limits pay for the verification; their own list is visible to them whatever their role. */
function importerContext(row: TImportRow): TCallerContext {
  return { userId: row.userId, orgId: row.orgId, role: 'analyst', sessionId: null, via: 'session' };
}

/** Follows the list's verification: starts it once analysed, waits while it runs, then prepares and starts the write-back. */
export async function runAdvance(deps: TServiceDeps, rt: TIntegrationRuntime, p: { importId: string }, job: TJobCtx): Promise<void> {
  const row = await importRuns.selectById(deps.database.db, p.importId);
  if (!row || row.state !== 'verifying') return;
  const again = () => queueSourceJob(deps.queue, row, ADVANCE_JOB, p, { delayMs: ADVANCE_DELAY_MS });
  const ctx = importerContext(row);
  let status;
  try {
    status = await getProgressStatus(deps.database.db, ctx, row.verifyListId);
  } catch (err) {
    if (!isAppError(err)) throw err;
    await endImport(deps.database.db, row, { state: 'failed', error: 'The verifier list was removed' });
    return;
  }
  if (status.analysis.state === 'failed') {
    await endImport(deps.database.db, row, { state: 'failed', error: status.analysis.error ?? 'The imported list could not be analysed' });
    return;
  }
  if (status.analysis.state !== 'ready' || status.state === 'in_progress') return void (await again());
  if (status.state === 'cancelled') {
    await endImport(deps.database.db, row, { state: 'cancelled', error: 'The verification was cancelled' });
    return;
  }
  if (status.state === 'non_verified') {
    try {
      await ensureListVerification(deps, ctx, row.verifyListId);
    } catch (err) {
      if (!isAppError(err)) throw err;
      await endImport(deps.database.db, row, { state: 'failed', error: `The verification could not start: ${err.message}` });
      return;
    }
    return void (await again());
  }
  // verified: create the fields / properties write-back needs, then write back chunk by chunk.
  const adapter = await adapterOfImport(deps, rt, row);
  if (!adapter) return;
  await withPlatform(deps, row, job, { name: ADVANCE_JOB, payload: () => p }, async () => {
    if (row.writeBack.append || row.writeBack.unsubscribe) await adapter.prepareWriteBack(row.remoteListId, row.writeBack);
    await deps.database.transaction(async (tx) => {
      const current = await importRuns.selectForUpdate(tx, row.id);
      if (!current || current.state !== 'verifying') return;
      if (!row.writeBack.append && !row.writeBack.unsubscribe) {
        await endImport(tx, row, { state: 'completed' });
        return;
      }
      await importRuns.update(tx, row.id, { state: 'writing_back' });
      await queueSourceJob(deps.queue, row, WRITE_BACK_JOB, { importId: row.id, afterSeq: 0 }, { tx });
    });
  });
}
