import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import { createSourceListStore } from '../../platform/bulk-lists/source-list-store';
import type { TDb } from '../../platform/db/database';
import { integrationAccounts, integrationImportMembers, integrationImports } from './tables';

export type TAccountRow = typeof integrationAccounts.$inferSelect;
export type TImportRow = typeof integrationImports.$inferSelect;
export type TImportInsert = typeof integrationImports.$inferInsert;
export type TMemberInsert = typeof integrationImportMembers.$inferInsert;

export async function insertAccount(exec: TDb, row: typeof integrationAccounts.$inferInsert): Promise<TAccountRow | null> {
  const rows = await exec.insert(integrationAccounts).values(row).onConflictDoNothing().returning();
  return rows[0] ?? null;
}

export async function selectAccounts(exec: TDb, orgId: string, platform?: string): Promise<TAccountRow[]> {
  return exec
    .select()
    .from(integrationAccounts)
    .where(and(eq(integrationAccounts.orgId, orgId), platform ? eq(integrationAccounts.platform, platform) : undefined))
    .orderBy(asc(integrationAccounts.platform), asc(integrationAccounts.createdAt));
}

export async function selectAccount(exec: TDb, orgId: string, platform: string, id: string): Promise<TAccountRow | null> {
  const rows = await exec
    .select()
    .from(integrationAccounts)
    .where(and(eq(integrationAccounts.id, id), eq(integrationAccounts.orgId, orgId), eq(integrationAccounts.platform, platform)));
  return rows[0] ?? null;
}

export async function selectAccountById(exec: TDb, id: string): Promise<TAccountRow | null> {
  const rows = await exec.select().from(integrationAccounts).where(eq(integrationAccounts.id, id));
  return rows[0] ?? null;
}

export async function deleteAccount(exec: TDb, orgId: string, id: string): Promise<boolean> {
  const rows = await exec
    .delete(integrationAccounts)
    .where(and(eq(integrationAccounts.id, id), eq(integrationAccounts.orgId, orgId)))
    .returning({ id: integrationAccounts.id });
  return rows.length > 0;
}

/**
 * The imports: a source list's state rows on the bulk-list kernel (source-list-store.ts), running while importing,
 * verifying or writing back.
 */
export const importRuns = createSourceListStore<TImportRow, TImportInsert>({
  table: integrationImports,
  noun: 'Import',
  running: ['importing', 'verifying', 'writing_back'],
});

/** Remote ids of this import already stored, among `remoteIds`. */
export async function selectKnownRemoteIds(exec: TDb, importId: string, remoteIds: string[]): Promise<Set<string>> {
  if (remoteIds.length === 0) return new Set();
  const rows = await exec
    .select({ remoteId: integrationImportMembers.remoteId })
    .from(integrationImportMembers)
    .where(and(eq(integrationImportMembers.importId, importId), inArray(integrationImportMembers.remoteId, remoteIds)));
  return new Set(rows.map((r) => r.remoteId));
}

export async function insertMembers(exec: TDb, rows: TMemberInsert[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 1_000) await exec.insert(integrationImportMembers).values(rows.slice(i, i + 1_000));
}

export async function selectMembersPage(exec: TDb, importId: string, afterSeq: number, limit: number) {
  return exec
    .select()
    .from(integrationImportMembers)
    .where(and(eq(integrationImportMembers.importId, importId), gt(integrationImportMembers.seq, afterSeq)))
    .orderBy(asc(integrationImportMembers.seq))
    .limit(limit);
}

export async function countMembers(exec: TDb, importId: string): Promise<number> {
  const rows = await exec.select({ n: sql<number>`count(*)::int` }).from(integrationImportMembers).where(eq(integrationImportMembers.importId, importId));
  return rows[0]?.n ?? 0;
}
