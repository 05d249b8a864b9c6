import { sql } from 'drizzle-orm';
import type { TDb } from '../db/database';

/** Sends `payload` on the NOTIFY `channel`. */
export async function sendNotify(db: TDb, channel: string, payload: string): Promise<void> {
  await db.execute(sql`select pg_notify(${channel}, ${payload})`);
}
