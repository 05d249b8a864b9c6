import type { TDatabase, TDb } from '../../platform/db/database';
import { deleteOrganisationJobs } from '../../platform/jobs/org-jobs';
import type { TFileStorage } from '../../platform/storage/storage';
import { permitAuditPurge } from '../audit';
import {
  deleteOrgRows,
  deleteUsersWithoutMembership,
  ORG_CHILD_TABLES,
  orgColumnFilter,
  organisationRowFilter,
  selectOrgMemberIds,
  selectOrgTables,
  selectTablesReferencing,
} from './queries';

/** The storage folders of an organisation: every key a feature writes starts with one of these. */
export function orgStorageFolders(orgId: string): string[] {
  return [`uploads/${orgId}`, `downloads/${orgId}`];
}

/**
 * Deletes an organisation for good, in one transaction: the rows of tables without `org_id` that hang off its rows
 * without a foreign key, its jobs in the queue's tables, then every row with its `org_id` in every table of the schema (read from the catalogue,
 * so no table is forgotten), the organisation itself, and its members who belong to no other organisation. Then its
 * storage folders. Answers how many rows each table lost.
 */
export async function deleteOrganisationData(database: TDatabase, storage: TFileStorage, orgId: string): Promise<Record<string, number>> {
  const removed: Record<string, number> = {};
  await database.transaction(async (tx) => {
    const members = await selectOrgMemberIds(tx, orgId);
    // The audit log is append-only; deleting the organisation is the one purge of it besides its retention.
    await permitAuditPurge(tx);
    for (const child of ORG_CHILD_TABLES) removed[child.table] = await deleteOrgRows(tx, child.table, child.where(orgId));
    // The queue's own rows of its jobs (payloads, results), found through job_status before that goes too.
    removed.jobs = await deleteOrganisationJobs(tx, orgId);
    const tables = (await selectOrgTables(tx)).filter((t) => t !== 'organisations');
    // Tables may point at each other: a table whose rows are still referenced is retried after the others.
    let pending = tables;
    for (let pass = 0; pending.length > 0 && pass < tables.length + 1; pass += 1) {
      const next: string[] = [];
      for (const table of pending) {
        const blocked = await referencedElsewhere(tx, table, pending);
        if (blocked) next.push(table);
        else removed[table] = (removed[table] ?? 0) + (await deleteOrgRows(tx, table, orgColumnFilter(orgId)));
      }
      if (next.length === pending.length) {
        // Only cycles are left: delete them anyway (their foreign keys cascade or are checked at the statement's end).
        for (const table of next) removed[table] = (removed[table] ?? 0) + (await deleteOrgRows(tx, table, orgColumnFilter(orgId)));
        break;
      }
      pending = next;
    }
    removed.organisations = await deleteOrgRows(tx, 'organisations', organisationRowFilter(orgId));
    await deleteUsersWithoutMembership(tx, members);
  });
  for (const folder of orgStorageFolders(orgId)) await storage.removeFolder(folder);
  return removed;
}

/** Whether another still-pending table has a foreign key to `table` without ON DELETE CASCADE / SET NULL. */
async function referencedElsewhere(tx: TDb, table: string, pending: string[]) {
  const referencing = await selectTablesReferencing(tx, table);
  return referencing.some((r) => pending.includes(r));
}
