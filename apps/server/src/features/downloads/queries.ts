import { and, desc, eq, inArray, isNotNull, lte, ne } from 'drizzle-orm';
import type { TDb } from '../../platform/db/database';
import { downloads } from './tables';

export type TDownloadRow = typeof downloads.$inferSelect;

export async function insertDownload(exec: TDb, row: typeof downloads.$inferInsert): Promise<TDownloadRow> {
  const rows = await exec.insert(downloads).values(row).returning();
  return rows[0]!;
}

/** A download in the caller's visible scope (the organisation, and the member when the role sees only its own). */
export async function selectDownload(exec: TDb, scope: { orgId: string; userId?: string }, id: string): Promise<TDownloadRow | null> {
  const rows = await exec
    .select()
    .from(downloads)
    .where(and(eq(downloads.id, id), eq(downloads.orgId, scope.orgId), scope.userId ? eq(downloads.userId, scope.userId) : undefined))
    .limit(1);
  return rows[0] ?? null;
}

/** By id only: for the job handler and for a signed download token (the token is the authority). */
export async function selectDownloadById(exec: TDb, id: string): Promise<TDownloadRow | null> {
  const rows = await exec.select().from(downloads).where(eq(downloads.id, id)).limit(1);
  return rows[0] ?? null;
}

export async function updateDownload(exec: TDb, id: string, values: Partial<typeof downloads.$inferInsert>): Promise<void> {
  await exec
    .update(downloads)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(downloads.id, id));
}

/** A member's files still queued or being prepared, newest first. */
export async function selectRunningDownloads(exec: TDb, who: { orgId: string; userId: string }): Promise<TDownloadRow[]> {
  return exec
    .select()
    .from(downloads)
    .where(and(eq(downloads.orgId, who.orgId), eq(downloads.userId, who.userId), inArray(downloads.state, ['queued', 'processing'])))
    .orderBy(desc(downloads.createdAt))
    .limit(200);
}

/** Up to `limit` downloads whose prepared file's retention ended at `now` (an `input` download's file is its list's upload, which stays). */
export async function selectExpiredDownloadFiles(exec: TDb, now: Date, limit: number): Promise<{ id: string; storageKey: string | null }[]> {
  return exec
    .select({ id: downloads.id, storageKey: downloads.storageKey })
    .from(downloads)
    .where(and(isNotNull(downloads.storageKey), lte(downloads.expiresAt, now), ne(downloads.kind, 'input')))
    .limit(limit);
}

/** Forgets a download's storage key once its file was removed (its state reads `expired` from then on). */
export async function clearDownloadFile(exec: TDb, id: string): Promise<void> {
  await exec.update(downloads).set({ storageKey: null, updatedAt: new Date() }).where(eq(downloads.id, id));
}
