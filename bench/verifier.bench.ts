/**
 * Verifier benchmark: the Verilead engine (one shared `VerifierEngine`, `verifyMany` at concurrency 500) against the
 * npm package `deep-email-validator` over the same 10,000-address corpus, served by the REALISTIC mail world on
 * loopback (greeting delays of 100–500 ms, per-reply latency, postscreen, a 421-after-3-connections host, Microsoft
 * 365 both ways, a 700 ms host, 5-minute greylisting, UTF-8 without SMTPUTF8; see packages/mailworld/README.md).
 *
 *   npx tsx bench/verifier.bench.ts            (or `npm run bench`, which runs every bench/*.bench.ts)
 *   BENCH_SIZE=2000 npx tsx bench/verifier.bench.ts   (smaller corpus)
 *   BENCH_WORLD=fast npx tsx bench/verifier.bench.ts  (the old instant world and makeCorpus)
 *   BENCH_PEER=0 npx tsx bench/verifier.bench.ts      (the Verilead engine alone, without deep-email-validator)
 *
 * Greylisting is time-compressed ×GREYLIST_SPEEDUP: the world's greylist clock runs that much faster and the
 * engine's retries come at the highest-accuracy schedule (1, 3, 7 min) divided by it, so the 5-minute greylisting
 * host is answered within the run. The list-completion figures (95 % / 100 % answered) count the addresses that
 * never waited for a greylist retry; those that did are reported apart.
 *
 * The world (DNS + SMTP) runs in this process; each verifier runs in its own child process, so its
 * throughput, per-address latency and peak RSS are its own. Nothing leaves 127.0.0.0/8: the children point
 * node's resolver at the world's DNS and replace dns.lookup so a host name can only resolve through it.
 */
import { fileURLToPath } from 'node:url';
import { makeCorpus, makeRealisticCorpus, startMailWorld, type TCorpusEntry, type TExpected, type TMailWorld } from '@verilead/mailworld';
import { runVerifierChild, type TWorkerResult } from './verify-worker';

const SEED = 42;
const SIZE = Number(process.env.BENCH_SIZE ?? 10_000);
const REALISTIC = (process.env.BENCH_WORLD ?? 'realistic') !== 'fast';
const PEER_CONCURRENCY = 50;
const ENGINE_CONCURRENCY = 500;
const GREYLIST_SPEEDUP = 20;
const WORLD_GREYLIST_MS = 60_000; // greylist.test: a 1-minute window (5 minutes on greylist5.test), in world time
const REPLY_MS = 5_000;
const TARPIT_MS = 25_000; // tarpit.test stays silent beyond 4 × the reply timeout (the most our own lag may stretch a wait): unknown / smtp_timeout
const PHASE_LIMIT_MS = 10 * 60_000;
const corpusFor = (size: number) => (REALISTIC ? makeRealisticCorpus(size, SEED) : makeCorpus(size, SEED));

/** The Verilead engine's options in this world: highest accuracy, its greylist schedule compressed like the world's clock. */
export const REALISTIC_ENGINE_OPTIONS = {
  mode: 'highest_accuracy',
  timeouts: { dnsMs: 2000, connectMs: 2000, replyMs: REPLY_MS },
  // the highest-accuracy schedule (1, 3, 7 min), compressed like the world's greylist clock
  greylistSchedule: [60_000, 180_000, 420_000].map((ms) => ms / GREYLIST_SPEEDUP),
};

/** A fresh mail world serving `corpus` (one per verifier: greylisting state must not carry over). */
export async function startBenchWorld(corpus: TCorpusEntry[], realistic = true): Promise<TMailWorld> {
  const worldStart = Date.now();
  return startMailWorld({
    corpus,
    preset: realistic ? 'realistic' : 'fast',
    greylistDelayMs: realistic ? WORLD_GREYLIST_MS : 1000,
    tarpitDelayMs: realistic ? TARPIT_MS : 3000,
    // greylisting time-compressed (see the top of this file)
    now: () => worldStart + (Date.now() - worldStart) * GREYLIST_SPEEDUP,
  });
}

