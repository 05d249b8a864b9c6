import { sql } from 'drizzle-orm';
import type { TDb } from '../../platform/db/database';
import { ident, ORG_CHILD_TABLES, ORG_COLUMN, selectOrgMemberIds, selectOrgRowsPage, selectOrgTables } from './queries';

/** Columns never written to an archive: password hashes, token hashes, encrypted secrets. */
const REDACTED_COLUMN = /password|secret|token_hash|key_hash|_hash$|encrypted/i;

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
  const sources: { table: string; where: ReturnType<typeof sql> }[] = [
    { table: 'organisations', where: sql`id = ${orgId}` },
    ...(members.length > 0 ? [{ table: 'users', where: sql`id in (${sql.join(members.map((id) => sql`${id}::uuid`), sql`, `)})` }] : []),
    ...(await selectOrgTables(exec)).map((table) => ({ table, where: sql`${ident(ORG_COLUMN)} = ${orgId}` })),
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
