import { eq, lt, sql } from 'drizzle-orm';
import type { TDb } from '../db/database';
import { mailHostPauses, mailHostSnapshots } from './tables';

export async function selectPausedHosts(db: TDb): Promise<string[]> {
  const rows = await db.select({ host: mailHostPauses.host }).from(mailHostPauses);
  return rows.map((r) => r.host);
}

/** One row per process, replaced on each publication. */
export async function upsertHostSnapshot(db: TDb, row: typeof mailHostSnapshots.$inferInsert): Promise<void> {
  await db
    .insert(mailHostSnapshots)
    .values(row)
    .onConflictDoUpdate({ target: mailHostSnapshots.processId, set: { role: row.role, hosts: sql`excluded.hosts`, updatedAt: sql`excluded.updated_at` } });
}

export async function deleteSnapshotsBefore(db: TDb, before: Date): Promise<void> {
  await db.delete(mailHostSnapshots).where(lt(mailHostSnapshots.updatedAt, before));
}

export async function deleteSnapshotOf(db: TDb, processId: string): Promise<void> {
  await db.delete(mailHostSnapshots).where(eq(mailHostSnapshots.processId, processId));
}
