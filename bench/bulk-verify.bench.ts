// Bulk verification benchmark, scaled out: the REALISTIC mail world (greeting delays, per-reply latency, postscreen,
// a 421-after-3-connections host, Microsoft 365 both ways, a 700 ms host, 5-minute greylisting; see
// packages/mailworld/README.md) serving makeRealisticCorpus(N, 7); the engine run alone over every address (its verdicts
// are the reference); then, on a fresh PostgreSQL database each time, an API process (`--role api`) and 1, then 2,
// worker processes (`--role worker`) verify the uploaded list in chunk jobs, greylisted rows in re-check jobs. Prints
// addresses/s end to end, the share of verdicts equal to the engine's own, accuracy against the world's truth, and
// peak RSS. Greylisting is time-compressed ×GREYLIST_SPEEDUP (the world's greylist clock runs that much faster and the
// re-checks come at the highest-accuracy schedule divided by it), so the 5-minute greylisting host is answered.
// While a list runs, the API's /metrics (METRICS_TOKEN) is read every few seconds: the bench prints the queue as an
// operator's dashboard sees it (verification jobs waiting and running, the oldest wait, jobs finished), so what one more worker
// buys shows in the queue as well as in addresses/s.
// Run: npx tsx bench/bulk-verify.bench.ts [count] [workers…]   (default 100000 with 1, 2 and 4 workers: expect about
// 10-20 minutes per run on 2 cores; BENCH_WORKERS=1,2 sets the worker counts too). BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres).
// BENCH_WORLD=fast: the old instant world and makeCorpus. BENCH_REDIS_URL (default redis://127.0.0.1:6379; '' for none).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { makeCorpus, makeRealisticCorpus, startMailWorld, type TMailWorld } from '@verilead/mailworld';
import { DEFAULT_GREYLIST_SCHEDULE } from '@verilead/verifier';
import { loadConfig } from '../apps/server/src/config';
import { openPostgres } from '../apps/server/src/platform/db/database';
import { grantCredits } from '../apps/server/src/platform/credits/ledger';
import { createVerifier } from '../apps/server/src/platform/verifier/verifier';
import { seedDemoIfEmpty } from '../apps/server/src/seed';
import { api, login, readPeakRssMiB, startServer } from './ingest.bench';
import { serverEntry } from './server-entry';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const COUNT = Number(process.argv[2] ?? 100_000);
const WORKER_COUNTS =
  process.argv.length > 3 ? process.argv.slice(3).map(Number) : (process.env.BENCH_WORKERS ?? '1,2,4').split(',').map(Number);
const METRICS_TOKEN = `bench-metrics-${randomBytes(6).toString('hex')}`;
// The processes share each mail host's connections and lessons through Redis, as the README's scale-out deployment
// does (without it each worker keeps its own limits: 4 workers open 4 times the connections a host takes, and a host
// that refuses its 4th answers 421 until some addresses end unknown). BENCH_REDIS_URL='' runs them apart.
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** The queue as /metrics shows it: verification jobs waiting and running, the oldest wait, and jobs finished (all queues). */
type TQueueView = { waiting: number; active: number; oldestSeconds: number; finished: number };

