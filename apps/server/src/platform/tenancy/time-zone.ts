import type { TDb } from '../db/database';
import { selectStoredTimeZone } from './time-zone-queries';

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
  const zone = (await selectStoredTimeZone(exec, userId)) ?? 'UTC';
  return isUsableTimeZone(zone) ? zone : 'UTC';
}
