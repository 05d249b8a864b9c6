// Instant path benchmark (issue 12): `autocannon` on POST /v2/email_verify/instant with an app token, for one
// mail-world address whose host delays its greeting by 100 ms (realistic preset; 1 ms per command reply), on
// PostgreSQL and on PGlite. The server's shared engine keeps warm SMTP sessions, so repeated calls reuse them.
// Prints req/s, p50, p99 and the load average of a closed loop (each connection sends its next call the moment the
// last answers: the most the server does), then p50/p99 of calls arriving at the target's rate over as many
// connections (1,000/s on PostgreSQL, 300/s on PGlite; open-loop.ts), and checks every call was billed exactly once (ledger charges ==
// 2xx billable answers).
// Run: npx tsx bench/instant.bench.ts   (BENCH_SECONDS=15, BENCH_CONNECTIONS=50, BENCH_ENGINES=postgres,pglite,
//      BENCH_REDIS_URL=redis://127.0.0.1:6379 to count rate limits in Redis, BENCH_CPU_PROF=1 to write --cpu-prof files,
//      BENCH_RATE=<calls/s> for another arrival rate, BENCH_RATE_RUN=0 to skip that run)
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type autocannon from 'autocannon';
import pg from 'pg';
import { grantCredits } from '../apps/server/src/platform/credits/ledger';
import { openPglite, openPostgres, selectRows, sql, type TDatabase } from '../apps/server/src/platform/db/database';
import { seedDemoIfEmpty } from '../apps/server/src/seed';
import { DEMO_OWNER as DEMO, ROOT, runCannon, startServer as startBenchServer, stopServer } from './bench-server';
import { openLoop } from './open-loop';
import { startMailWorldProcess, type TMailWorldProcess } from './mail-world-process';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ENGINES = (process.env.BENCH_ENGINES ?? 'postgres,pglite').split(',').filter(Boolean);
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const CPU_PROF = process.env.BENCH_CPU_PROF === '1';
const ADDRESS = process.env.BENCH_ADDRESS ?? 'alice@strict.test';
/** The second scenario: every call a different mailbox of the same host (no two calls can share a verification). */
const DISTINCT = Number(process.env.BENCH_DISTINCT ?? 20_000);
const distinctAddress = (i: number) => `bench.person${i}@strict.test`;
const SCENARIOS = (process.env.BENCH_SCENARIOS ?? 'same,distinct').split(',').filter(Boolean) as Array<'same' | 'distinct'>;
const BILLABLE = new Set(['valid', 'invalid', 'catch_all']);
const TARGETS: Record<string, { rps: number; p99?: number }> = { postgres: { rps: 1_000, p99: 50 }, pglite: { rps: 300 } };
/** After the closed-loop run, one more at the target's rate (BENCH_RATE_RUN=0 skips it). */
const RATE_RUN = process.env.BENCH_RATE_RUN !== '0';

/** The server on the bench's database, with `--cpu-prof` files in `profDir` when BENCH_CPU_PROF=1. */
function startServer(env: Record<string, string>, profDir: string) {
  return startBenchServer({ PROSPECT_DEMO_DIRECTORY: 'false', RATE_LIMIT_AUTH_MAX: '100000', ...env }, { nodeArgs: CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : [] });
}

/** The demo organisation with enough credits for the whole run. */
async function prepare(db: TDatabase) {
  await db.migrate();
  await seedDemoIfEmpty(db);
  const orgs = await selectRows<{ id: string }>(db.db, sql`select id from organisations order by created_at limit 1`);
  await db.transaction((tx) => grantCredits(tx, { orgId: orgs[0]!.id, amount: 5_000_000, reason: 'Bench credits' }));
}

/** Ledger charges of instant calls, and the distinct billable results they charge (each must be charged once). */
async function countCharges(db: TDatabase): Promise<{ charges: number; charged: number; billableRows: number }> {
  const rows = await selectRows<{ charges: number; charged: number; billable_rows: number }>(
    db.db,
    sql`select (select count(*)::int from credit_transactions where kind = 'charge' and source_agent = 'instant_verify') as charges,
               (select count(distinct object_id)::int from credit_transactions where kind = 'charge' and source_agent = 'instant_verify') as charged,
               (select count(*)::int from instant_verifications where billable) as billable_rows`,
  );
  const r = rows[0]!;
  return { charges: r.charges, charged: r.charged, billableRows: r.billable_rows };
}

