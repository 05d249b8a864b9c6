import { eq, sql } from 'drizzle-orm';
import type { TDb } from '../../platform/db/database';
import { announcements } from './tables';

const ROW_ID = 1;

export async function selectAnnouncement(exec: TDb) {
  const rows = await exec.select().from(announcements).where(eq(announcements.id, ROW_ID)).limit(1);
  return rows[0] ?? null;
}

/** Writes the announcement (message null = cleared) and bumps its timestamp past the previous one. */
export async function upsertAnnouncement(
  exec: TDb,
  values: { message: string | null; dismissable: boolean; styles: { top_container: Record<string, string>; close_btn: Record<string, string> } },
) {
  const now = Date.now();
  const rows = await exec
    .insert(announcements)
    .values({ id: ROW_ID, ...values, timestamp: now, updatedAt: new Date() })
    .onConflictDoUpdate({
      target: announcements.id,
      set: {
        ...values,
        timestamp: sql`greatest(${announcements.timestamp} + 1, ${now})`,
        updatedAt: new Date(),
      },
    })
    .returning();
  return rows[0]!;
}
