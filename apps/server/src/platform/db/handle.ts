import { join } from 'node:path';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { SERVER_ROOT } from '../../config';

// What a database handle is, apart from how one is opened: the PostgreSQL and PGlite openers and the job system's
// schema installer all build on these, so none of them has to import database.ts (which imports them).

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
   * PGlite the embedded session. Answers the function that stops listening. A lost PostgreSQL connection is opened
   * again (with back-off) and listens again; `onReconnect` runs then, since notices sent meanwhile were missed.
   */
  listen(channel: string, onPayload: (payload: string) => void, onReconnect?: () => void): Promise<() => Promise<void>>;
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
