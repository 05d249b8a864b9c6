import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { openPglite } from './platform/db/database';

/**
 * `main.ts` started as an OS process, as an installation runs it: with NODE_ENV=production on an empty database it
 * seeds nothing (no demo organisation with its published password, no credits, no made-up directory), and the first
 * owner comes from the operator's `create-owner` command, whose link sets the password once. The quick start keeps its
 * demo and says so. PGlite always; PostgreSQL when DATABASE_URL is set (CI's second pass).
 */
const MAIN = join(import.meta.dirname, 'main.ts');
const OPS = join(import.meta.dirname, 'ops.ts');
const PASSWORD = 'First-Owner-Pass-1';

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  await once(server, 'close');
  return typeof address === 'object' && address ? address.port : 0;
}

type TRunning = { child: ChildProcess; base: string; output: () => string; env: Record<string, string> };

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
});

/** Starts the server (`--role all`) on its own data directory; resolves once it listens. */
async function startServer(env: Record<string, string>): Promise<TRunning> {
  const dataDir = await mkdtemp(join(tmpdir(), 'vl-prod-start-'));
  const port = await freePort();
  const fullEnv: Record<string, string> = {
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    APP_SECRET: 'production-start-test-secret-0123456789',
    WEB_DIST_DIR: '/nonexistent-web-dist',
    REDIS_URL: '',
    SMTP_URL: '',
    LOG_LEVEL: 'info',
    ...env,
  };
  const { child, output } = spawnMain([], fullEnv, dataDir);
  await new Promise<void>((resolve, reject) => {
    const onData = () => {
      if (output().includes('Verilead is running at')) resolve();
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before listening:\n${output()}`)));
  });
  return { child, base: `http://127.0.0.1:${port}`, output, env: fullEnv };
}

/** Runs main.ts with `args` and `env` (its output collected); killed, and its data directory removed, after the file. */
function spawnMain(args: string[], env: Record<string, string>, dataDir: string): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  cleanups.push(async () => {
    if (child.exitCode === null) {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
    await rm(dataDir, { recursive: true, force: true });
  });
  return { child, output: () => output };
}

/** Waits until the process printed `text` (pino writes its lines asynchronously, after the console's). */
async function printed(s: TRunning, text: string): Promise<string> {
  await vi.waitFor(() => expect(s.output()).toContain(text), { timeout: 5_000, interval: 25 });
  return s.output();
}

async function stopServer(s: TRunning): Promise<void> {
  s.child.kill('SIGTERM');
  if (s.child.exitCode === null) await once(s.child, 'exit');
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers read by the test
async function call(s: TRunning, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${s.base}/api/v1${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

/** Runs `npm run ops -- …` as the operator would, with the server's settings; answers what it printed. */
async function runOps(env: Record<string, string>, args: string[]): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', OPS, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  expect(code, output).toBe(0);
  return output;
}

type TCounts = { users: number; organisations: number; credit_transactions: number; directory_people: number; emails: string[] };
const COUNT_SQL = `select (select count(*)::int from users) as users, (select count(*)::int from organisations) as organisations,
  (select count(*)::int from credit_transactions) as credit_transactions, (select count(*)::int from directory_people) as directory_people,
  (select coalesce(array_agg(email order by email), '{}') from users) as emails`;

/** The production checks, whichever engine `env` points the server at; `counts` reads the database once it stopped. */
async function checkProductionStart(env: Record<string, string>, counts: (s: TRunning) => Promise<TCounts>) {
  const s = await startServer({ NODE_ENV: 'production', ...env });
  await printed(s, 'Production (NODE_ENV=production): no demo data is seeded.');
  expect(await printed(s, `No account yet: sign up at ${s.base}/signup`)).not.toContain('Seeded the demo organisation');
  expect((await call(s, 'POST', '/user/login', { email: 'owner@demo.verilead.test', password: 'Demo-Password-1' })).status).toBe(401);
  expect((await call(s, 'GET', '/public/instance')).body.data).toEqual({ demo: false, demo_accounts: [], demo_password: null });

  // The first owner: the operator's command prints a one-time link; it sets the password once, then is refused.
  const opsOutput = await runOps(s.env, ['create-owner', '--email', 'First.Owner@Acme.test', '--org', 'Acme Inc']);
  expect(opsOutput).toContain('Created the organisation "Acme Inc" with its owner first.owner@acme.test.');
  const link = /(http:\/\/127\.0\.0\.1:\d+\/setup_password\?token=\S+)/.exec(opsOutput)?.[1];
  expect(link, opsOutput).toBeDefined();
  const token = decodeURIComponent(new URL(link!).searchParams.get('token')!);
  expect((await call(s, 'POST', '/user/verify_token', { token, kind: 'setup_password' })).body.data).toMatchObject({ valid: true, email: 'first.owner@acme.test' });
  expect((await call(s, 'POST', '/user/login', { email: 'first.owner@acme.test', password: PASSWORD })).status).toBe(401);
  expect((await call(s, 'POST', '/user/password/setup', { token, password: PASSWORD })).status).toBe(200);
  const again = await call(s, 'POST', '/user/password/setup', { token, password: 'Someone-Else-2' });
  expect(again.status).toBe(400);
  expect(again.body.error.code).toBe('invalid_token');
  const login = await call(s, 'POST', '/user/login', { email: 'first.owner@acme.test', password: PASSWORD });
  expect(login.status).toBe(200);
  expect(login.body.data.user).toMatchObject({ user_role: 'owner', credits: 0, isEmailVerified: true });
  expect(login.body.data.user.organisation.name).toBe('Acme Inc');
  expect((await call(s, 'POST', '/user/login', { email: 'first.owner@acme.test', password: 'Someone-Else-2' })).status).toBe(401);

  // Operators: the ops command prints each one's link, then disables (every session ended) and enables them through the
  // running server, and straight in the database once it stopped.
  const operatorToken = async (email: string) => {
    const out = await runOps(s.env, ['create-operator', '--email', email]);
    const opLink = /(http:\/\/127\.0\.0\.1:\d+\/ops\/set-password\?token=\S+)/.exec(out)?.[1];
    expect(opLink, out).toBeDefined();
    const set = await call(s, 'POST', '/ops/session/set_password', { token: new URL(opLink!).searchParams.get('token'), password: PASSWORD });
    expect(set.status).toBe(200);
    return set.body.data.token as string;
  };
  const me = async (token: string) => (await fetch(`${s.base}/api/v1/ops/me`, { headers: { authorization: `Bearer ${token}` } })).status;
  await operatorToken('ops-a@acme.test');
  const second = await operatorToken('ops-b@acme.test');
  expect(await me(second)).toBe(200);
  expect(await runOps(s.env, ['disable-operator', 'Ops-B@acme.test'])).toContain('ops-b@acme.test is disabled: signed out of 1 session');
  expect(await me(second)).toBe(401);
  expect((await call(s, 'POST', '/ops/session/login', { email: 'ops-b@acme.test', password: PASSWORD })).status).toBe(401);
  expect(await runOps(s.env, ['enable-operator', 'ops-b@acme.test'])).toContain('ops-b@acme.test can sign in again.');
  expect((await call(s, 'POST', '/ops/session/login', { email: 'ops-b@acme.test', password: PASSWORD })).status).toBe(200);

  await stopServer(s);
  expect(await runOps(s.env, ['disable-operator', 'ops-b@acme.test'])).toContain('ops-b@acme.test is disabled');
  // Nothing but the operator's owner: no demo users or organisation, no credits, no made-up directory.
  expect(await counts(s)).toEqual({ users: 1, organisations: 1, credit_transactions: 0, directory_people: 0, emails: ['first.owner@acme.test'] });
}

describe('a production start (NODE_ENV=production) on an empty embedded database', () => {
  it('seeds nothing; the operator creates the first owner with a link that works once', async () => {
    await checkProductionStart({ DATABASE_URL: '' }, async (s) => {
      const database = await openPglite(join(s.env.DATA_DIR!, 'pglite'));
      try {
        const rows = (await database.jobSql.executeSql(COUNT_SQL)).rows as TCounts[];
        return rows[0]!;
      } finally {
        await database.close();
      }
    });
  }, 180_000);
});

describe.skipIf(!process.env.DATABASE_URL)('a production start (NODE_ENV=production) on an empty PostgreSQL database', () => {
  it('seeds nothing; the operator creates the first owner with a link that works once', async () => {
    const name = `vl_prod_start_${process.pid}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    cleanups.push(async () => {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    });
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = `/${name}`;
    await checkProductionStart({ DATABASE_URL: url.toString() }, async () => {
      const c = new pg.Client({ connectionString: url.toString() });
      await c.connect();
      try {
        return (await c.query<TCounts>(COUNT_SQL)).rows[0]!;
      } finally {
        await c.end();
      }
    });
  }, 180_000);
});

describe('a production start with a short APP_SECRET', () => {
  it('refuses to start, saying why', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'vl-prod-secret-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const env = { NODE_ENV: 'production', APP_SECRET: 'only-twenty-one-chars', DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', PORT: String(await freePort()), HOST: '127.0.0.1' };
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).not.toBe(0);
    expect(output).toContain('APP_SECRET: with NODE_ENV=production it must be at least 32 characters long (it has 21)');
    expect(output).not.toContain('Verilead is running at');
  }, 60_000);
});

describe('a worker process (--role worker) without REDIS_URL', () => {
  it('warns at start that several workers overrun mail hosts, and what to set', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'vl-worker-redis-'));
    const env = { NODE_ENV: 'production', APP_SECRET: 'production-start-test-secret-0123456789', DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', LOG_LEVEL: 'info', PORT: String(await freePort()), HOST: '127.0.0.1' };
    const { output: read } = spawnMain(['--role', 'worker'], env, dataDir);
    await vi.waitFor(() => expect(read()).toContain('job worker started'), { timeout: 90_000, interval: 100 });
    const output = read();
    expect(output).toContain('REDIS_URL is not set: this worker counts each mail host');
    const warning = output.split('\n').find((line) => line.includes('REDIS_URL is not set'));
    expect(JSON.parse(warning!)).toMatchObject({ level: 40, msg: expect.stringContaining('several worker processes together open more connections to one mail host than it allows') });
    expect(warning).toContain('Set REDIS_URL');
  }, 120_000);
});

describe('the quick start (NODE_ENV not production)', () => {
  it('keeps its demo and says so in the log and to the sign-in pages', async () => {
    const s = await startServer({ NODE_ENV: 'development', DATABASE_URL: '', PROSPECT_DEMO_DIRECTORY: 'false' });
    expect(s.output()).toContain('Seeded the demo organisation "Verilead Demo"');
    await printed(s, 'Demo: this is the quick start (NODE_ENV is not production).');
    expect(s.output()).toMatch(/Verilead is running at http:\/\/127\.0\.0\.1:\d+ .*\[demo\]/);
    expect((await call(s, 'GET', '/public/instance')).body.data).toEqual({
      demo: true,
      demo_accounts: [
        { role: 'Owner', email: 'owner@demo.verilead.test' },
        { role: 'Manager', email: 'manager@demo.verilead.test' },
        { role: 'Executive', email: 'executive@demo.verilead.test' },
      ],
      demo_password: 'Demo-Password-1',
    });
    expect((await call(s, 'POST', '/user/login', { email: 'owner@demo.verilead.test', password: 'Demo-Password-1' })).status).toBe(200);
    await stopServer(s);
  }, 180_000);
});
