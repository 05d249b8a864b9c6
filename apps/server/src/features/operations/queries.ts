import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MIGRATIONS_DIR, selectRows, sql, type TDatabase, type TDb } from '../../platform/db/database';
import { JOB_SCHEMA } from '../../platform/db/job-schema';

/** How far back `readJobOutcomes` counts finished jobs (jobs stay in pg-boss's job table far longer: JOB_RETENTION_HOURS). */
export const JOB_OUTCOME_WINDOW_MINUTES = 15;

export type TQueueDepthRow = { queue: string; waiting: number; active: number; oldest_waiting_seconds: number | null };
export type TJobOutcomeRow = { queue: string; state: 'completed' | 'failed'; n: number };
export type TCreditsRow = { feature: string; detail: string; charged: number; refunded: number };
export type TPaymentEventRow = { provider: string; type: string; received: number; processed: number };

export type TScrapeFigures = { queues: TQueueDepthRow[]; outcomes: TJobOutcomeRow[]; credits: TCreditsRow[]; payments: TPaymentEventRow[] };

/**
 * The figures /metrics reads from the database, in one read-only transaction whose statements may take 5 s at most
 * (a slow database makes a scrape fail, never pile up). Each query is bounded: waiting jobs through pg-boss's
 * partial index of unstarted jobs, finished jobs over the last 15 minutes, the credits from the hourly roll-ups
 * (one row per organisation, hour and feature), payment events grouped by provider and type.
 */
export async function readScrapeFigures(database: TDatabase): Promise<TScrapeFigures> {
  return database.transaction(async (tx) => {
    await tx.execute(sql`set local statement_timeout = '5s'`);
    const queues = await selectRows<TQueueDepthRow>(
      tx,
      sql.raw(`select name as queue,
                      (count(*) filter (where state < 'active' and start_after <= now()))::int as waiting,
                      (count(*) filter (where state = 'active'))::int as active,
                      extract(epoch from now() - min(start_after) filter (where state < 'active' and start_after <= now()))::float8 as oldest_waiting_seconds
                 from ${JOB_SCHEMA}.job where state <= 'active' group by name`),
    );
    const outcomes = await selectRows<TJobOutcomeRow>(
      tx,
      sql.raw(`select name as queue, state::text as state, count(*)::int as n from ${JOB_SCHEMA}.job
                where state in ('completed', 'failed') and completed_on > now() - interval '${JOB_OUTCOME_WINDOW_MINUTES} minutes'
                group by name, state`),
    );
    const credits = await selectRows<TCreditsRow>(
      tx,
      sql`select feature, detail, coalesce(sum(charged), 0)::float8 as charged, coalesce(sum(refunded), 0)::float8 as refunded
            from usage_rollups_hourly where phase = 0 group by feature, detail`,
    );
    const payments = await selectRows<TPaymentEventRow>(
      tx,
      sql`select provider, type, count(*)::int as received, count(processed_at)::int as processed from payment_events group by provider, type`,
    );
    return { queues, outcomes, credits, payments };
  });
}

/** Answers when the database answers a trivial statement within `timeoutMs`; throws otherwise. */
export async function pingDatabase(db: TDb, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      db.execute(sql`select 1`),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** The `when` of every migration this build carries (drizzle's journal). */
export function readMigrationJournal(dir = MIGRATIONS_DIR): number[] {
  const journal = JSON.parse(readFileSync(join(dir, 'meta', '_journal.json'), 'utf8')) as { entries: { when: number }[] };
  return journal.entries.map((e) => e.when);
}

/**
 * How many of the build's migrations the database has not applied. Drizzle's migrator applies every migration newer
 * than the newest it recorded (`drizzle.__drizzle_migrations.created_at` holds the journal's `when`), so those count.
 */
export async function countPendingMigrations(db: TDb, journal: number[]): Promise<number> {
  const exists = await selectRows<{ t: string | null }>(db, sql`select to_regclass('drizzle.__drizzle_migrations')::text as t`);
  if (!exists[0]?.t) return journal.length;
  const rows = await selectRows<{ last: string | null }>(db, sql`select max(created_at)::text as last from drizzle.__drizzle_migrations`);
  const last = Number(rows[0]?.last ?? 0);
  return journal.filter((when) => when > last).length;
}
