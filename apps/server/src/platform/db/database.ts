import { join } from 'node:path';
import { sql, type SQL } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { installJobSchema } from '../jobs/install';
import { SERVER_ROOT } from '../../config';

/** A Drizzle handle: the database itself or a transaction (both offer the same query builder). */
export type TDb = PgDatabase<PgQueryResultHKT>;

export type TEngine = 'pglite' | 'postgres';

/** Raw SQL with `$n` parameters, the shape pg-boss's `db` option expects. */
export type TSqlExecutor = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows of arbitrary SQL
  executeSql(text: string, values?: unknown[]): Promise<{ rows: any[] }>;
};

export type TDatabase = {
  engine: TEngine;
  db: TDb;
  /** Runs `fn` in one transaction. On PGlite transactions are serialised (one session). Never nest. */
  transaction<T>(fn: (tx: TDb) => Promise<T>): Promise<T>;
  /**
   * Raw SQL for the job system (pg-boss): on PostgreSQL its own small pool, on PGlite the single session
   * behind the same mutex as `transaction`, so a job statement never lands inside another caller's transaction.
   */
  jobSql: TSqlExecutor;
  /** Applies the migrations of apps/server/migrations, then installs (or upgrades) the job system's schema. */
  migrate(): Promise<void>;
  /**
   * LISTEN on a channel (pg_notify from any process reaches it): on PostgreSQL one dedicated connection per call, on
   * PGlite the embedded session. Answers the function that stops listening.
   */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
  /** PGlite only: a tarball of the data directory (tests use it as a migrated template). */
  dumpDataDir?: () => Promise<Blob>;
};

export const MIGRATIONS_DIR = join(SERVER_ROOT, 'migrations');

/** A promise-chain mutex: one holder at a time, FIFO. */
export function createMutex() {
  let tail: Promise<unknown> = Promise.resolve();
  return function runExclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = tail.then(fn, fn);
    tail = run.catch(() => undefined);
    return run;
  };
}

/**
 * Embedded PGlite: `dir` undefined → in memory. One session shared by everything. Its module (the WebAssembly
 * PostgreSQL, about 10 MB of code) is loaded only here, so a server on PostgreSQL never holds it.
 */
export async function openPglite(dir?: string, opts: { loadDataDir?: Blob } = {}): Promise<TDatabase> {
  return (await import('./pglite')).openPgliteDatabase(dir, opts);
}

/** PostgreSQL through a `pg` pool. */
export function openPostgres(url: string, poolSize = 10): TDatabase {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  pool.on('error', () => undefined);
  // The job system's own pool: polling and heartbeats never wait behind API queries (and the reverse).
  const jobPool = new pg.Pool({ connectionString: url, max: 5, application_name: 'verilead-jobs' });
  jobPool.on('error', () => undefined);
  const db = drizzlePg(pool) as unknown as TDb;
  const listeners = new Set<pg.Client>();
  return {
    engine: 'postgres',
    db,
    transaction: (fn) => db.transaction((tx) => fn(tx as unknown as TDb)),
    jobSql: { executeSql: (text, values) => jobPool.query(text, values) },
    migrate: async () => {
      // Several processes may start at once: serialise migrations with an advisory lock.
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock(724301)');
        await migratePg(drizzlePg(client), { migrationsFolder: MIGRATIONS_DIR });
        // Under the same lock: two processes creating pg-boss's queues at once deadlock.
        await installJobSchema({ executeSql: (text, values) => jobPool.query(text, values) });
      } finally {
        await client.query('select pg_advisory_unlock(724301)').catch(() => undefined);
        client.release();
      }
    },
    listen: async (channel, onPayload) => {
      const client = new pg.Client({ connectionString: url, application_name: 'verilead-listen' });
      client.on('error', () => undefined);
      await client.connect();
      listeners.add(client);
      client.on('notification', (n) => {
        if (n.channel === channel) onPayload(n.payload ?? '');
      });
      await client.query(`listen ${pg.Client.prototype.escapeIdentifier(channel)}`);
      return async () => {
        if (!listeners.delete(client)) return;
        await client.end().catch(() => undefined);
      };
    },
    close: async () => {
      await Promise.all([...listeners].map((c) => c.end().catch(() => undefined)));
      listeners.clear();
      await jobPool.end();
      await pool.end();
    },
  };
}

/** Opens the configured database: PostgreSQL when a URL is given, else PGlite under `dataDir/pglite`. */
export async function openDatabase(opts: { databaseUrl?: string; pgliteDir?: string }): Promise<TDatabase> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl);
  return openPglite(opts.pgliteDir ?? join(process.cwd(), 'data', 'pglite'));
}

/**
 * Raw SQL inside the caller's transaction (pg-boss's per-call `db` option): a job sent this way exists only if
 * that transaction commits. Both Drizzle drivers keep the transaction's client on `session.client`.
 */
export function sqlExecutorFor(tx: TDb): TSqlExecutor {
  const client = (tx as unknown as { session: { client: { query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> } } }).session.client;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows of arbitrary SQL
  return { executeSql: (text, values) => client.query(text, values) as Promise<{ rows: any[] }> };
}

/** Runs a raw SQL statement and returns its rows (both drivers answer `{ rows }`). */
export async function selectRows<T>(exec: TDb, query: SQL): Promise<T[]> {
  const result = (await exec.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

export { sql };
