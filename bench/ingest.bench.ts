// Ingest benchmark: generates a 1,000,000-row CSV (about 20 MB, with duplicates and bad rows), uploads it through
// the real POST /api/v1/email_verify/bulk_upload endpoint of a freshly started server (embedded PGlite, fresh data
// dir) and waits until the list's analysis is ready. Prints seconds, rows/s and the server's peak RSS.
// Run: npx tsx bench/ingest.bench.ts [rows]   (default 1000000; BENCH_PG_URL=postgres://… also runs it on a fresh
// PostgreSQL database, dropped after, to show the server's own memory without the embedded database in the process;
// BENCH_ENGINES=postgres skips PGlite; BENCH_CPU_PROF=1 writes the server's --cpu-prof file to bench/.profiles/)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { DEMO_OWNER, readPeakRssMiB, ROOT, startServer as startBenchServer, stopServer } from './bench-server';

export { readPeakRssMiB } from './bench-server';

const ROWS = Number(process.argv[2] ?? 1_000_000);

/** A server on a fresh embedded database (or `DATABASE_URL` in `env`), answering its API base (`…/api/v1`). */
export async function startServer(env: Record<string, string>, args: string[] = []): Promise<{ child: ChildProcess; base: string; dataDir: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vl-bench-'));
  const { child, origin } = await startBenchServer(
    { DATABASE_URL: '', DATA_DIR: dataDir, PROSPECT_DEMO_DIRECTORY: 'false', RATE_LIMIT_AUTH_MAX: '100000', JOB_POLL_INTERVAL_MS: '100', ...env },
    { args, nodeArgs: process.env.BENCH_CPU_PROF === '1' ? ['--cpu-prof', `--cpu-prof-dir=${join(ROOT, 'bench', '.profiles')}`] : [] },
  );
  return { child, base: `${origin}/api/v1`, dataDir };
}

export async function login(base: string): Promise<string> {
  const res = await fetch(`${base}/user/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(DEMO_OWNER) });
  const body = (await res.json()) as { data: { token: string } };
  return body.data.token;
}

export async function api(base: string, token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
  return (await res.json()) as { status: string; data: any; error?: unknown }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** One e-mail column, about 19 bytes a row: every 50th row a syntax error, every 20th a case-variant duplicate. */
function buildCsv(rows: number): Buffer {
  const domains = ['a.test', 'b.test', 'gmail.com', 'c.test'];
  const lines = ['email'];
  for (let i = 0; i < rows; i += 1) {
    if (i % 50 === 7) lines.push(`bad-${i}`);
    else if (i % 20 === 3) lines.push(`U0@A.TEST`);
    else lines.push(`u${i}@${domains[i % 4]}`);
  }
  return Buffer.from(lines.join('\n') + '\n');
}

async function runOnce(csv: Buffer, label: string, env: Record<string, string>) {
  const { child, base, dataDir } = await startServer(env);
  try {
    const token = await login(base);
    const form = new FormData();
    form.append('list_name', 'bench');
    form.append('file', new Blob([csv]), 'bench.csv');
    const t0 = performance.now();
    const up = await fetch(`${base}/email_verify/bulk_upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    const upBody = (await up.json()) as { data: { id: string } };
    if (up.status !== 200) throw new Error(`upload failed: ${JSON.stringify(upBody)}`);
    const tUpload = performance.now();
    let list: any; // eslint-disable-line @typescript-eslint/no-explicit-any
    for (;;) {
      list = (await api(base, token, 'GET', `/email_verify/bulk/progress_status?list_id=${upBody.data.id}`)).data;
      if (list.analysis.state === 'ready' || list.analysis.state === 'failed') break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const t1 = performance.now();
    const seconds = (t1 - t0) / 1000;
    console.log(`[${label}] upload (stream to storage + checks): ${((tUpload - t0) / 1000).toFixed(1)} s`);
    console.log(`[${label}] until the list is ready: ${seconds.toFixed(1)} s  (${Math.round(ROWS / seconds).toLocaleString('en-US')} rows/s), analysis ${list.analysis.state}`);
    console.log(`[${label}] counts: total ${list.stats.total}, unique ${list.total}, duplicate ${list.stats.duplicate}, syntax_error ${list.stats.syntax_error}`);
    console.log(`[${label}] server peak RSS: ${readPeakRssMiB(child.pid!)} MiB`);
  } finally {
    await stopServer(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const csv = buildCsv(ROWS);
  console.log(`ingest bench: ${ROWS.toLocaleString('en-US')} rows, ${(csv.length / 1e6).toFixed(1)} MB CSV`);
  if (csv.length > 20_000_000) console.log('note: the file is over the 20,000,000-byte cap; the server will refuse it');
  const engines = (process.env.BENCH_ENGINES ?? 'pglite,postgres').split(',');
  if (engines.includes('pglite')) await runOnce(csv, 'pglite', {});
  const pgUrl = process.env.BENCH_PG_URL;
  if (pgUrl && engines.includes('postgres')) {
    const name = `vl_bench_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(pgUrl);
    url.pathname = `/${name}`;
    try {
      await runOnce(csv, 'postgres', { DATABASE_URL: url.toString() });
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
