import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql, type SQL } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';

/** A Drizzle handle: the database itself or a transaction (both offer the same query builder). */
export type TDb = PgDatabase<PgQueryResultHKT>;

export type TEngine = 'pglite' | 'postgres';

export type TDatabase = {
  engine: TEngine;
  db: TDb;
  /** Runs `fn` in one transaction. On PGlite transactions are serialised (one session). Never nest. */
  transaction<T>(fn: (tx: TDb) => Promise<T>): Promise<T>;
  /** Applies the migrations of apps/server/migrations. */
  migrate(): Promise<void>;
  close(): Promise<void>;
  /** PGlite only: a tarball of the data directory (tests use it as a migrated template). */
  dumpDataDir?: () => Promise<Blob>;
};

export const MIGRATIONS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'migrations');

/** A promise-chain mutex: one holder at a time, FIFO. */
export function createMutex() {
  let tail: Promise<unknown> = Promise.resolve();
  return function runExclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = tail.then(fn, fn);
    tail = run.catch(() => undefined);
    return run;
  };
}

/** Embedded PGlite: `dir` undefined → in memory. One session shared by everything. */
export async function openPglite(dir?: string, opts: { loadDataDir?: Blob } = {}): Promise<TDatabase> {
  if (dir) mkdirSync(dir, { recursive: true });
  const client = dir ? await PGlite.create(dir) : await PGlite.create(opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {});
  const db = drizzlePglite(client) as unknown as TDb;
  const runExclusive = createMutex();
  return {
    engine: 'pglite',
    db,
    transaction: (fn) => runExclusive(() => db.transaction((tx) => fn(tx as unknown as TDb))),
    migrate: () => migratePglite(drizzlePglite(client), { migrationsFolder: MIGRATIONS_DIR }),
    close: () => client.close(),
    dumpDataDir: () => client.dumpDataDir('none'),
  };
}

/** PostgreSQL through a `pg` pool. */
export function openPostgres(url: string, poolSize = 10): TDatabase {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  pool.on('error', () => undefined);
  const db = drizzlePg(pool) as unknown as TDb;
  return {
    engine: 'postgres',
    db,
    transaction: (fn) => db.transaction((tx) => fn(tx as unknown as TDb)),
    migrate: async () => {
      // Several processes may start at once: serialise migrations with an advisory lock.
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock(724301)');
        await migratePg(drizzlePg(client), { migrationsFolder: MIGRATIONS_DIR });
      } finally {
        await client.query('select pg_advisory_unlock(724301)').catch(() => undefined);
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

/** Opens the configured database: PostgreSQL when a URL is given, else PGlite under `dataDir/pglite`. */
export async function openDatabase(opts: { databaseUrl?: string; pgliteDir?: string }): Promise<TDatabase> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl);
  return openPglite(opts.pgliteDir ?? join(process.cwd(), 'data', 'pglite'));
}

/** Runs a raw SQL statement and returns its rows (both drivers answer `{ rows }`). */
export async function selectRows<T>(exec: TDb, query: SQL): Promise<T[]> {
  const result = (await exec.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

export { sql };