// ---------------------------------------------------------------- parent

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

type TSummary = { name: string; n: number; perSecond: number; p50: number; p99: number; accuracy: number; reasonAccuracy: number; unknown: number; rssMb: number };

function summarise(name: string, result: Extract<TWorkerResult, { kind: 'result' }>, truth: Map<string, TExpected>): TSummary {
  const times = result.rows.map((r) => r.ms).sort((a, b) => a - b);
  let statusHits = 0;
  let reasonHits = 0;
  let unknown = 0;
  for (const row of result.rows) {
    const expected = truth.get(row.email.toLowerCase());
    if (expected?.status === row.status) statusHits++;
    if (expected?.status === row.status && expected.reason === row.reason) reasonHits++;
    if (row.status === 'unknown') unknown++;
  }
  const n = result.rows.length;
  return {
    name, n,
    perSecond: n / (result.wallMs / 1000),
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    accuracy: (100 * statusHits) / Math.max(1, n),
    reasonAccuracy: (100 * reasonHits) / Math.max(1, n),
    unknown: (100 * unknown) / Math.max(1, n),
    rssMb: result.maxRssBytes / 1024 / 1024,
  };
}

function printScenarioTable(results: Map<string, Extract<TWorkerResult, { kind: 'result' }>>, tagsByEmail: Map<string, string>, truth: Map<string, TExpected>): void {
  const names = [...results.keys()];
  const rowsByScenario = new Map<string, Map<string, [number, number]>>();
  for (const [name, result] of results) {
    for (const row of result.rows) {
      const scenario = tagsByEmail.get(row.email.toLowerCase()) ?? '?';
      const perName = rowsByScenario.get(scenario) ?? new Map<string, [number, number]>();
      rowsByScenario.set(scenario, perName);
      const cell = perName.get(name) ?? [0, 0];
      cell[1]++;
      if (truth.get(row.email.toLowerCase())?.status === row.status) cell[0]++;
      perName.set(name, cell);
    }
  }
  console.log(`\nstatus accuracy by scenario (% of that scenario's addresses):`);
  console.log(`  ${'scenario'.padEnd(12)} ${'n'.padStart(6)}  ${names.map((n) => n.padStart(22)).join('')}`);
  for (const [scenario, perName] of [...rowsByScenario].sort()) {
    const count = Math.max(...[...perName.values()].map((c) => c[1]));
    const cells = names.map((n) => {
      const c = perName.get(n);
      return (c ? `${((100 * c[0]) / c[1]).toFixed(1)}%` : '-').padStart(22);
    });
    console.log(`  ${scenario.padEnd(12)} ${String(count).padStart(6)}  ${cells.join('')}`);
  }
}