async function json<T>(res: Response): Promise<T> {
  const body = (await res.json()) as { data?: T };
  if (!res.ok || !body.data) throw new Error(`${res.url}: ${res.status} ${JSON.stringify(body)}`);
  return body.data;
}


/** CPU time (user + system, ms) a process has used so far (Linux). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** CPU time (ms) of every PostgreSQL server process (its backends do the queries of all the calls). */
function postgresCpuMs(): number {
  let total = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres') total += cpuMs(Number(pid));
    } catch {
      /* the process ended */
    }
  }
  return total;
}

const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');

async function runEngine(engine: string, world: TMailWorldProcess, scenario: 'same' | 'distinct') {
  const dataDir = mkdtempSync(join(tmpdir(), 'vl-bench-instant-'));
  const worldEnv = {
    DNS_SERVERS: world.dnsServers.join(','),
    VERIFIER_SMTP_PORT: String(world.smtpPort),
    VERIFIER_CONNECT_TIMEOUT_MS: '2000',
    VERIFIER_REPLY_TIMEOUT_MS: '2000',
    REDIS_URL: process.env.BENCH_REDIS_URL ?? '',
  };
  let env: Record<string, string>;
  let reopen: () => Promise<TDatabase>;
  let dropDatabase = async () => {};
  if (engine === 'postgres') {
    const name = `vl_bench_instant_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(PG_URL);
    url.pathname = `/${name}`;
    const db = openPostgres(url.toString(), 2);
    await prepare(db);
    await db.close();
    env = { ...worldEnv, DATABASE_URL: url.toString(), DATA_DIR: dataDir };
    reopen = async () => openPostgres(url.toString(), 2);
    dropDatabase = async () => {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    };
  } else {
    const db = await openPglite(join(dataDir, 'pglite'));
    await prepare(db);
    await db.close();
    env = { ...worldEnv, DATABASE_URL: '', DATA_DIR: dataDir };
    reopen = () => openPglite(join(dataDir, 'pglite'));
  }

  const { child, origin: base } = await startServer(env, join(ROOT, 'bench', '.profiles'));
  let billed = 0;
  let other = 0;
  let result: autocannon.Result;
  const target = TARGETS[engine]!;
  try {
    const headers = { 'content-type': 'application/json', 'x-app-version': '31.3.1' };
    const session = (await json<{ token: string }>(await fetch(`${base}/api/v1/user/login`, { method: 'POST', headers, body: JSON.stringify(DEMO) }))).token;
    const app = await json<{ token: string }>(
      await fetch(`${base}/api/v1/apps/create`, {
        method: 'POST',
        headers: { ...headers, authorization: `Bearer ${session}` },
        body: JSON.stringify({ name: 'Bench', type: 'server', rate_limit: { window: 'minute', max: 1_000_000, scope: 'global' } }),
      }),
    );
    const callHeaders = { authorization: `Bearer ${app.token}`, 'content-type': 'application/json' };
    const body = JSON.stringify({ email: ADDRESS });
    let next = 0;
    const distinctBody = () => JSON.stringify({ email: distinctAddress(next++ % DISTINCT) });
    // Warm-up: the first call greets the host (100 ms); later ones reuse the engine's warm sessions.
    for (let i = 0; i < 20; i += 1) {
      const res = await fetch(`${base}/v2/email_verify/instant`, { method: 'POST', headers: callHeaders, body });
      const answer = (await res.json()) as { status: string; data?: { status: string } };
      if (res.ok && answer.status === 'success' && BILLABLE.has(answer.data?.status ?? '')) billed += 1;
      else other += 1;
    }
    const count = (status: number, text: string) => {
      try {
        const answer = JSON.parse(text) as { status: string; data?: { status: string } };
        if (status >= 200 && status < 300 && answer.status === 'success' && BILLABLE.has(answer.data?.status ?? '')) billed += 1;
        else other += 1;
      } catch {
        other += 1;
      }
    };
    const cannon = (duration: number) => runCannon({
      url: `${base}/v2/email_verify/instant`,
      method: 'POST',
      connections: CONNECTIONS,
      duration,
      headers: callHeaders,
      body,
      requests: [
        {
          ...(scenario === 'distinct' ? { setupRequest: (req: autocannon.Request) => ({ ...req, body: distinctBody() }) } : {}),
          onResponse: count,
        },
      ],
    });
    // Warm-up at the measured concurrency: the engine opens its sessions to the host (each waits for the 100 ms greeting)
    // and the server's code is compiled before the measured run, as in a server that has been taking calls. Its
    // answers count for billing like the others.
    const cutInWarmUp = WARMUP_SECONDS > 0 ? CONNECTIONS : 0;
    if (WARMUP_SECONDS > 0) await cannon(WARMUP_SECONDS);
    const loadBefore = load();
    const cpuBefore = cpuMs(child.pid!);
    const benchCpuBefore = process.cpuUsage();
    const worldCpuBefore = cpuMs(world.pid);
    const pgCpuBefore = postgresCpuMs();
    const wallBefore = performance.now();
    result = await cannon(SECONDS);
    const loadAfter = load();
    const cpuPerCall = (cpuMs(child.pid!) - cpuBefore) / Math.max(1, result.requests.total);
    // Where the machine's cores went: the server, this process (autocannon), the mail world, PostgreSQL.
    const wall = performance.now() - wallBefore;
    const benchCpu = process.cpuUsage(benchCpuBefore);
    const shares = {
      server: ((cpuPerCall * result.requests.total) / wall).toFixed(2),
      bench: ((benchCpu.user + benchCpu.system) / 1000 / wall).toFixed(2),
      world: ((cpuMs(world.pid) - worldCpuBefore) / wall).toFixed(2),
      postgres: engine === 'postgres' ? ((postgresCpuMs() - pgCpuBefore) / wall).toFixed(2) : '-',
    };
    // Then calls arriving at the target's rate over as many connections (open loop, see open-loop.ts): how fast a call
    // is answered at that rate, rather than in a closed loop that sends the next call the moment one answers and so
    // keeps every connection queued on the 2 cores. It waits for its last answers: no call is cut.
    const atRate = RATE_RUN
      ? await openLoop({
          url: `${base}/v2/email_verify/instant`,
          method: 'POST',
          headers: callHeaders,
          body: scenario === 'distinct' ? distinctBody : () => body,
          rate: Number(process.env.BENCH_RATE) || target.rps,
          seconds: SECONDS,
          connections: CONNECTIONS,
          onResponse: count,
        })
      : null;
    const db = engine === 'postgres' ? await reopen() : null;
    const charges = db ? await countCharges(db) : null;
    await db?.close();
    await stopServer(child);
    const ledger = charges ??  await (async () => {
      const lite = await reopen();
      try {
        return await countCharges(lite);
      } finally {
        await lite.close();
      }
    })();
    const rps = Math.round(result.requests.average);
    console.log(
      `| ${engine} | ${scenario === 'same' ? ADDRESS : `${DISTINCT.toLocaleString('en-US')} mailboxes`} | ${CONNECTIONS} | ${SECONDS} s | ${rps} | ${result.latency.p50} | ${result.latency.p99} | ${result.requests.total} | ${result.non2xx} | ${result.errors + result.timeouts} | ${cpuPerCall.toFixed(2)} | ${billed} | ${ledger.charges} | ${loadBefore} → ${loadAfter} |`,
    );
    // autocannon drops the calls still running when the time is up; the server completes and bills them (a call whose
    // verification has begun either completes or charges nothing). So: every billable result charged exactly once, and
    // the charges are the billable answers plus at most one cut call per connection.
    const cut = ledger.charges - billed;
    const exact = ledger.charges === ledger.charged && ledger.charged === ledger.billableRows && cut >= 0 && cut <= CONNECTIONS + cutInWarmUp;
    if (atRate) {
      console.log(
        `  ${engine}: calls arriving at ${target.rps}/s over ${CONNECTIONS} connections for ${SECONDS} s: ${atRate.answered} of ${atRate.sent} answered (${Math.round(atRate.rps)}/s), p50 ${atRate.latency.p50} ms, p90 ${atRate.latency.p90} ms, p99 ${atRate.latency.p99} ms, max ${atRate.latency.max} ms, errors ${atRate.errors}`,
      );
    }
    console.log(`  ${engine}: cores busy during the run: server ${shares.server}, load generator ${shares.bench}, mail world ${shares.world}, PostgreSQL ${shares.postgres} (of ${cpus().length})`);
    console.log(
      `  ${engine}: ${ledger.charges} ledger charges for ${ledger.billableRows} billable results (${ledger.charged} distinct); ${billed} billable 2xx answers + ${cut} calls cut at the end of the runs; ${other} other answers${exact ? ' → billed exactly once' : ' → NOT billed exactly once'}`,
    );
    const p99AtRate = atRate?.latency.p99;
    const misses = [
      rps < target.rps ? `req/s ${rps} < ${target.rps}` : '',
      target.p99 !== undefined && p99AtRate !== undefined && p99AtRate > target.p99 ? `p99 at ${target.rps} req/s ${p99AtRate} ms > ${target.p99} ms` : '',
    ]
      .filter(Boolean)
      .join(', ');
    if (misses) console.log(`  ${engine}: below target (${misses}) at load ${loadAfter} on a shared 2-core machine`);
    if (!exact || result.non2xx > 0 || (atRate && (atRate.errors > 0 || atRate.answered < atRate.sent))) process.exitCode = 1;
  } finally {
    await stopServer(child);
    await dropDatabase().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const corpus = Array.from({ length: DISTINCT }, (_, i) => ({ email: distinctAddress(i), expected: { status: 'valid' as const, reason: 'valid_mailbox' }, tags: [] }));
  // In its own process: the load generator here and the world's SMTP replies do not wait for each other.
  const world = await startMailWorldProcess({ preset: 'realistic', greetingDelayMs: [100, 100], commandLatencyMs: [1, 1], preferPort25: false, corpus });
  try {
    console.log(`\nPOST /v2/email_verify/instant (greeting 100 ms), autocannon -c ${CONNECTIONS} -d ${SECONDS}: one address (concurrent calls for it share a verification), then a different mailbox on every call`);
    console.log('| engine | addresses | connections | duration | req/s | p50 ms | p99 ms | requests | non-2xx | errors | server CPU ms/call | billable 2xx | ledger charges | load avg (1/5/15 min) before → after |');
    console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
    for (const scenario of SCENARIOS) for (const engine of ENGINES) await runEngine(engine, world, scenario);
  } finally {
    await world.stop();
  }
  printRouteJavaScript();
}

type TRouteReport = { route: string; files: number; gzipBytes: number; budgetBytes?: number };

/** The sign-in pages' gzipped JavaScript, as the web build measures it (dist/route-js-report.json; built when missing). */
function printRouteJavaScript(): void {
  const report = join(ROOT, 'apps/web/dist/route-js-report.json');
  if (!existsSync(report)) spawnSync('npm', ['run', 'build', '-w', '@verilead/web'], { cwd: ROOT, stdio: 'ignore' });
  if (!existsSync(report)) {
    console.log('\nThe web build failed: no route JavaScript figures');
    return;
  }
  console.log('\nJavaScript the browser loads before the page is usable (gzipped, as built):');
  for (const r of JSON.parse(readFileSync(report, 'utf8')) as TRouteReport[]) {
    const budget = r.budgetBytes ? ` (budget ${(r.budgetBytes / 1024).toFixed(1)} KB)` : '';
    console.log(`  ${r.route}: ${(r.gzipBytes / 1024).toFixed(1)} KB in ${r.files} files${budget}`);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
