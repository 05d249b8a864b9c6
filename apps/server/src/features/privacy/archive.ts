import type { TDb } from '../../platform/db/database';
import {
  ORG_CHILD_TABLES,
  orgColumnFilter,
  organisationRowFilter,
  selectOrgMemberIds,
  selectOrgRowsPage,
  selectOrgTables,
  usersFilter,
  type TRowFilter,
} from './queries';

/**
 * Columns never written to an archive: passwords and their hashes, tokens (`token`, `*_token`: live secret addresses
 * and credentials) and their hashes, secrets, encrypted values.
 */
export const REDACTED_COLUMN = /password|secret|^token$|_token$|token_hash|key_hash|_hash$|encrypted/i;

function redact(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) out[k] = REDACTED_COLUMN.test(k) ? '[redacted]' : v;
  return out;
}

const PAGE = 1_000;

/**
 * The organisation's data as JSON lines, one `{"table": …, "row": {…}}` per row: the organisation, its members'
 * profiles, then every table with its `org_id` (read from the catalogue, like deletion), then the child tables
 * without `org_id` (a list's rows and results). Secrets and hashes are redacted. Counts rows in `counter`.
 */
export async function* organisationArchiveLines(exec: TDb, orgId: string, counter: { rows: number }): AsyncGenerator<string> {
  const line = (table: string, row: Record<string, unknown>) => {
    counter.rows += 1;
    return `${JSON.stringify({ table, row: redact(row) })}\n`;
  };
  const members = await selectOrgMemberIds(exec, orgId);
  const sources: { table: string; where: TRowFilter }[] = [
    { table: 'organisations', where: organisationRowFilter(orgId) },
    ...(members.length > 0 ? [{ table: 'users', where: usersFilter(members) }] : []),
    ...(await selectOrgTables(exec)).map((table) => ({ table, where: orgColumnFilter(orgId) })),
    ...ORG_CHILD_TABLES.map((c) => ({ table: c.table, where: c.where(orgId) })),
  ];
  for (const s of sources) {
    for (let offset = 0; ; offset += PAGE) {
      const rows = await selectOrgRowsPage(exec, s.table, s.where, offset, PAGE);
      for (const r of rows) yield line(s.table, r.row);
      if (rows.length < PAGE) break;
    }
  }
}