/** When 95 % and 100 % of the list was answered (addresses that waited for a greylist retry apart). */
function printCompletion(name: string, result: Extract<TWorkerResult, { kind: 'result' }>, tagsByEmail: Map<string, string>): void {
  const plain = result.rows.filter((r) => !r.greylisted).map((r) => r.at).sort((a, b) => a - b);
  const waited = result.rows.filter((r) => r.greylisted).map((r) => r.at).sort((a, b) => a - b);
  const total = result.rows.length;
  const at = (share: number) => plain[Math.max(0, Math.ceil(share * plain.length) - 1)] ?? 0;
  console.log(`\n${name}: list answered — 95 % after ${(at(0.95) / 1000).toFixed(1)} s, 100 % after ${(at(1) / 1000).toFixed(1)} s ` +
    `(${plain.length} of ${total} addresses that needed no greylist retry: ${(plain.length / Math.max(0.001, at(1) / 1000)).toFixed(0)} addr/s)` +
    (waited.length > 0 ? `; ${waited.length} waited for greylisting (×${GREYLIST_SPEEDUP} compressed), the last answered after ${((waited.at(-1) ?? 0) / 1000).toFixed(1)} s` : ''));
  const tail = result.rows.filter((r) => !r.greylisted && r.at >= at(0.95));
  const byScenario = new Map<string, number>();
  for (const row of tail) byScenario.set(tagsByEmail.get(row.email.toLowerCase()) ?? '?', (byScenario.get(tagsByEmail.get(row.email.toLowerCase()) ?? '?') ?? 0) + 1);
  console.log(`  the last 5 % by scenario: ${[...byScenario].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v}`).join(', ')}`);
}

async function runBench(): Promise<void> {
  const corpus = corpusFor(SIZE);
  const started = Date.now();
  const tagsByEmail = new Map(corpus.map((e) => [e.email.toLowerCase(), e.tags[0] ?? '?']));
  const finished = new Map<string, Extract<TWorkerResult, { kind: 'result' }>>();
  const summaries: TSummary[] = [];
  let truth = new Map<string, TExpected>();
  const workers = [['engine', 'verilead'], ['peer', 'deep-email-validator']] as const;
  // BENCH_PEER=0 runs the Verilead engine alone (a before/after of the engine needs no peer run)
  for (const [worker, label] of workers.filter(([w]) => w === 'engine' || process.env.BENCH_PEER !== '0')) {
    const world = await startBenchWorld(corpus, REALISTIC);
    truth = world.truth;
    const hosts = new Set(corpus.map((e) => e.email.split('@')[1] ?? '')).size;
    console.log(`${label}: ${world.preset} mail world, DNS ${world.dnsServers.join(',')}, SMTP port ${world.smtpPort}, ${corpus.length} addresses on ${hosts} domains (seed ${SEED}), greylist ${world.greylistDelayMs} ms world time (×${GREYLIST_SPEEDUP} compressed)`);
    let result: TWorkerResult;
    try {
      result = await runVerifierChild(
        {
          verifier: label,
          dnsServers: world.dnsServers,
          smtpPort: world.smtpPort,
          emails: corpus.map((e) => e.email),
          engineOptions: REALISTIC_ENGINE_OPTIONS,
          concurrency: worker === 'engine' ? ENGINE_CONCURRENCY : PEER_CONCURRENCY,
        },
        PHASE_LIMIT_MS,
      );
    } finally {
      await world.stop();
    }
    if (result.kind === 'skipped') {
      console.log(`  ${label}: skipped — ${result.why}`);
      continue;
    }
    finished.set(label, result);
    const summary = summarise(label, result, truth);
    summaries.push(summary);
    console.log(`  ${label}: ${summary.n} results in ${(result.wallMs / 1000).toFixed(1)} s`);
  }
  console.log(`\n${'verifier'.padEnd(22)}${'addr/s'.padStart(9)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'status ok'.padStart(11)}${'reason ok'.padStart(11)}${'unknown'.padStart(9)}${'peak RSS'.padStart(10)}`);
  for (const s of summaries) {
    const reason = s.name === 'verilead' ? `${s.reasonAccuracy.toFixed(1)}%` : 'n/a';
    console.log(`${s.name.padEnd(22)}${s.perSecond.toFixed(1).padStart(9)}${s.p50.toFixed(0).padStart(9)}${s.p99.toFixed(0).padStart(9)}` +
      `${`${s.accuracy.toFixed(1)}%`.padStart(11)}${reason.padStart(11)}${`${s.unknown.toFixed(1)}%`.padStart(9)}${`${s.rssMb.toFixed(0)} MB`.padStart(10)}`);
  }
  if (finished.size > 0) printScenarioTable(finished, tagsByEmail, truth);
  for (const [name, result] of finished) printCompletion(name, result, tagsByEmail);
  console.log(`\n(status ok = status equals the world's truth; reason ok = reason code equals it too. deep-email-validator has no reason codes;`);
  console.log(` its answer is mapped valid->valid, SMTP timeout/4xx/dropped connection->unknown, anything else->invalid. Total ${((Date.now() - started) / 1000).toFixed(0)} s)`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await runBench();
  process.exit(0);
}
