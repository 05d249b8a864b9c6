import type { TIntegration } from '@verilead/contracts';
import { queueSourceJob } from '../../platform/bulk-lists/lifecycle';
import { advanceSourceChunk } from '../../platform/bulk-lists/source-chain';
import type { TDb } from '../../platform/db/database';
import { createSourcedList } from '../email-verifier';
import { ADVANCE_JOB, adapterOfImport, endImport, IMPORT_FINISH_JOB, IMPORT_PAGE_JOB, withPlatform, type TJobCtx } from './import-pipeline';
import { platformLabel, type TIntegrationRuntime, type TServiceDeps } from './platform-access';
import type { TRemoteMember } from './adapters/types';
import { countMembers, importRuns, insertMembers, selectKnownRemoteIds, selectMembersPage, type TImportRow } from './queries';

// The import's first half: the platform list read page by page into the import's members (a source chain on the
// bulk-list kernel, platform/bulk-lists/source-chain.ts), then, after the last page, the members stored as a verifier
// list (source = the platform) that is analysed like an upload.

/**
 * Stores a page's members not seen before in this import (no address: skipped; an id met twice: once), numbered on
 * from `imported`; answers the rows stored. The import's pages and the polling for new contacts (list-sync.ts) share it.
 */
export async function insertNewMembers(tx: TDb, importId: string, imported: number, members: readonly TRemoteMember[]) {
  const candidates = members.filter((m) => m.email.trim() !== '');
  const known = await selectKnownRemoteIds(tx, importId, candidates.map((m) => m.id));
  const fresh = candidates.filter((m) => !known.has(m.id) && (known.add(m.id), true));
  const rows = fresh.map((m, i) => ({ importId, seq: imported + i + 1, remoteId: m.id, email: m.email.trim().slice(0, 500), firstName: m.firstName.slice(0, 200), lastName: m.lastName.slice(0, 200) }));
  await insertMembers(tx, rows);
  return rows;
}

/**
 * One page of an import: reads the page at the stored cursor, then in one transaction stores its new members,
 * moves the cursor and queues the next page (or the finish). A page whose number is already done is skipped, so
 * a job run twice (a killed worker) stores nothing twice.
 */
export async function runImportPage(deps: TServiceDeps, rt: TIntegrationRuntime, p: { importId: string; page: number }, job: TJobCtx): Promise<void> {
  const due = (r: TImportRow) => r.state === 'importing' && r.pagesDone === p.page;
  const row = await importRuns.selectById(deps.database.db, p.importId);
  if (!row || !due(row)) return;
  const adapter = await adapterOfImport(deps, rt, row);
  if (!adapter) return;
  await withPlatform(deps, row, job, { name: IMPORT_PAGE_JOB, payload: () => p }, async () => {
    await advanceSourceChunk(deps.database, {
      read: () => adapter.listMembers(row.remoteListId, row.cursor),
      lock: (tx) => importRuns.selectForUpdate(tx, row.id),
      due,
      commit: async (tx, current, page) => {
        const fresh = await insertNewMembers(tx, row.id, current.imported, page.members);
        await importRuns.update(tx, row.id, { imported: current.imported + fresh.length, pagesDone: p.page + 1, cursor: page.nextCursor });
        if (page.nextCursor) await queueSourceJob(deps.queue, row, IMPORT_PAGE_JOB, { importId: row.id, page: p.page + 1 }, { tx });
        else await queueSourceJob(deps.queue, row, IMPORT_FINISH_JOB, { importId: row.id }, { tx });
      },
    });
  });
}

const csvCell = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

async function* membersCsv(exec: TDb, importId: string): AsyncGenerator<string> {
  yield 'email,first_name,last_name\n';
  for (let after = 0; ; ) {
    const page = await selectMembersPage(exec, importId, after, 5_000);
    if (page.length === 0) return;
    yield page.map((m) => `${csvCell(m.email)},${csvCell(m.firstName)},${csvCell(m.lastName)}\n`).join('');
    after = page[page.length - 1]!.seq;
  }
}

/** After the last page: the members become a verifier list (source = the platform), analysed like an upload. Idempotent. */
export async function runImportFinish(deps: TServiceDeps, rt: TIntegrationRuntime, p: { importId: string }): Promise<void> {
  const row = await importRuns.selectById(deps.database.db, p.importId);
  if (!row || row.state !== 'importing') return;
  if ((await countMembers(deps.database.db, row.id)) === 0) {
    await endImport(deps.database.db, row, { state: 'completed', error: 'The list has no contacts to verify' });
    return;
  }
  const storageKey = `uploads/${row.orgId}/${row.verifyListId}`;
  const { size } = await rt.storage.write(storageKey, membersCsv(deps.database.db, row.id));
  const name = `${row.remoteListName} (${platformLabel(row.platform as TIntegration)})`;
  await createSourcedList(deps, { orgId: row.orgId, userId: row.userId }, { listId: row.verifyListId, name, fileName: `${name}.csv`, source: row.platform, storageKey, sizeBytes: size });
  await deps.database.transaction(async (tx) => {
    const current = await importRuns.selectForUpdate(tx, row.id);
    if (!current || current.state !== 'importing') return;
    await importRuns.update(tx, row.id, { state: 'verifying', verifyListCreated: 1 });
    await queueSourceJob(deps.queue, row, ADVANCE_JOB, { importId: row.id }, { tx });
  });
}
