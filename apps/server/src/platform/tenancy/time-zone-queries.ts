import { eq } from 'drizzle-orm';
import type { TDb } from '../db/database';
import { users } from './tables';

/** The user's stored time-zone setting, as stored (null when unset or no such user). */
export async function selectStoredTimeZone(exec: TDb, userId: string): Promise<string | null> {
  const rows = await exec.select({ timezone: users.timezone }).from(users).where(eq(users.id, userId)).limit(1);
  return rows[0]?.timezone ?? null;
}