async function readQueueView(origin: string): Promise<TQueueView | null> {
  const res = await fetch(`${origin}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } }).catch(() => null);
  if (!res || !res.ok) return null;
  const view: TQueueView = { waiting: 0, active: 0, oldestSeconds: 0, finished: 0 };
  for (const line of (await res.text()).split('\n')) {
    const m = /^(verilead_job_queue_waiting|verilead_job_queue_active|verilead_job_queue_oldest_waiting_seconds|verilead_jobs_finished_recent)\{([^}]*)\} ([0-9.e+-]+)$/.exec(line);
    if (!m) continue;
    const value = Number(m[3]);
    if (m[1] === 'verilead_jobs_finished_recent') view.finished += value;
    else if (!m[2]!.includes('queue="verification"')) continue;
    else if (m[1] === 'verilead_job_queue_waiting') view.waiting += value;
    else if (m[1] === 'verilead_job_queue_active') view.active += value;
    else view.oldestSeconds = Math.max(view.oldestSeconds, value);
  }
  return view;
}

function describeQueue(v: TQueueView | null): string {
  return v ? `verification jobs waiting ${v.waiting}, running ${v.active}, oldest waiting ${v.oldestSeconds.toFixed(0)} s; jobs finished (recent window) ${v.finished}` : 'metrics unavailable';
}
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REALISTIC = (process.env.BENCH_WORLD ?? 'realistic') !== 'fast';
const GREYLIST_SPEEDUP = 20;
const WORLD_GREYLIST_MS = 60_000; // realistic: greylist.test holds 1 minute (greylist5.test 5), in world time

function worldEnv(world: TMailWorld): Record<string, string> {
  const schedule = REALISTIC ? DEFAULT_GREYLIST_SCHEDULE.highest_accuracy.map((ms) => Math.round(ms / GREYLIST_SPEEDUP)) : [world.greylistDelayMs + 250];
  return {
    DNS_SERVERS: world.dnsServers.join(','),
    VERIFIER_SMTP_PORT: String(world.smtpPort),
    VERIFIER_CONNECT_TIMEOUT_MS: '2000',
    // realistic: a postscreen host keeps a new client 2 s before its greeting; the tarpit stays silent 25 s, beyond
    // the 4 × 5 s a starved event loop may stretch a reply wait
    VERIFIER_REPLY_TIMEOUT_MS: REALISTIC ? '5000' : '2000',
    VERIFIER_GREYLIST_SCHEDULE_MS: schedule.join(','),
  };
}

/** The engine alone (no API, no jobs, no database): the reference verdict of every address. */
async function engineVerdicts(world: TMailWorld, emails: string[]): Promise<Map<string, string>> {
  const config = loadConfig({ ...worldEnv(world), REDIS_URL: '' } as NodeJS.ProcessEnv, { appSecret: 'bench' });
  const verifier = createVerifier(config);
  const verdicts = new Map<string, string>();
  const t0 = performance.now();
  for await (const r of verifier.verifyMany(
    (async function* () {
      yield* emails;
    })(),
    {},
  )) {
    verdicts.set(r.email.toLowerCase(), r.status);
  }
  const secs = (performance.now() - t0) / 1000;
  console.log(`[engine alone] ${verdicts.size} addresses in ${secs.toFixed(1)} s = ${(verdicts.size / secs).toFixed(0)} addresses/s`);
  return verdicts;
}

async function startWorker(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, [...(await serverEntry()), '--role', 'worker'], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'info', JOB_POLL_INTERVAL_MS: '100', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('job worker started')) resolve(child);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`worker exited (${code}):\n${output.slice(-2000)}`)));
  });
}

async function runWithWorkers(world: TMailWorld, emails: string[], reference: Map<string, string>, workers: number) {
  const name = `vl_bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'vl-bench-verify-'));
  const children: ChildProcess[] = [];
  try {
    const db = openPostgres(url.toString(), 4);
    await db.migrate();
    await seedDemoIfEmpty(db);
    const orgs = (await db.db.execute('select id from organisations order by created_at limit 1' as never)) as unknown as { rows: { id: string }[] };
    await db.transaction((tx) => grantCredits(tx, { orgId: orgs.rows[0]!.id, amount: emails.length * 2, reason: 'Bench credits' }));
    await db.close();

    const env = { ...worldEnv(world), DATABASE_URL: url.toString(), DATA_DIR: dataDir, STORAGE_DIR: join(dataDir, 'storage'), REDIS_URL, METRICS_TOKEN };
    const server = await startServer(env, ['--role=api']);
    children.push(server.child);
    for (let i = 0; i < workers; i += 1) children.push(await startWorker(env));
    const { base } = server;
    const token = await login(base);
    const form = new FormData();
    form.append('file', new Blob([emails.join('\n')]), 'corpus.txt');
    const t0 = performance.now();
    const up = await fetch(`${base}/email_verify/bulk_upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    const listId = ((await up.json()) as { data: { id: string } }).data.id;
    let p: any; // eslint-disable-line @typescript-eslint/no-explicit-any
    for (;;) {
      p = (await api(base, token, 'GET', `/email_verify/bulk/progress_status?list_id=${listId}`)).data;
      if (p.analysis.state !== 'pending' && p.analysis.state !== 'processing') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const tReady = performance.now();
    const start = await api(base, token, 'POST', '/email_verify/list/verify', { list_id: listId });
    if (start.status !== 'success') throw new Error(`verify failed: ${JSON.stringify(start)}`);
    const origin = base.replace(/\/api\/v1$/, '');
    let lastLog = performance.now();
    let lastSample = 0;
    const samples: TQueueView[] = [];
    for (;;) {
      p = (await api(base, token, 'GET', `/email_verify/bulk/progress_status?list_id=${listId}`)).data;
      if (p.state !== 'in_progress') break;
      if (performance.now() - lastSample > 5_000) {
        lastSample = performance.now();
        const view = await readQueueView(origin);
        if (view) samples.push(view);
      }
      if (performance.now() - lastLog > 30_000) {
        lastLog = performance.now();
        console.log(`  ${p.verified}/${p.total} verified; ${describeQueue(samples.at(-1) ?? null)}`);
      }
      await new Promise((r) => setTimeout(r, 500));
    }
    const endView = await readQueueView(origin);
    const t1 = performance.now();
    const ex = await api(base, token, 'POST', '/email_verify/list/export', { list_id: listId, format: 'standard', file_type: 'csv' });
    let d: any; // eslint-disable-line @typescript-eslint/no-explicit-any
    for (;;) {
      d = (await api(base, token, 'GET', `/download/result/status?queue_id=${ex.data.queue_id}`)).data;
      if (d.state !== 'queued' && d.state !== 'processing') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const csv = await (await fetch(`${base.replace(/\/api\/v1$/, '')}${d.download_url}`)).text();
    let same = 0;
    let right = 0;
    let judged = 0;
    const differ = new Map<string, number>();
    for (const line of csv.replace(/^\uFEFF/, '').split('\r\n').slice(1)) {
      if (!line) continue;
      const [rawEmail, status] = line.split(',');
      const email = (rawEmail ?? '').replace(/^'/, '').toLowerCase();
      const ref = reference.get(email);
      if (!ref) continue;
      judged += 1;
      if (ref === status) same += 1;
      else differ.set(`${ref} -> ${status}`, (differ.get(`${ref} -> ${status}`) ?? 0) + 1);
      if (world.truth.get(email)?.status === status) right += 1;
    }
    const secs = (t1 - tReady) / 1000;
    const label = `[postgres, ${workers} worker${workers === 1 ? '' : 's'}]`;
    console.log(`${label} state ${p.state}; ${p.verified} unique addresses; upload + analyse ${((tReady - t0) / 1000).toFixed(1)} s`);
    console.log(`${label} verification: ${secs.toFixed(1)} s = ${(p.verified / secs).toFixed(0)} addresses/s end to end`);
    console.log(`${label} verdicts equal to the engine run alone: ${((same / Math.max(1, judged)) * 100).toFixed(2)} % (${same}/${judged}); accuracy vs truth ${((right / Math.max(1, judged)) * 100).toFixed(2)} %`);
    if (differ.size > 0) console.log(`${label} differences: ${[...differ].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([k, n]) => `${k} ×${n}`).join('; ')}`);
    const mean = (pick: (v: TQueueView) => number) => (samples.length ? samples.reduce((a, v) => a + pick(v), 0) / samples.length : 0);
    console.log(
      `${label} queue (/metrics, ${samples.length} samples every 5 s): verification jobs waiting ${mean((v) => v.waiting).toFixed(1)} on average, running ${mean((v) => v.active).toFixed(1)} on average, oldest wait up to ${Math.max(0, ...samples.map((v) => v.oldestSeconds)).toFixed(0)} s; at the end: ${describeQueue(endView)}`,
    );
    console.log(`${label} peak RSS: api ${readPeakRssMiB(server.child.pid!)} MiB, workers ${children.slice(1).map((c) => readPeakRssMiB(c.pid!)).join(', ')} MiB`);
  } finally {
    for (const c of children) c.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 1500));
    for (const c of children) c.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

async function main() {
  const corpus = REALISTIC ? makeRealisticCorpus(COUNT, 7) : makeCorpus(COUNT, 7);
  const worldStart = Date.now();
  const world = await startMailWorld(
    REALISTIC
      ? {
          corpus,
          preset: 'realistic',
          greylistDelayMs: WORLD_GREYLIST_MS,
          tarpitDelayMs: 25_000,
          // greylisting time-compressed (see the top of this file)
          now: () => worldStart + (Date.now() - worldStart) * GREYLIST_SPEEDUP,
        }
      : { corpus },
  );
  const emails = corpus.map((c) => c.email);
  const made = REALISTIC ? `the realistic world, makeRealisticCorpus(${COUNT}, 7), greylisting ×${GREYLIST_SPEEDUP} compressed` : `the fast world, makeCorpus(${COUNT}, 7)`;
  console.log(`bulk-verify bench: ${COUNT.toLocaleString('en-US')} mail-world addresses (${made}), workers ${WORKER_COUNTS.join(' and ')}`);
  try {
    const reference = await engineVerdicts(world, emails);
    for (const n of WORKER_COUNTS) await runWithWorkers(world, emails, reference, n);
  } finally {
    await world.stop();
  }
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
