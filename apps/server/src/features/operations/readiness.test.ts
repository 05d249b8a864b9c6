import { createServer } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite, type TDatabase } from '../../platform/db/database';
import { createTestApp, type TTestApp } from '../../test/test-app';
import { readMigrationJournal } from './queries';
import { checkReadiness } from './readiness';

/** A loopback port nothing listens on (opened by the OS, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('/health/live and /health/ready', () => {
  let t: TTestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers live and ready in the JSON envelope while the database answers and carries every migration', async () => {
    const live = await t.call({ method: 'GET', url: '/health/live' });
    expect(live.status).toBe(200);
    expect(live.body).toMatchObject({ status: 'success', data: { live: true } });
    const ready = await t.call({ method: 'GET', url: '/health/ready' });
    expect(ready.status).toBe(200);
    expect(ready.body.data.ready).toBe(true);
    expect(ready.body.data.checks.map((c: { name: string; ok: boolean }) => `${c.name}:${c.ok}`)).toEqual(['database:true', 'migrations:true']);
  });
});

describe('readiness of an own PGlite database', () => {
  let database: TDatabase;
  beforeAll(async () => {
    database = await openPglite();
    await database.migrate();
  });

  it('is ready, then not while a migration of the build is pending, then not once the database is closed', async () => {
    const journal = readMigrationJournal();
    expect((await checkReadiness(database, null, journal)).ready).toBe(true);
    const ahead = await checkReadiness(database, null, [...journal, Math.max(...journal) + 1]);
    expect(ahead.ready).toBe(false);
    expect(ahead.checks.find((c) => c.name === 'migrations')).toMatchObject({ ok: false, detail: '1 migration(s) not applied yet' });
    await database.close();
    const closed = await checkReadiness(database, null, journal);
    expect(closed.ready).toBe(false);
    expect(closed.checks.find((c) => c.name === 'database')?.ok).toBe(false);
  });
});

describe('readiness with REDIS_URL set and Redis unreachable', () => {
  let t: TTestApp;
  beforeAll(async () => {
    t = await createTestApp({ redisUrl: `redis://127.0.0.1:${await closedPort()}` });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 503 naming Redis', async () => {
    const res = await t.call({ method: 'GET', url: '/health/ready' });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ status: 'failed', error: { code: 'not_ready' } });
    expect(res.body.error.additional_info.checks.find((c: { name: string }) => c.name === 'redis')).toMatchObject({ ok: false });
  });
});

const onPostgres = Boolean(process.env.DATABASE_URL);

describe.skipIf(!onPostgres)('readiness while PostgreSQL refuses the database (PostgreSQL)', () => {
  let t: TTestApp;
  let admin: pg.Client;
  beforeAll(async () => {
    t = await createTestApp();
    admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.query(`alter database "${t.db.name}" allow_connections true`).catch(() => undefined);
    await admin?.end();
    await t?.close();
  });

  it('turns 503 while the database takes no connections and its backends are gone, and ready again after', async () => {
    expect((await t.call({ method: 'GET', url: '/health/ready' })).status).toBe(200);
    await admin.query(`alter database "${t.db.name}" allow_connections false`);
    await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`, [t.db.name]);
    const down = await t.call({ method: 'GET', url: '/health/ready' });
    expect(down.status).toBe(503);
    expect(down.body.error.additional_info.checks.find((c: { name: string }) => c.name === 'database')).toMatchObject({ ok: false });
    await admin.query(`alter database "${t.db.name}" allow_connections true`);
    const up = await t.call({ method: 'GET', url: '/health/ready' });
    expect(up.status).toBe(200);
    expect(up.body.data.ready).toBe(true);
  });
});
