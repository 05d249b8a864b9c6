import { normaliseForDedupe, parseAddress } from '@verilead/verifier';
import type { TDb } from '../../platform/db/database';
import type { TJobQueue } from '../../platform/jobs/jobs';
import { verifyListStore } from './queries';
import { insertAppendedRows, insertRunOnce, selectFirstRowsByKey, selectRunChangesPage } from './reverify-queries';
import { REVERIFY_RUN_JOB } from './reverify-run-job';

/**
 * Appends contacts newly found on a connected platform list to its verifier list (row numbers chosen by the caller:
 * the platform members' sequence numbers) and queues their verification, a `new_contacts` run, in the caller's
 * transaction: each new unique address is verified and charged once. An address the list already has becomes a
 * duplicate of its row; one that is not an address, a syntax error (neither is charged). Answers the run's id.
 */
export async function appendContactsAndVerify(
  tx: TDb,
  queue: TJobQueue,
  listId: string,
  contacts: { rowNumber: number; email: string }[],
  now: Date,
): Promise<{ runId: string | null; unique: number }> {
  const list = await verifyListStore.selectForUpdate(tx, listId);
  if (!list || contacts.length === 0) return { runId: null, unique: 0 };
  const parsed = contacts.map((c) => {
    const email = c.email.trim().slice(0, 500);
    const p = email ? parseAddress(email) : null;
    return p && p.ok ? { ...c, email, dedupeKey: normaliseForDedupe(p.address), ok: true } : { ...c, email, dedupeKey: email.toLowerCase(), ok: false };
  });
  const known = await selectFirstRowsByKey(tx, listId, parsed.filter((p) => p.ok).map((p) => p.dedupeKey));
  const rows = parsed.map((p) => {
    if (!p.ok) return { rowNumber: p.rowNumber, email: p.email, dedupeKey: p.dedupeKey, kind: 'syntax_error' as const, firstRow: null };
    const first = known.get(p.dedupeKey);
    if (first !== undefined) return { rowNumber: p.rowNumber, email: p.email, dedupeKey: p.dedupeKey, kind: 'duplicate' as const, firstRow: first };
    known.set(p.dedupeKey, p.rowNumber);
    return { rowNumber: p.rowNumber, email: p.email, dedupeKey: p.dedupeKey, kind: 'unique' as const, firstRow: null };
  });
  await insertAppendedRows(tx, listId, rows);
  const count = (k: string) => rows.filter((r) => r.kind === k).length;
  const unique = count('unique');
  await verifyListStore.update(tx, listId, {
    rowCount: list.rowCount + rows.length,
    uniqueCount: list.uniqueCount + unique,
    duplicateCount: list.duplicateCount + count('duplicate'),
    syntaxErrorCount: list.syntaxErrorCount + count('syntax_error'),
  });
  if (unique === 0) return { runId: null, unique };
  const fromRow = Math.min(...rows.map((r) => r.rowNumber)) - 1;
  const run = await insertRunOnce(tx, { listId, orgId: list.orgId, userId: list.userId, kind: 'new_contacts', dueAt: now, fromRow });
  if (!run) return { runId: null, unique };
  await queue.enqueue(REVERIFY_RUN_JOB, { runId: run.id }, { tx, orgId: list.orgId, userId: list.userId, maxAttempts: 5, backoffMs: 5_000 });
  return { runId: run.id, unique };
}

/** The rows a run changed after `afterRow` (a first result counts as a change), with their new result: what a write-back sends. */
export function readRunChanges(exec: TDb, run: { runId: string; listId: string }, afterRow: number, limit: number) {
  return selectRunChangesPage(exec, { ...run, all: false, afterRow, offset: 0, limit });
}
