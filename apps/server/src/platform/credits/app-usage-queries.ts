import { sql } from 'drizzle-orm';
import type { TDb } from '../db/database';

/** Adds `credits` to the app's life-time counter, marks it used now, and a new app active. */
export async function addAppLifeTimeUsage(tx: TDb, appId: string, credits: number): Promise<void> {
  await tx.execute(sql`update apps set credits_used_life_time = credits_used_life_time + ${credits}, last_used_at = now(),
      status = case when status = 'new' then 'active' else status end
    where id = ${appId}::uuid`);
}

/** Adds `credits` to the app's row of `app_daily_usage` for today (UTC day), creating it. */
export async function addAppDailyUsage(tx: TDb, appId: string, credits: number): Promise<void> {
  await tx.execute(sql`insert into app_daily_usage (app_id, day, credits)
    select id, (now() at time zone 'utc')::date, ${credits} from apps where id = ${appId}::uuid
    on conflict (app_id, day) do update set credits = app_daily_usage.credits + excluded.credits`);
}
