import type { TDatabase } from '../../platform/db/database';
import { countPendingMigrations, pingDatabase, readMigrationJournal } from './queries';

/** What readiness asks of Redis: a PING (ioredis's client answers it). */
export type TRedisPing = { ping(): Promise<string> };

/**
 * One check: `detail` says why (it may hold the database's host and port, an error's text: for the operator),
 * `summary` only the state the component is in ("unreachable", "unknown"), what anyone may read.
 */
export type TReadinessCheck = { name: 'database' | 'migrations' | 'redis'; ok: boolean; detail: string; summary: string };
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
 * Whether this process can serve: the database answers, it carries every migration of this build (`journal`: the
 * `when` of each, null when the build's journal could not be read), and Redis (when REDIS_URL is set) answers PING.
 * Each check is bounded by 2 s, so a load balancer's probe never hangs.
 */
export async function checkReadiness(database: TDatabase, redis: TRedisPing | null, journal: number[] | null): Promise<TReadiness> {
  const checks: TReadinessCheck[] = [];
  let databaseUp = false;
  try {
    await pingDatabase(database.db, CHECK_TIMEOUT_MS);
    databaseUp = true;
    checks.push({ name: 'database', ok: true, detail: `${database.engine} answers`, summary: 'answers' });
  } catch (err) {
    checks.push({ name: 'database', ok: false, detail: `the database does not answer: ${describe(err)}`, summary: 'unreachable' });
  }
  if (!journal) {
    checks.push({ name: 'migrations', ok: false, detail: "this build's migration journal could not be read", summary: 'unknown' });
  } else if (databaseUp) {
    try {
      const pending = await withTimeout(countPendingMigrations(database.db, journal), 'the migration table');
      const state = pending === 0 ? 'all applied' : `${pending} migration(s) not applied yet`;
      checks.push({ name: 'migrations', ok: pending === 0, detail: state, summary: state });
    } catch (err) {
      checks.push({ name: 'migrations', ok: false, detail: `cannot read the applied migrations: ${describe(err)}`, summary: 'unreadable' });
    }
  } else {
    checks.push({ name: 'migrations', ok: false, detail: 'unknown while the database does not answer', summary: 'unknown' });
  }
  if (redis) {
    try {
      await withTimeout(redis.ping(), 'Redis');
      checks.push({ name: 'redis', ok: true, detail: 'answers', summary: 'answers' });
    } catch (err) {
      checks.push({ name: 'redis', ok: false, detail: `Redis does not answer: ${describe(err)}`, summary: 'unreachable' });
    }
  }
  return { ready: checks.every((c) => c.ok), checks };
}

/** How long one readiness answer serves every caller. */
export const READINESS_CACHE_MS = 1_000;

export type TReadinessProbeOptions = {
  /** The build's migration journal (default: read from disk once, now). */
  journal?: number[] | null;
  cacheMs?: number;
  /** A monotonic clock in milliseconds (tests move it). */
  now?: () => number;
  /** Told every fresh answer (not the cached ones): where a failing check's detail is logged. */
  onChecked?: (readiness: TReadiness) => void;
};

function readJournalOnce(): number[] | null {
  try {
    return readMigrationJournal();
  } catch {
    return null;
  }
}

/**
 * The readiness answer as /health/ready serves it, to anyone and without a limit: the migration journal is read once
 * (here), an answer serves every caller for `cacheMs` (1 s) after it is known, and callers arriving while a check runs
 * share it. A flood of probes thus costs the database at most one check (three short queries) per second and process.
 */
export function createReadinessProbe(database: TDatabase, redis: TRedisPing | null, options: TReadinessProbeOptions = {}): () => Promise<TReadiness> {
  const journal = options.journal !== undefined ? options.journal : readJournalOnce();
  const cacheMs = options.cacheMs ?? READINESS_CACHE_MS;
  const now = options.now ?? (() => performance.now());
  let last: { at: number; readiness: TReadiness } | null = null;
  let running: Promise<TReadiness> | null = null;
  return () => {
    if (last && now() - last.at < cacheMs) return Promise.resolve(last.readiness);
    running ??= checkReadiness(database, redis, journal)
      .then((readiness) => {
        last = { at: now(), readiness };
        options.onChecked?.(readiness);
        return readiness;
      })
      .finally(() => {
        running = null;
      });
    return running;
  };
}
