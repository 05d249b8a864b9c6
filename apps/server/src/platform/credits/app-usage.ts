import { sql } from 'drizzle-orm';
import type { TDb } from '../db/database';

/**
 * Adds `credits` charged for work an app started (a bulk list uploaded with its token) to the app's usage: its
 * life-time counter and the day's row of `app_daily_usage` (UTC day, as the instant charge counts). Called inside
 * the charge's transaction, so the usage moves exactly with the charge (a rolled-back charge counts nothing).
 */
export async function addChargedAppUsage(tx: TDb, appId: string | null | undefined, credits: number): Promise<void> {
  if (!appId || credits <= 0) return;
  await tx.execute(sql`update apps set credits_used_life_time = credits_used_life_time + ${credits}, last_used_at = now(),
      status = case when status = 'new' then 'active' else status end
    where id = ${appId}::uuid`);
  await tx.execute(sql`insert into app_daily_usage (app_id, day, credits)
    select id, (now() at time zone 'utc')::date, ${credits} from apps where id = ${appId}::uuid
    on conflict (app_id, day) do update set credits = app_daily_usage.credits + excluded.credits`);
}
