import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TTestDb } from '../../test/test-db';
import { notifyCompletion, waitForCompletion } from '../jobs/completion';
import { openPostgres, selectRows, sql, type TDatabase } from './database';

/**
 * PostgreSQL ends connections under us (failover, a proxy, idle timeouts; here `pg_terminate_backend` from an admin
 * connection): what ran on them fails, the process stays up, the pools open new connections, and the LISTEN
 * connection listens again. PostgreSQL only (PGlite is one in-process session).
 */
const onPostgres = Boolean(process.env.DATABASE_URL);

describe.skipIf(!onPostgres)('connections PostgreSQL terminates (PostgreSQL)', () => {
  let t: TTestDb;
  let admin: pg.Client;
  let database: TDatabase;
  const lost: string[] = [];
  /** This file's connections carry this application_name (from the URL), so only they are terminated. */
  const appName = `vl-conn-test-${process.pid}`;

  beforeAll(async () => {
    t = await createTestDb();
    admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = `/${t.name}`;
    url.searchParams.set('application_name', appName);
    database = openPostgres(url.toString(), 4, { onConnectionError: (_err, connection) => lost.push(connection) });
  });
  afterAll(async () => {
    await database?.close();
    await admin?.end();
    await t?.dispose();
  });

  /** Terminates this file's backends in the test database (all, or those running `like`); answers how many. */
  async function terminate(like?: string): Promise<number> {
    const r = await admin.query<{ n: number }>(
      `select count(*)::int as n from (
         select pg_terminate_backend(pid) from pg_stat_activity
          where datname = $1 and application_name = $2 and pid <> pg_backend_pid() and ($3::text is null or query like $3)
       ) t`,
      [t.name, appName, like ?? null],
    );
    return r.rows[0]?.n ?? 0;
  }

  async function until(what: string, done: () => boolean | Promise<boolean>, boundMs = 10_000): Promise<void> {
    const deadline = Date.now() + boundMs;
    while (!(await done())) {
      if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  it('a transaction whose connection is terminated fails; the process stays up and the pool serves the next one', async () => {
    const inTransaction = database.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      // Holds the checked-out client while the admin connection terminates it.
      await tx.execute(sql`select pg_sleep(30) /* held-by-conn-test */`);
    });
    await until('the transaction sleeps', async () => {
      const r = await admin.query(`select 1 from pg_stat_activity where datname = $1 and query like '%held-by-conn-test%' and pid <> pg_backend_pid()`, [t.name]);
      return r.rowCount === 1;
    });
    expect(await terminate('%held-by-conn-test%')).toBe(1);
    // (Drizzle reports the rollback it then tried on the dead connection.)
    await expect(inTransaction).rejects.toThrow();
    expect(lost).toContain('pool');
    // The broken client was dropped: the next statements get working connections.
    for (let i = 0; i < 8; i += 1) expect(await selectRows<{ n: number }>(database.db, sql`select ${i}::int as n`)).toEqual([{ n: i }]);
    expect((await database.jobSql.executeSql('select 2 as n')).rows).toEqual([{ n: 2 }]);
  });

  it('the LISTEN connection listens again after it was terminated, and a waiter re-reads its state then', async () => {
    const heard: string[] = [];
    let reconnects = 0;
    const stop = await database.listen('conn_test', (p) => heard.push(p), () => (reconnects += 1));
    try {
      await database.db.execute(sql`select pg_notify('conn_test', 'before')`);
      await until('the first notice', () => heard.includes('before'));
      expect(await terminate('listen %')).toBe(1);
      await until('listening again', () => reconnects === 1);
      await database.db.execute(sql`select pg_notify('conn_test', 'after')`);
      await until('a notice after the reconnect', () => heard.includes('after'));
    } finally {
      await stop();
    }

    // waitForCompletion: a state written while the LISTEN connection was down (its notice lost) is read once the
    // connection is back, long before the waiter's 60 s bound.
    const state: { done?: string } = {};
    await notifyCompletion(database, 'warm-up');
    const waiting = waitForCompletion(database, 'conn-test:1', async () => state.done, 60_000);
    await until('the completion LISTEN runs', async () => {
      const r = await admin.query(`select 1 from pg_stat_activity where datname = $1 and application_name = $2 and query like 'listen %'`, [t.name, appName]);
      return r.rowCount === 1;
    });
    const started = Date.now();
    expect(await terminate('listen %')).toBe(1);
    state.done = 'finished';
    await expect(waiting).resolves.toBe('finished');
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
