import type { TIntegration, TListSyncData, TListSyncRequest } from '@verilead/contracts';
import { queueSourceJob } from '../../platform/bulk-lists/lifecycle';
import type { TDb } from '../../platform/db/database';
import { AppError } from '../../platform/errors/app-error';
import type { TJobQueue } from '../../platform/jobs/jobs';
import type { TMaintenanceTask } from '../../platform/jobs/maintenance';
import type { TCallerContext } from '../../platform/tenancy/context';
import { appendContactsAndVerify, readRunChanges, type TFinishedRun } from '../email-verifier';
import { recordActivity } from '../activities';
import { RateLimitedError, RemoteAuthError } from './adapters/http';
import type { TWriteBackItem } from './adapters/types';
import { adapterOfImport, type TJobCtx } from './import-pipeline';
import { platformLabel, type TIntegrationRuntime, type TServiceDeps } from './platform-access';
import { insertNewMembers } from './import-pages';
import { importRuns } from './queries';
import { selectAutoVerify, selectDuePollsForUpdate, selectImportOfList, selectMembersBySeq, updateAutoVerify, upsertAutoVerify } from './auto-verify-queries';
import { toWriteBackItem, WRITE_BACK_CHUNK } from './write-back';

// A platform list kept in sync with its verifier list (issue 32 point 3): new contacts found by paged polling are
// appended and verified (each charged once), and what a run of the list changed is written back to the platform the
// way the import's write-back does (the same adapter call, the import's write-back choice).

export const POLL_NEW_CONTACTS_JOB = 'integrations.poll_new_contacts';
export const RUN_WRITE_BACK_JOB = 'integrations.reverify_write_back';
/** How often an opted-in list is polled for new contacts (at most; the maintenance cron decides the rhythm). */
export const POLL_INTERVAL_MS = 10 * 60_000;
/** Credits a new contact costs (its verification, once). */
const COST_PER_CONTACT = 1;

type TClockDeps = TServiceDeps & { clock: () => Date };

/** The import that made a list of the caller's (null: an uploaded list). The by-id rule (authorization table, object verify_list) answered 404 for a list the caller does not see. */
async function selectCallersImport(exec: TDb, caller: TCallerContext, listId: string) {
  const row = await selectImportOfList(exec, listId);
  return row && row.orgId === caller.orgId && row.accountId ? row : null;
}

export async function getListSync(deps: TServiceDeps, caller: TCallerContext, listId: string): Promise<TListSyncData> {
  const row = await selectCallersImport(deps.database.db, caller, listId);
  if (!row) {
    return { list_id: listId, from_platform: false, import_id: null, platform: null, remote_list_name: null, auto_verify: false, cost_per_contact: COST_PER_CONTACT, polled_at: null, added: 0, last_error: null };
  }
  const auto = await selectAutoVerify(deps.database.db, row.id);
  return {
    list_id: listId,
    from_platform: true,
    import_id: row.id,
    platform: platformLabel(row.platform as TIntegration),
    remote_list_name: row.remoteListName,
    auto_verify: auto?.enabled ?? false,
    cost_per_contact: COST_PER_CONTACT,
    polled_at: auto?.polledAt?.toISOString() ?? null,
    added: auto?.added ?? 0,
    last_error: auto?.lastError ?? null,
  };
}

export async function setListSync(deps: TServiceDeps, caller: TCallerContext, body: TListSyncRequest): Promise<TListSyncData> {
  const row = await selectCallersImport(deps.database.db, caller, body.list_id);
  if (!row) throw new AppError('conflict', 'This list was not imported from a connected platform: there are no new contacts to verify');
  if (body.auto_verify && (body.accepted_cost_per_contact ?? 0) < COST_PER_CONTACT) {
    throw new AppError('conflict', `Each new contact costs ${COST_PER_CONTACT} credit: confirm that cost to turn automatic verification on`, { additional_info: { cost_per_contact: COST_PER_CONTACT } });
  }
  await deps.database.transaction(async (tx) => {
    await upsertAutoVerify(tx, { importId: row.id, orgId: row.orgId, enabled: body.auto_verify });
    const what = `"${row.remoteListName}" from ${platformLabel(row.platform as TIntegration)}`;
    const description = body.auto_verify ? `New contacts of ${what} will be verified automatically (${COST_PER_CONTACT} credit each)` : `Stopped verifying new contacts of ${what} automatically`;
    await recordActivity(tx, { orgId: row.orgId, userId: caller.userId, type: 'sync', description, metadata: { import_id: row.id, list_id: body.list_id, auto_verify: body.auto_verify } });
  });
  return getListSync(deps, caller, body.list_id);
}

