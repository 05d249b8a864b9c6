import { sql } from 'drizzle-orm';
import type { TDb } from '../db/database';
import { auditLog } from './tables';

export type TAuditRow = Omit<typeof auditLog.$inferInsert, 'actorEmail'> & {
  /** The actor's e-mail when known; else read from `users` for `actorUserId` in the same statement (null without one). */
  actorEmail: string | null;
};

/** Inserts one audit entry; a missing e-mail is looked up from the actor's user row by the insert itself. */
export async function insertAuditEntry(db: TDb, row: TAuditRow): Promise<void> {
  const actorEmail = row.actorEmail ?? (row.actorUserId ? sql`(select email from users where id = ${row.actorUserId})` : null);
  await db.insert(auditLog).values({ ...row, actorEmail });
}
