// API benchmark: starts the server (apps/server/src/main.ts) on 127.0.0.1 with a fresh database —
// once on embedded PGlite, once on PostgreSQL (a fresh vl_bench_<random> database, dropped after) —
// then, with autocannon, logs in once and GETs /api/v1/user/profile at a steady concurrency, and
// measures POST /api/v1/user/login separately at a lower concurrency (argon2id is deliberately slow).
// Run: npx tsx bench/api.bench.ts   (BENCH_SECONDS=10, BENCH_CONNECTIONS=20, BENCH_PG_URL to override)
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type autocannon from 'autocannon';
import pg from 'pg';
import { DEMO_OWNER as DEMO, runCannon, startServer as startBenchServer, stopServer } from './bench-server';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const LOGIN_CONNECTIONS = 4;
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

type TFigures = { engine: string; scenario: string; connections: number; rps: number; p50: number; p99: number; requests: number; non2xx: number; errors: number };

function toFigures(engine: string, scenario: string, connections: number, r: autocannon.Result): TFigures {
  return {
    engine,
    scenario,
    connections,
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
  };
}

async function benchEngine(engine: string, env: Record<string, string>): Promise<TFigures[]> {
  const { child, origin: base } = await startBenchServer(env);
  try {
    const headers = { 'content-type': 'application/json', 'x-app-version': '31.3.1' };
    const login = await fetch(`${base}/api/v1/user/login`, { method: 'POST', headers, body: JSON.stringify(DEMO) });
    const body = (await login.json()) as { data?: { token: string } };
    if (!body.data) throw new Error(`login failed: ${JSON.stringify(body)}`);
    const token = body.data.token;
    const profile = await runCannon({
      url: `${base}/api/v1/user/profile`,
      connections: CONNECTIONS,
      duration: SECONDS,
      headers: { authorization: `Bearer ${token}`, 'x-app-version': '31.3.1' },
    });
    const logins = await runCannon({
      url: `${base}/api/v1/user/login`,
      method: 'POST',
      connections: LOGIN_CONNECTIONS,
      duration: SECONDS,
      headers,
      body: JSON.stringify(DEMO),
    });
    return [toFigures(engine, 'GET /user/profile', CONNECTIONS, profile), toFigures(engine, 'POST /user/login', LOGIN_CONNECTIONS, logins)];
  } finally {
    await stopServer(child);
  }
}

async function main() {
  const results: TFigures[] = [];

  const dataDir = mkdtempSync(join(tmpdir(), 'vl-bench-'));
  try {
    console.log(`PGlite: fresh database in ${dataDir}; ${SECONDS} s per scenario`);
    results.push(...(await benchEngine('pglite', { DATA_DIR: dataDir, DATABASE_URL: '' })));
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }

  const name = `vl_bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  let created = false;
  try {
    await admin.connect();
    await admin.query(`create database ${name}`);
    created = true;
    const url = new URL(PG_URL);
    url.pathname = `/${name}`;
    const pgDataDir = mkdtempSync(join(tmpdir(), 'vl-bench-pg-'));
    try {
      console.log(`PostgreSQL: fresh database ${name}`);
      results.push(...(await benchEngine('postgres', { DATA_DIR: pgDataDir, DATABASE_URL: url.toString() })));
    } finally {
      rmSync(pgDataDir, { recursive: true, force: true });
    }
  } catch (err) {
    console.error(`PostgreSQL run skipped or failed: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    if (created) await admin.query(`drop database if exists ${name} with (force)`).catch(() => undefined);
    await admin.end().catch(() => undefined);
  }

  console.log('\n| engine | scenario | connections | req/s | p50 ms | p99 ms | requests | non-2xx | errors |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    console.log(`| ${r.engine} | ${r.scenario} | ${r.connections} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.requests} | ${r.non2xx} | ${r.errors} |`);
  }
  const bad = results.filter((r) => r.non2xx > 0 || r.errors > 0);
  if (bad.length) {
    console.error('some requests failed');
    process.exit(1);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
