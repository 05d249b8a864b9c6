import { queueSourceJob } from '../../platform/bulk-lists/lifecycle';
import { advanceSourceChunk } from '../../platform/bulk-lists/source-chain';
import { readListRowsPage } from '../email-verifier';
import type { TWriteBackItem } from './adapters/types';
import { adapterOfImport, endImport, WRITE_BACK_JOB, withPlatform, type TJobCtx } from './import-pipeline';
import type { TIntegrationRuntime, TServiceDeps } from './platform-access';
import { importRuns, selectMembersPage, type TImportRow } from './queries';

// The import's last step: each member's verification result written back to the platform (tags, fields,
// unsubscribes as the import asked), chunk by chunk: a source chain on the bulk-list kernel (source-chain.ts).

/** Members written back per chunk job. */
export const WRITE_BACK_CHUNK = 250;

/** The write-back item of a member from its verifier row (null: nothing to write, e.g. never verified). */
export function toWriteBackItem(member: { remoteId: string; email: string }, r: Awaited<ReturnType<typeof readListRowsPage>>[number] | undefined): TWriteBackItem | null {
  if (!r) return null;
  if (r.syntax_error) return { member: { id: member.remoteId, email: member.email }, status: 'invalid', safeToSend: false, reason: 'invalid_syntax', undeliverable: true };
  if (!r.status) return null;
  const result = r.result ?? {};
  // A stored result's safe_to_send is 'yes' | 'risky' | 'no' and its reason { code, text }.
  const reason = result.reason as { code?: unknown } | string | undefined;
  return {
    member: { id: member.remoteId, email: member.email },
    status: r.status,
    safeToSend: result.safe_to_send === 'yes',
    reason: typeof reason === 'string' ? reason : typeof reason?.code === 'string' ? reason.code : '',
    undeliverable: r.status === 'invalid',
  };
}

/**
 * One chunk of the write-back: members after `afterSeq` with their results go to the platform; the cursor moves in the
 * same transaction as the next chunk is queued. A chunk that meets a throttle part-way is queued again with the
 * members already written (`written`), which the retry skips.
 */
export async function runWriteBack(deps: TServiceDeps, rt: TIntegrationRuntime, p: { importId: string; afterSeq: number; written?: string[] }, job: TJobCtx): Promise<void> {
  const due = (r: TImportRow) => r.state === 'writing_back' && r.writeCursor === p.afterSeq;
  const row = await importRuns.selectById(deps.database.db, p.importId);
  if (!row || !due(row)) return;
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
    await advanceSourceChunk(deps.database, {
      read: async () => todo,
      work: async (chunk) => {
        if (chunk.length > 0) {
          await adapter.writeBack(row.remoteListId, chunk, row.writeBack, (ids) => {
            for (const id of ids) written.add(id);
          });
        }
        return true;
      },
      lock: (tx) => importRuns.selectForUpdate(tx, row.id),
      due,
      commit: async (tx, current) => {
        await importRuns.update(tx, row.id, { writeCursor: lastSeq, writtenBack: current.writtenBack + items.length });
        await queueSourceJob(deps.queue, row, WRITE_BACK_JOB, { importId: row.id, afterSeq: lastSeq }, { tx });
      },
    });
  });
}
