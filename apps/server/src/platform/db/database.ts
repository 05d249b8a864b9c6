import { join } from 'node:path';
import { sql, type SQL } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { installJobSchema } from './job-schema';

import { createMutex, MIGRATIONS_DIR, type TDatabase, type TDb, type TEngine, type TSqlExecutor } from './handle';

export { createMutex, MIGRATIONS_DIR };
export type { TDatabase, TDb, TEngine, TSqlExecutor };

/**
 * Embedded PGlite: `dir` undefined → in memory. One session shared by everything. Its module (the WebAssembly
 * PostgreSQL, about 10 MB of code) is loaded only here, so a server on PostgreSQL never holds it.
 */
export async function openPglite(dir?: string, opts: { loadDataDir?: Blob } = {}): Promise<TDatabase> {
  return (await import('./pglite')).openPgliteDatabase(dir, opts);
}

/** Called when PostgreSQL drops one of our connections (the statement in flight fails on its own; this only reports). */
export type TConnectionErrorHandler = (err: Error, connection: 'pool' | 'jobs' | 'listen') => void;

/**
 * A connection PostgreSQL drops (failover, proxy, `pg_terminate_backend`, idle timeouts) emits `error` on its client.
 * pg-pool listens on idle clients only: a checked-out one (a transaction, a migration) has no listener while out, and
 * an `error` event nobody listens to ends the process. Every client the pool opens gets a listener for its whole life;
 * the statement in flight still fails (its request or job errors and is retried), and the pool discards the broken
 * client when it is released and opens a new one on demand.
 */
function guardPool(pool: pg.Pool, onError: (err: Error) => void): pg.Pool {
  pool.on('error', () => undefined); // idle clients: already reported by the client's own listener below
  pool.on('connect', (client) => client.on('error', onError));
  return pool;
}

/** Back-off of the LISTEN connection's reconnects: 250 ms doubling up to 5 s. */
const LISTEN_RETRY_MS = [250, 500, 1_000, 2_000, 5_000];

/** PostgreSQL through a `pg` pool. An `application_name` in the URL names every connection (else `verilead…`). */
export function openPostgres(url: string, poolSize = 10, opts: { onConnectionError?: TConnectionErrorHandler } = {}): TDatabase {
  const report = (connection: 'pool' | 'jobs' | 'listen') => (err: Error) => opts.onConnectionError?.(err, connection);
  const pool = guardPool(new pg.Pool({ connectionString: url, max: poolSize, application_name: 'verilead' }), report('pool'));
  // The job system's own pool: polling and heartbeats never wait behind API queries (and the reverse).
  const jobPool = guardPool(new pg.Pool({ connectionString: url, max: 5, application_name: 'verilead-jobs' }), report('jobs'));
  const db = drizzlePg(pool) as unknown as TDb;
  const listeners = new Set<{ stop(): Promise<void> }>();
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
    listen: async (channel, onPayload, onReconnect) => {
      let client: pg.Client | null = null;
      let stopped = false;
      let retry: NodeJS.Timeout | undefined;
      let failures = 0;
      const open = async (): Promise<void> => {
        const c = new pg.Client({ connectionString: url, application_name: 'verilead-listen' });
        c.on('error', report('listen'));
        c.on('notification', (n) => {
          if (n.channel === channel) onPayload(n.payload ?? '');
        });
        try {
          await c.connect();
          await c.query(`listen ${pg.Client.prototype.escapeIdentifier(channel)}`);
        } catch (err) {
          await c.end().catch(() => undefined);
          throw err;
        }
        if (stopped) {
          await c.end().catch(() => undefined);
          return;
        }
        client = c;
        // A connection lost later (not ended by stop) is opened again, and listens again.
        c.once('end', () => {
          if (client === c) client = null;
          if (!stopped) reopen();
        });
      };
      const reopen = () => {
        const delay = LISTEN_RETRY_MS[Math.min(failures, LISTEN_RETRY_MS.length - 1)]!;
        retry = setTimeout(() => {
          retry = undefined;
          open().then(
            () => {
              failures = 0;
              if (!stopped) onReconnect?.();
            },
            (err: unknown) => {
              failures += 1;
              report('listen')(err instanceof Error ? err : new Error(String(err)));
              if (!stopped) reopen();
            },
          );
        }, delay);
      };
      await open();
      const entry = {
        stop: async () => {
          stopped = true;
          clearTimeout(retry);
          listeners.delete(entry);
          await client?.end().catch(() => undefined);
          client = null;
        },
      };
      listeners.add(entry);
      return entry.stop;
    },
    close: async () => {
      await Promise.all([...listeners].map((l) => l.stop()));
      await jobPool.end();
      await pool.end();
    },
  };
}

/** Opens the configured database: PostgreSQL when a URL is given, else PGlite under `dataDir/pglite`. */
export async function openDatabase(opts: { databaseUrl?: string; pgliteDir?: string; onConnectionError?: TConnectionErrorHandler }): Promise<TDatabase> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl, 10, { onConnectionError: opts.onConnectionError });
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
