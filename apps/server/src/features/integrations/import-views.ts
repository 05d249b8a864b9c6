import type { TIntegration, TIntegrationImport } from '@verilead/contracts';
import { readPausedReasons, readRunningSourceJobs } from '../../platform/bulk-lists/list-views';
import { percentDone } from '../../platform/bulk-lists/source-chain';
import type { TDb } from '../../platform/db/database';
import type { TCallerContext } from '../../platform/tenancy/context';
import type { TRunningJobActivity } from '../activities';
import { platformLabel } from './platform-access';
import { importRuns, type TImportRow } from './queries';

// Reading imports: an import as the screens show it, the organisation's latest imports, and a member's running
// imports as sync activities with their progress.

/** An import as the screens show it; `pausedReason` when it waits for a suspended organisation or importer. */
export function toImportView(row: TImportRow, pausedReason: string | null = null): TIntegrationImport {
  return {
    id: row.id,
    integration: row.platform as TIntegrationImport['integration'],
    account_id: row.accountId,
    account_name: row.accountName,
    remote_list_id: row.remoteListId,
    remote_list_name: row.remoteListName,
    state: row.state,
    imported: row.imported,
    total: row.remoteTotal,
    verify_list_id: row.verifyListCreated ? row.verifyListId : null,
    written_back: row.writtenBack,
    write_back: row.writeBack,
    error: row.error,
    paused_reason: importRuns.isRunning(row.state) ? pausedReason : null,
    created_at: row.createdAt.toISOString(),
  };
}

/** The member's imports still running (importing, verifying or writing back), as sync activities with their progress. */
export async function listRunningJobActivities(exec: TDb, who: { orgId: string; userId: string }): Promise<TRunningJobActivity[]> {
  return readRunningSourceJobs(exec, importRuns, who, (row) => ({
    type: 'sync',
    queued: row.state === 'importing' && row.pagesDone === 0,
    progress: row.state === 'importing' ? percentDone(row.imported, row.remoteTotal) : row.state === 'writing_back' ? percentDone(row.writtenBack, row.imported) : null,
    description: `"${row.remoteListName}" from ${platformLabel(row.platform as TIntegration)} (${row.state.replace('_', ' ')})`,
    metadata: { feature: 'integrations', import_id: row.id, integration: row.platform, phase: row.state, verify_list_id: row.verifyListId },
  }));
}

/** The organisation's latest 50 imports, newest first (every member sees them). */
export async function listImports(exec: TDb, ctx: TCallerContext): Promise<{ items: TIntegrationImport[] }> {
  const { rows } = await importRuns.selectPage(exec, { orgId: ctx.orgId }, { offset: 0, limit: 50 });
  const paused = await readPausedReasons(exec, ctx.orgId, rows, importRuns.isRunning);
  return { items: rows.map((row) => toImportView(row, paused.get(row.id) ?? null)) };
}
