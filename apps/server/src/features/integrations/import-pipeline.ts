import type { TIntegration } from '@verilead/contracts';
import { endSourceRun, queueSourceJob } from '../../platform/bulk-lists/lifecycle';
import type { TDb } from '../../platform/db/database';
import { recordActivity } from '../activities';
import { RateLimitedError, RemoteAuthError, RemoteError } from './adapters/http';
import type { TIntegrationAdapter } from './adapters/types';
import { createLeadsAdapter } from './leads-source';
import { getAdapter, openCredentials, platformLabel, type TIntegrationRuntime, type TServiceDeps } from './platform-access';
import { importRuns, selectAccountById, type TImportRow } from './queries';

// What the import → verify → write-back jobs share: their names (each step queues the next), ending an import with
// its activity, the adapter of an import's account, and how a step that talks to the platform meets its failures.

export const IMPORT_PAGE_JOB = 'integrations.import_page';
export const IMPORT_FINISH_JOB = 'integrations.import_finish';
export const ADVANCE_JOB = 'integrations.advance';
export const WRITE_BACK_JOB = 'integrations.write_back';

export type TJobCtx = { attempt: number; maxAttempts: number };

/**
 * Ends an import (completed, failed or cancelled) and records it in the importer's Activities: from a running state or
 * `completed` (a disconnected account fails a completed import being polled), never one the user cancelled (a step
 * that was under way at the cancel leaves it cancelled) nor one that already failed.
 */
export async function endImport(exec: TDb, row: TImportRow, values: { state: 'completed' | 'failed' | 'cancelled'; error?: string }): Promise<void> {
  await endSourceRun(exec, importRuns, row.id, values, {
    from: ['importing', 'verifying', 'writing_back', 'completed'],
    onEnded: async (tx, ended) => {
      const what = `"${row.remoteListName}" from ${platformLabel(row.platform as TIntegration)}`;
      const metadata = { feature: 'integrations', import_id: row.id, integration: row.platform, imported: ended.imported, written_back: ended.writtenBack };
      if (values.state === 'failed') {
        await recordActivity(tx, { orgId: row.orgId, userId: row.userId, type: 'failed', description: `Syncing ${what} failed: ${values.error ?? 'unknown error'}`, metadata: { ...metadata, job: 'sync' } });
        return;
      }
      const description =
        values.state === 'cancelled'
          ? `Cancelled syncing ${what}: ${values.error ?? ''}`.trim()
          : `Synced ${what}: ${ended.imported} contacts imported, ${ended.writtenBack} written back`;
      await recordActivity(tx, { orgId: row.orgId, userId: row.userId, type: 'sync', description, metadata: { ...metadata, cancelled: values.state === 'cancelled' } });
    },
  });
}

/** The adapter of an import's account (null when the account was disconnected: the import fails). */
export async function adapterOfImport(deps: TServiceDeps, rt: TIntegrationRuntime, row: TImportRow): Promise<TIntegrationAdapter | null> {
  if (row.platform === 'leads') return createLeadsAdapter(deps.database.db, row.orgId, rt.adapterOptions?.pageSize);
  const account = row.accountId ? await selectAccountById(deps.database.db, row.accountId) : null;
  if (!account) {
    await endImport(deps.database.db, row, { state: 'failed', error: 'The account was disconnected' });
    return null;
  }
  return getAdapter(rt, row.platform as TIntegration, openCredentials(rt.config, account.credentials));
}

/**
 * Runs a step that talks to the platform: a throttling signal re-queues the same job after the wait the platform
 * asked for; rejected credentials fail the import; other errors are retried, and fail it on the last attempt.
 */
export async function withPlatform(deps: TServiceDeps, row: TImportRow, job: TJobCtx, retry: { name: string; payload: () => Record<string, unknown> }, step: () => Promise<void>): Promise<void> {
  try {
    await step();
  } catch (err) {
    if (err instanceof RateLimitedError) {
      await queueSourceJob(deps.queue, row, retry.name, retry.payload(), { delayMs: err.retryAfterMs });
      return;
    }
    const name = platformLabel(row.platform as TIntegration);
    if (err instanceof RemoteAuthError) {
      await endImport(deps.database.db, row, { state: 'failed', error: `${name} no longer accepts this account's credentials; please connect it again` });
      return;
    }
    // A 4xx other than throttling will answer the same on a retry (e.g. HubSpot refuses edits of a DYNAMIC list).
    const refused = err instanceof RemoteError && err.httpStatus >= 400 && err.httpStatus < 500;
    if (refused || job.attempt >= job.maxAttempts) {
      await endImport(deps.database.db, row, { state: 'failed', error: `${name} refused a request: ${(err as Error).message}` });
      return;
    }
    throw err;
  }
}
