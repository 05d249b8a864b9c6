import type { TDb } from '../db/database';
import { addAppDailyUsage, addAppLifeTimeUsage } from './app-usage-queries';

/**
 * Adds `credits` charged for work an app started (a bulk list uploaded with its token) to the app's usage: its
 * life-time counter and the day's row of `app_daily_usage` (UTC day, as the instant charge counts). Called inside
 * the charge's transaction, so the usage moves exactly with the charge (a rolled-back charge counts nothing).
 */
export async function addChargedAppUsage(tx: TDb, appId: string | null | undefined, credits: number): Promise<void> {
  if (!appId || credits <= 0) return;
  await addAppLifeTimeUsage(tx, appId, credits);
  await addAppDailyUsage(tx, appId, credits);
}