/** The maintenance task: queues the first page of a poll for each opted-in list due one (once, whatever the number of workers). */
export function createNewContactsPollTask(deps: TClockDeps): TMaintenanceTask {
  return {
    name: 'newContactsPoll',
    run: () =>
      deps.database.transaction(async (tx) => {
        const now = deps.clock();
        const due = await selectDuePollsForUpdate(tx, new Date(now.getTime() - POLL_INTERVAL_MS), 200);
        for (const d of due) {
          await updateAutoVerify(tx, d.import_id, { polledAt: now });
          await deps.queue.enqueue(POLL_NEW_CONTACTS_JOB, { importId: d.import_id, cursor: null }, { tx, orgId: d.org_id, userId: d.user_id });
        }
        return { polled: due.length };
      }),
  };
}

/**
 * One page of a poll: the platform list's page at `cursor`; its members not seen before are stored as the import's
 * next members and appended to the verifier list, whose `new_contacts` run verifies them, in one transaction under
 * the import's lock (a retried or concurrent page finds them known). Then the next page, until the last.
 */
export async function runNewContactsPoll(deps: TClockDeps, rt: TIntegrationRuntime, p: { importId: string; cursor: string | null }, job: TJobCtx): Promise<void> {
  const row = await importRuns.selectById(deps.database.db, p.importId);
  const auto = row ? await selectAutoVerify(deps.database.db, row.id) : null;
  if (!row || !auto?.enabled || row.state !== 'completed' || !row.accountId) return;
  const adapter = await adapterOfImport(deps, rt, row);
  if (!adapter) return;
  let page;
  try {
    page = await adapter.listMembers(row.remoteListId, p.cursor);
  } catch (err) {
    if (err instanceof RateLimitedError) {
      await queueSourceJob(deps.queue, row, POLL_NEW_CONTACTS_JOB, p, { delayMs: err.retryAfterMs });
      return;
    }
    if (err instanceof RemoteAuthError || job.attempt >= job.maxAttempts) {
      await updateAutoVerify(deps.database.db, row.id, { lastError: `${platformLabel(row.platform as TIntegration)} could not be read: ${(err as Error).message}` });
      return;
    }
    throw err;
  }
  await deps.database.transaction(async (tx) => {
    const current = await importRuns.selectForUpdate(tx, row.id);
    if (!current) return;
    const members = await insertNewMembers(tx, row.id, current.imported, page.members);
    if (members.length > 0) {
      await appendContactsAndVerify(tx, deps.queue, row.verifyListId, members.map((m) => ({ rowNumber: m.seq, email: m.email })), deps.clock());
      await importRuns.update(tx, row.id, { imported: current.imported + members.length });
      const fresher = await selectAutoVerify(tx, row.id);
      await updateAutoVerify(tx, row.id, { added: (fresher?.added ?? 0) + members.length, lastError: null });
    }
    if (page.nextCursor) await queueSourceJob(deps.queue, row, POLL_NEW_CONTACTS_JOB, { importId: row.id, cursor: page.nextCursor }, { tx });
  });
}

/** `afterRun` of the verifier's runs: a run of a platform list that changed rows queues their write-back, in the run's transaction. */
export function createRunWriteBackHook(queue: TJobQueue) {
  return async (tx: TDb, run: TFinishedRun): Promise<void> => {
    if (run.changed === 0) return;
    const row = await selectImportOfList(tx, run.listId);
    if (!row || !row.accountId || row.orgId !== run.orgId) return;
    await queueSourceJob(queue, row, RUN_WRITE_BACK_JOB, { importId: row.id, runId: run.id, afterRow: 0 }, { tx });
  };
}

/** One chunk of a run's write-back: the rows the run changed after `afterRow`, written to the platform; then the next chunk. */
export async function runRunWriteBack(deps: TServiceDeps, rt: TIntegrationRuntime, p: { importId: string; runId: string; afterRow: number }): Promise<void> {
  const row = await importRuns.selectById(deps.database.db, p.importId);
  if (!row || !row.accountId) return;
  const changes = await readRunChanges(deps.database.db, { runId: p.runId, listId: row.verifyListId }, p.afterRow, WRITE_BACK_CHUNK);
  if (changes.length === 0) return;
  const adapter = await adapterOfImport(deps, rt, row);
  if (!adapter) return;
  const members = new Map((await selectMembersBySeq(deps.database.db, row.id, changes.map((c) => c.row_number))).map((m) => [m.seq, m]));
  const items = changes.flatMap((c): TWriteBackItem[] => {
    const m = members.get(c.row_number);
    const item = m ? toWriteBackItem(m, { row_number: c.row_number, email: c.email, duplicate: false, syntax_error: false, status: c.status, result: c.result }) : null;
    return item ? [item] : [];
  });
  try {
    if (items.length > 0) await adapter.writeBack(row.remoteListId, items, row.writeBack);
  } catch (err) {
    if (!(err instanceof RateLimitedError)) throw err;
    await queueSourceJob(deps.queue, row, RUN_WRITE_BACK_JOB, p, { delayMs: err.retryAfterMs });
    return;
  }
  if (changes.length === WRITE_BACK_CHUNK) {
    await queueSourceJob(deps.queue, row, RUN_WRITE_BACK_JOB, { ...p, afterRow: changes[changes.length - 1]!.row_number });
  }
}
