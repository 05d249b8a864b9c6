import { readListRowsPage } from '../email-verifier';
import type { TWriteBackItem } from './adapters/types';
import { adapterOfImport, endImport, WRITE_BACK_JOB, withPlatform, type TJobCtx } from './import-pipeline';
import type { TIntegrationRuntime, TServiceDeps } from './platform-access';
import { selectImport, selectImportForUpdate, selectMembersPage, updateImport } from './queries';

// The import's last step: each member's verification result written back to the platform (tags, fields,
// unsubscribes as the import asked), chunk by chunk.

/** Members written back per chunk job. */
export const WRITE_BACK_CHUNK = 250;

/** The write-back item of a member from its verifier row (null: nothing to write, e.g. never verified). */
function toWriteBackItem(member: { remoteId: string; email: string }, r: Awaited<ReturnType<typeof readListRowsPage>>[number] | undefined): TWriteBackItem | null {
  if (!r) return null;
  if (r.syntax_error) return { member: { id: member.remoteId, email: member.email }, status: 'invalid', safeToSend: false, reason: 'invalid_syntax', undeliverable: true };
  if (!r.status) return null;
  const result = r.result ?? {};
  return {
    member: { id: member.remoteId, email: member.email },
    status: r.status,
    safeToSend: result.safe_to_send === true,
    reason: typeof result.reason === 'string' ? result.reason : '',
    undeliverable: r.status === 'invalid',
  };
}

/**
 * One chunk of the write-back: members after `afterSeq` with their results go to the platform; the cursor moves in the
 * same transaction as the next chunk is queued. A chunk that meets a throttle part-way is queued again with the
 * members already written (`written`), which the retry skips.
 */
export async function runWriteBack(deps: TServiceDeps, rt: TIntegrationRuntime, p: { importId: string; afterSeq: number; written?: string[] }, job: TJobCtx): Promise<void> {
  const row = await selectImport(deps.database.db, p.importId);
  if (!row || row.state !== 'writing_back' || row.writeCursor !== p.afterSeq) return;
  const members = await selectMembersPage(deps.database.db, row.id, p.afterSeq, WRITE_BACK_CHUNK);
  if (members.length === 0) {
    await endImport(deps.database.db, row, { state: 'completed' });
    return;
  }
  const adapter = await adapterOfImport(deps, rt, row);
  if (!adapter) return;
  const lastSeq = members[members.length - 1]!.seq;
  // Row numbers of the verifier list are the members' sequence numbers.
  const rows = new Map((await readListRowsPage(deps.database.db, row.verifyListId, p.afterSeq, lastSeq - p.afterSeq)).map((r) => [r.row_number, r]));
  const items = members.map((m) => toWriteBackItem(m, rows.get(m.seq))).filter((i): i is TWriteBackItem => i !== null);
  const written = new Set(p.written ?? []);
  const todo = items.filter((i) => !written.has(i.member.id));
  const retry = () => ({ importId: p.importId, afterSeq: p.afterSeq, ...(written.size > 0 ? { written: [...written] } : {}) });
  await withPlatform(deps, row, job, { name: WRITE_BACK_JOB, payload: retry }, async () => {
    if (todo.length > 0) {
      await adapter.writeBack(row.remoteListId, todo, row.writeBack, (ids) => {
        for (const id of ids) written.add(id);
      });
    }
    await deps.database.transaction(async (tx) => {
      const current = await selectImportForUpdate(tx, row.id);
      if (!current || current.state !== 'writing_back' || current.writeCursor !== p.afterSeq) return;
      await updateImport(tx, row.id, { writeCursor: lastSeq, writtenBack: current.writtenBack + items.length });
      await deps.queue.enqueue(WRITE_BACK_JOB, { importId: row.id, afterSeq: lastSeq }, { tx, orgId: row.orgId, userId: row.userId });
    });
  });
}
