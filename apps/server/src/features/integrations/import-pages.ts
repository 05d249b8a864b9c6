import type { TIntegration } from '@verilead/contracts';
import type { TDb } from '../../platform/db/database';
import { createSourcedList } from '../email-verifier';
import { ADVANCE_JOB, adapterOfImport, endImport, IMPORT_FINISH_JOB, IMPORT_PAGE_JOB, withPlatform, type TJobCtx } from './import-pipeline';
import { platformLabel, type TIntegrationRuntime, type TServiceDeps } from './platform-access';
import { countMembers, insertMembers, selectImport, selectImportForUpdate, selectKnownRemoteIds, selectMembersPage, updateImport } from './queries';

// The import's first half: the platform list read page by page into the import's members, then, after the last
// page, the members stored as a verifier list (source = the platform) that is analysed like an upload.

/**
 * One page of an import: reads the page at the stored cursor, then in one transaction stores its new members,
 * moves the cursor and queues the next page (or the finish). A page whose number is already done is skipped, so
 * a job run twice (a killed worker) stores nothing twice.
 */
export async function runImportPage(deps: TServiceDeps, rt: TIntegrationRuntime, p: { importId: string; page: number }, job: TJobCtx): Promise<void> {
  const row = await selectImport(deps.database.db, p.importId);
  if (!row || row.state !== 'importing' || row.pagesDone !== p.page) return;
  const adapter = await adapterOfImport(deps, rt, row);
  if (!adapter) return;
  await withPlatform(deps, row, job, { name: IMPORT_PAGE_JOB, payload: () => p }, async () => {
    const page = await adapter.listMembers(row.remoteListId, row.cursor);
    await deps.database.transaction(async (tx) => {
      const current = await selectImportForUpdate(tx, row.id);
      if (!current || current.state !== 'importing' || current.pagesDone !== p.page) return;
      const candidates = page.members.filter((m) => m.email.trim() !== '');
      const known = await selectKnownRemoteIds(tx, row.id, candidates.map((m) => m.id));
      const fresh = candidates.filter((m) => !known.has(m.id) && (known.add(m.id), true));
      await insertMembers(
        tx,
        fresh.map((m, i) => ({ importId: row.id, seq: current.imported + i + 1, remoteId: m.id, email: m.email.trim().slice(0, 500), firstName: m.firstName.slice(0, 200), lastName: m.lastName.slice(0, 200) })),
      );
      await updateImport(tx, row.id, { imported: current.imported + fresh.length, pagesDone: p.page + 1, cursor: page.nextCursor });
      if (page.nextCursor) await deps.queue.enqueue(IMPORT_PAGE_JOB, { importId: row.id, page: p.page + 1 }, { tx, orgId: row.orgId, userId: row.userId });
      else await deps.queue.enqueue(IMPORT_FINISH_JOB, { importId: row.id }, { tx, orgId: row.orgId, userId: row.userId });
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
  const row = await selectImport(deps.database.db, p.importId);
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
    const current = await selectImportForUpdate(tx, row.id);
    if (!current || current.state !== 'importing') return;
    await updateImport(tx, row.id, { state: 'verifying', verifyListCreated: 1 });
    await deps.queue.enqueue(ADVANCE_JOB, { importId: row.id }, { tx, orgId: row.orgId, userId: row.userId });
  });
}
