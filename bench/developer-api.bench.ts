// Developer API benchmark: starts the server (PGlite, --demo-mail-world, ALLOW_PRIVATE_DESTINATIONS) on
// 127.0.0.1, creates an app, then (1) POSTs /v2/email_verify/instant with the app token on a mail-world
// address at a steady concurrency (req/s, p50/p99), and (2) measures webhook delivery throughput: a
// webhook on a local receiver subscribed to email_verifier.instant.completed, N verifications, and the
// time until the receiver has every signed delivery.
// Run: npx tsx bench/developer-api.bench.ts   (BENCH_SECONDS=10, BENCH_CONNECTIONS=10, BENCH_WEBHOOK_EVENTS=300)
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_OWNER, runCannon, startServer as startBenchServer, stopServer } from './bench-server';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const WEBHOOK_EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 300);
const ADDRESS = 'alice@strict.test';

/** The server on the embedded database in `dataDir`, with the demo mail world and private webhooks allowed. */
function startServer(dataDir: string) {
  return startBenchServer(
    { DATA_DIR: dataDir, DATABASE_URL: '', ALLOW_PRIVATE_DESTINATIONS: 'true', JOB_CONCURRENCY: '4', JOB_POLL_INTERVAL_MS: '50' },
    { args: ['--demo-mail-world'] },
  );
}

async function api<T>(base: string, path: string, token: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}/api/v1${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-app-version': '31.3.1' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { data?: T };
  if (!res.ok || !json.data) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'vl-bench-dev-'));
  const { child, origin: base } = await startServer(dataDir);
  const received: number[] = [];
  const receiver = createHttpServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.push(performance.now());
      res.end('ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  try {
    const login = await fetch(`${base}/api/v1/user/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-app-version': '31.3.1' }, body: JSON.stringify(DEMO_OWNER) });
    const session = ((await login.json()) as { data: { token: string } }).data.token;
    const app = await api<{ token: string }>(base, '/apps/create', session, { name: 'Bench', rate_limit: { window: 'minute', max: 1_000_000, scope: 'global' } });
    const headers = { authorization: `Bearer ${app.token}`, 'content-type': 'application/json' };

    const instant = await runCannon({ url: `${base}/v2/email_verify/instant`, method: 'POST', connections: CONNECTIONS, duration: SECONDS, headers, body: JSON.stringify({ email: ADDRESS }) });

    const testAddress = await runCannon({ url: `${base}/v2/email_verify/instant`, method: 'POST', connections: CONNECTIONS, duration: SECONDS, headers, body: JSON.stringify({ email: 'valid@example.com' }) });

    const address = receiver.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    await api(base, '/webhook', session, { name: 'Bench receiver', url: `http://127.0.0.1:${port}/hook`, events: ['email_verifier.instant.completed'] });
    // Let the dispatcher move past the events of the first run (they were recorded before the webhook existed).
    await new Promise((r) => setTimeout(r, 3_000));
    received.length = 0;
    const started = performance.now();
    const produce = await runCannon({ url: `${base}/v2/email_verify/instant`, method: 'POST', connections: CONNECTIONS, amount: WEBHOOK_EVENTS, headers, body: JSON.stringify({ email: ADDRESS }) });
    const produced = performance.now();
    const deadline = Date.now() + 120_000;
    while (received.length < WEBHOOK_EVENTS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const done = performance.now();
    const first = received[0] ?? done;

    console.log('\n| scenario | connections | req/s | p50 ms | p99 ms | requests | non-2xx | errors |');
    console.log('|---|---|---|---|---|---|---|---|');
    console.log(
      `| POST /v2/email_verify/instant (app token, ${ADDRESS}) | ${CONNECTIONS} | ${Math.round(instant.requests.average)} | ${instant.latency.p50} | ${instant.latency.p99} | ${instant.requests.total} | ${instant.non2xx} | ${instant.errors + instant.timeouts} |`,
    );
    console.log(
      `| POST /v2/email_verify/instant (test address valid@example.com: API, auth, rate limit; no verification) | ${CONNECTIONS} | ${Math.round(testAddress.requests.average)} | ${testAddress.latency.p50} | ${testAddress.latency.p99} | ${testAddress.requests.total} | ${testAddress.non2xx} | ${testAddress.errors + testAddress.timeouts} |`,
    );
    console.log(
      `\nwebhooks: ${received.length}/${WEBHOOK_EVENTS} deliveries; events produced in ${Math.round(produced - started)} ms; ` +
        `deliveries ${Math.round((received.length / Math.max(1, done - first)) * 1000)}/s (first→last delivery ${Math.round(done - first)} ms; ` +
        `last delivery ${Math.round(done - produced)} ms after the last event)`,
    );
    if (instant.non2xx > 0 || testAddress.non2xx > 0 || produce.non2xx > 0 || received.length < WEBHOOK_EVENTS) process.exitCode = 1;
  } finally {
    receiver.close();
    await stopServer(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
