import { and, asc, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { TDb } from '../../platform/db/database';
import { integrationAccounts, integrationImportMembers, integrationImports } from './tables';

export type TAccountRow = typeof integrationAccounts.$inferSelect;
export type TImportRow = typeof integrationImports.$inferSelect;
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

export async function insertImport(exec: TDb, row: typeof integrationImports.$inferInsert): Promise<TImportRow> {
  const rows = await exec.insert(integrationImports).values(row).returning();
  return rows[0]!;
}

export async function selectImport(exec: TDb, id: string): Promise<TImportRow | null> {
  const rows = await exec.select().from(integrationImports).where(eq(integrationImports.id, id));
  return rows[0] ?? null;
}

/** The import row locked for this transaction (a page or chunk job advances it). */
export async function selectImportForUpdate(exec: TDb, id: string): Promise<TImportRow | null> {
  const rows = await exec.select().from(integrationImports).where(eq(integrationImports.id, id)).for('update');
  return rows[0] ?? null;
}

export async function selectImports(exec: TDb, orgId: string, limit: number): Promise<TImportRow[]> {
  return exec.select().from(integrationImports).where(eq(integrationImports.orgId, orgId)).orderBy(desc(integrationImports.createdAt)).limit(limit);
}

/** A member's imports still running (importing, verifying or writing back). */
export async function selectRunningImports(exec: TDb, who: { orgId: string; userId: string }): Promise<TImportRow[]> {
  return exec
    .select()
    .from(integrationImports)
    .where(and(eq(integrationImports.orgId, who.orgId), eq(integrationImports.userId, who.userId), inArray(integrationImports.state, ['importing', 'verifying', 'writing_back'])))
    .orderBy(desc(integrationImports.updatedAt))
    .limit(200);
}

export async function updateImport(exec: TDb, id: string, values: Partial<typeof integrationImports.$inferInsert>): Promise<void> {
  await exec
    .update(integrationImports)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(integrationImports.id, id));
}

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
