import type { TDatabase } from '../../platform/db/database';
import { countPendingMigrations, pingDatabase, readMigrationJournal } from './queries';

/** What readiness asks of Redis: a PING (ioredis's client answers it). */
export type TRedisPing = { ping(): Promise<string> };

export type TReadinessCheck = { name: 'database' | 'migrations' | 'redis'; ok: boolean; detail: string };
export type TReadiness = { ready: boolean; checks: TReadinessCheck[] };

/** How long each check may take before it counts as failed. */
const CHECK_TIMEOUT_MS = 2_000;

function withTimeout<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Whether this process can serve: the database answers, it carries every migration of this build, and Redis (when
 * REDIS_URL is set) answers PING. Each check is bounded by 2 s, so a load balancer's probe never hangs.
 */
export async function checkReadiness(database: TDatabase, redis: TRedisPing | null, journal: number[] = readMigrationJournal()): Promise<TReadiness> {
  const checks: TReadinessCheck[] = [];
  let databaseUp = false;
  try {
    await pingDatabase(database.db, CHECK_TIMEOUT_MS);
    databaseUp = true;
    checks.push({ name: 'database', ok: true, detail: `${database.engine} answers` });
  } catch (err) {
    checks.push({ name: 'database', ok: false, detail: `the database does not answer: ${describe(err)}` });
  }
  if (databaseUp) {
    try {
      const pending = await withTimeout(countPendingMigrations(database.db, journal), 'the migration table');
      checks.push({ name: 'migrations', ok: pending === 0, detail: pending === 0 ? 'all applied' : `${pending} migration(s) not applied yet` });
    } catch (err) {
      checks.push({ name: 'migrations', ok: false, detail: `cannot read the applied migrations: ${describe(err)}` });
    }
  } else {
    checks.push({ name: 'migrations', ok: false, detail: 'unknown while the database does not answer' });
  }
  if (redis) {
    try {
      await withTimeout(redis.ping(), 'Redis');
      checks.push({ name: 'redis', ok: true, detail: 'answers' });
    } catch (err) {
      checks.push({ name: 'redis', ok: false, detail: `Redis does not answer: ${describe(err)}` });
    }
  }
  return { ready: checks.every((c) => c.ok), checks };
}
