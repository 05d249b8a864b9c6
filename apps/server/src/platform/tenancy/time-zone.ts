import { eq } from 'drizzle-orm';
import type { TDb } from '../db/database';
import { users } from './tables';

/** True when Intl knows the zone (a stored setting from an older runtime may not be). */
export function isUsableTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The user's time-zone setting (UTC when unset or unknown): the zone plain dates and reports are read in. */
export async function selectUserTimeZone(exec: TDb, userId: string): Promise<string> {
  const rows = await exec.select({ timezone: users.timezone }).from(users).where(eq(users.id, userId)).limit(1);
  const zone = rows[0]?.timezone ?? 'UTC';
  return isUsableTimeZone(zone) ? zone : 'UTC';
}
