import { createServer } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
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
  const METRICS_TOKEN = 'ops-readiness-token';
  let t: TTestApp;
  let port: number;
  beforeAll(async () => {
    port = await closedPort();
    t = await createTestApp({ redisUrl: `redis://127.0.0.1:${port}`, metricsToken: METRICS_TOKEN });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 503 naming Redis; the failure\'s detail (address, error) only to a caller with the metrics token', async () => {
    const res = await t.call({ method: 'GET', url: '/health/ready' });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ status: 'failed', error: { code: 'not_ready', message: 'Not ready: redis: unreachable' } });
    expect(res.body.error.additional_info.checks.find((c: { name: string }) => c.name === 'redis')).toEqual({ name: 'redis', ok: false, detail: 'unreachable' });
    expect(JSON.stringify(res.body)).not.toContain(String(port));
    for (const authorization of ['Bearer wrong-token', `Basic ${METRICS_TOKEN}`]) {
      const guessed = await t.call({ method: 'GET', url: '/health/ready', headers: { authorization } });
      expect(guessed.status).toBe(503);
      expect(guessed.body.error.message).toBe('Not ready: redis: unreachable');
    }
    const operator = await t.call({ method: 'GET', url: '/health/ready', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(operator.status).toBe(503);
    expect(operator.body.error.message).toMatch(/^Not ready: redis: Redis does not answer: /);
    expect(operator.body.error.additional_info.checks.find((c: { name: string }) => c.name === 'redis').detail).toMatch(/^Redis does not answer: /);
  });
});

const onPostgres = Boolean(process.env.DATABASE_URL);

/** /health/ready's answer once its status is `status` (an answer serves every caller for a second: this polls). */
const readyStatusBecomes = (t: TTestApp, status: number) =>
  vi.waitFor(
    async () => {
      const res = await t.call({ method: 'GET', url: '/health/ready' });
      expect(res.status).toBe(status);
      return res;
    },
    { timeout: 15_000, interval: 100 },
  );

describe.skipIf(!onPostgres)('readiness while PostgreSQL refuses the database (PostgreSQL)', () => {
  const METRICS_TOKEN = 'ops-readiness-token';
  let t: TTestApp;
  let admin: pg.Client;
  beforeAll(async () => {
    t = await createTestApp({ metricsToken: METRICS_TOKEN });
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
    const down = await readyStatusBecomes(t, 503);
    expect(down.status).toBe(503);
    expect(down.body.error.additional_info.checks.find((c: { name: string }) => c.name === 'database')).toEqual({ name: 'database', ok: false, detail: 'unreachable' });
    expect(down.body.error.message).toBe('Not ready: database: unreachable; migrations: unknown');
    // Neither the database's name, host nor port to anyone; the operator (metrics token) reads the error.
    const text = JSON.stringify(down.body);
    for (const secret of [t.db.name, '127.0.0.1', '5432']) expect(text).not.toContain(secret);
    const operator = await t.call({ method: 'GET', url: '/health/ready', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(operator.status).toBe(503);
    expect(operator.body.error.additional_info.checks.find((c: { name: string }) => c.name === 'database').detail).toMatch(/^the database does not answer: ./);
    await admin.query(`alter database "${t.db.name}" allow_connections true`);
    const up = await readyStatusBecomes(t, 200);
    expect(up.status).toBe(200);
    expect(up.body.data.ready).toBe(true);
  });
});
