/**
 * The published benchmark: writes docs/benchmark.md from what it measures (never by hand).
 *
 *   npm run bench -- publish          (or `npx tsx bench/publish.bench.ts`; `npm run bench` runs it with the rest)
 *
 * Verilead and the open-source verifiers installable from npm (bench/verify-worker.ts: deep-email-validator,
 * email-deep-validator, email-existence), each in its own child process, on the same labelled lists:
 * 1. the simulated mail world's realistic preset (`makeRealisticCorpus(BENCH_PUBLISH_SIZE, 42)`, default 4,000
 *    addresses; the world as bench/verifier.bench.ts starts it, greylisting compressed ×20);
 * 2. stock Postfix (three instances: plain, catch-all, postscreen) and stock Exim on loopback
 *    (packages/mailworld/src/real), BENCH_PUBLISH_REAL_SIZE addresses per host (default 300, half unknown);
 * 3. the catch-all score (bench/catch-all-score.bench.ts, seed BENCH_PUBLISH_CATCH_ALL_SEED, default 7).
 * Every verifier gets a fresh world. BENCH_PUBLISH_OUT changes the output file. Loopback only: the children's
 * resolver is confined to the world's DNS. The real-server part is left out (and the file says so) when Postfix or
 * Exim is not installed or this is not root.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isEximAvailable, isPostfixAvailable, makeRealisticCorpus, startEximWorld, startPostfixWorld, type TExpectedStatus } from '@verilead/mailworld';
import { measureCatchAllScore, type TCatchAllFigures } from './catch-all-score.bench';
import { renderBenchmarkDoc, type TMachine, type TRunFigures, type TWorldSection } from './publish-doc';
import { REALISTIC_ENGINE_OPTIONS, startBenchWorld } from './verifier.bench';
import { PEERS, runVerifierChild, type TVerifierName, type TWorkerResult } from './verify-worker';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.resolve(ROOT, process.env.BENCH_PUBLISH_OUT ?? 'docs/benchmark.md');
const REALISTIC_SIZE = Number(process.env.BENCH_PUBLISH_SIZE ?? 4_000);
const REAL_SIZE = Number(process.env.BENCH_PUBLISH_REAL_SIZE ?? 300);
const CATCH_ALL_SEED = Number(process.env.BENCH_PUBLISH_CATCH_ALL_SEED ?? 7);
const VERIFIERS: TVerifierName[] = ['verilead', ...PEERS];
const CHILD_LIMIT_MS = 5 * 60_000;
const concurrencyOf = (v: TVerifierName) => (v === 'verilead' ? 500 : 50);

type TTruth = ReadonlyMap<string, TExpectedStatus>;

function git(...args: string[]): string {
  try {
    return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
  } catch {
    return '?';
  }
}

function machine(): Omit<TMachine, 'loadEnd' | 'finishedAt'> {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model ?? '?',
    cores: cpus.length,
    memoryGb: os.totalmem() / 1024 ** 3,
    kernel: `${os.type()} ${os.release()}`,
    node: process.version,
    startedAt: new Date().toISOString(),
    commit: git('rev-parse', '--short', 'HEAD'),
    dirty: git('status', '--porcelain', '--untracked-files=no') !== '',
    loadStart: os.loadavg(),
  };
}

function peerVersion(name: string): string {
  try {
    return (JSON.parse(readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return '?';
  }
}

/** One verifier's answers scored against the truth: per class, false invalid, unknowns, addresses/s. */
function score(verifier: TVerifierName, result: TWorkerResult, truth: TTruth): TRunFigures {
  if (result.kind === 'skipped') return { verifier, skipped: result.why };
  const perClass: Partial<Record<string, { n: number; right: number }>> = {};
  let right = 0;
  let falseInvalid = 0;
  let realMailboxes = 0;
  let unknown = 0;
  const misses = new Map<string, number>();
  for (const row of result.rows) {
    const expected = truth.get(row.email.toLowerCase());
    if (!expected) continue;
    const cell = (perClass[expected] ??= { n: 0, right: 0 });
    cell.n++;
    if (row.status === expected) {
      cell.right++;
      right++;
    } else {
      const miss = `${expected} → ${row.status} at ${row.email.slice(row.email.lastIndexOf('@') + 1)} (${row.reason.replace(/\d+(\.\d+)*/g, '#').replace(/\s+/g, ' ').slice(0, 60)})`;
      misses.set(miss, (misses.get(miss) ?? 0) + 1);
    }
    if (expected === 'valid') {
      realMailboxes++;
      if (row.status === 'invalid') falseInvalid++;
    }
    if (row.status === 'unknown') unknown++;
  }
  const n = result.rows.length;
  const topMisses = [...misses].sort((x, y) => y[1] - x[1]).slice(0, 4).map(([miss, count]) => `${count}× ${miss}`);
  const times = result.rows.map((r) => r.at).sort((a, b) => a - b);
  const p95AnsweredS = (times[Math.max(0, Math.ceil(0.95 * times.length) - 1)] ?? 0) / 1000;
  return { verifier, n, right, perClass, topMisses, p95AnsweredS, falseInvalid, realMailboxes, unknown, perSecond: n / (result.wallMs / 1000), rssMb: result.maxRssBytes / 1024 ** 2 };
}

async function realisticSection(): Promise<TWorldSection> {
  const corpus = makeRealisticCorpus(REALISTIC_SIZE, 42);
  const truth = new Map(corpus.map((e) => [e.email.toLowerCase(), e.expected.status]));
  const runs: TRunFigures[] = [];
  for (const verifier of VERIFIERS) {
    const world = await startBenchWorld(corpus);
    try {
      console.log(`realistic world: ${verifier} on ${corpus.length} addresses…`);
      const job = { verifier, dnsServers: world.dnsServers, smtpPort: world.smtpPort, emails: corpus.map((e) => e.email), engineOptions: REALISTIC_ENGINE_OPTIONS, concurrency: concurrencyOf(verifier) };
      runs.push(score(verifier, await runVerifierChild(job, CHILD_LIMIT_MS), truth));
    } finally {
      await world.stop();
    }
  }
  return { title: 'Simulated mail world, realistic preset', size: corpus.length, runs };
}

/** A list at `domain`: `size` addresses, every other one a mailbox that does not exist (unless all are real). */
function halfUnknown(domain: string, size: number, status: TExpectedStatus = 'valid'): { mailboxes: string[]; emails: [string, TExpectedStatus][] } {
  const mailboxes: string[] = [];
  const emails: [string, TExpectedStatus][] = [];
  for (let i = 0; i < size; i++) {
    if (status === 'catch_all') emails.push([`anyone${i}@${domain}`, 'catch_all']);
    else if (i % 2 === 1) emails.push([`nobody${i}@${domain}`, 'invalid']);
    else {
      mailboxes.push(`person${i}`);
      emails.push([`person${i}@${domain}`, 'valid']);
    }
  }
  return { mailboxes, emails };
}

async function realSections(): Promise<TWorldSection[] | string> {
  if (!isPostfixAvailable() || !isEximAvailable()) return 'left out: stock Postfix or Exim is not installed here, or this is not root';
  const plain = halfUnknown('pf-plain.test', REAL_SIZE);
  const screen = halfUnknown('pf-screen.test', REAL_SIZE);
  const catchAll = halfUnknown('pf-catchall.test', REAL_SIZE, 'catch_all');
  const exim = halfUnknown('ex-plain.test', REAL_SIZE);
  // in_flow_delay 0: a live MX with mail flowing (bench/README.md, postfix.bench.ts); the other limits at Postfix's defaults
  const main = { in_flow_delay: '0' };
  const postfixSpecs = [
    { name: 'plain', domain: 'pf-plain.test', mailboxes: plain.mailboxes, main },
    { name: 'screen', domain: 'pf-screen.test', mailboxes: screen.mailboxes, postscreen: true, main },
    { name: 'catchall', domain: 'pf-catchall.test', catchAll: true, main },
  ];
  const worlds = [
    { name: 'Postfix', title: 'Stock Postfix (plain, postscreen, catch-all)', emails: [...plain.emails, ...screen.emails, ...catchAll.emails], start: () => startPostfixWorld(postfixSpecs) },
    { name: 'Exim', title: 'Stock Exim', emails: exim.emails, start: () => startEximWorld([{ name: 'plain', domain: 'ex-plain.test', mailboxes: exim.mailboxes }]) },
  ];
  const sections: TWorldSection[] = [];
  for (const w of worlds) {
    const truth = new Map(w.emails);
    const runs: TRunFigures[] = [];
    for (const verifier of VERIFIERS) {
      // a fresh server for each verifier (postscreen's cache and anvil's counts start empty)
      const world = await w.start();
      try {
        console.log(`${w.name}: ${verifier} on ${w.emails.length} addresses…`);
        const job = { verifier, dnsServers: world.dnsServers, smtpPort: world.smtpPort, emails: w.emails.map(([e]) => e), concurrency: concurrencyOf(verifier) };
        runs.push(score(verifier, await runVerifierChild(job, CHILD_LIMIT_MS), truth));
      } finally {
        await world.stop();
      }
    }
    sections.push({ title: w.title, size: truth.size, runs });
  }
  return sections;
}

async function main(): Promise<void> {
  const started = machine();
  console.log(`publishing ${path.relative(ROOT, OUT)}: commit ${started.commit}${started.dirty ? ' (uncommitted changes)' : ''}, load ${started.loadStart.map((l) => l.toFixed(2)).join(' ')}`);
  const realistic = await realisticSection();
  const real = await realSections();
  console.log(`catch-all score, seed ${CATCH_ALL_SEED}…`);
  const catchAll: TCatchAllFigures = await measureCatchAllScore(CATCH_ALL_SEED, console.log);
  const doc = renderBenchmarkDoc({
    machine: { ...started, loadEnd: os.loadavg(), finishedAt: new Date().toISOString() },
    sizes: { realistic: REALISTIC_SIZE, realPerHost: REAL_SIZE, catchAllSeed: CATCH_ALL_SEED },
    realistic,
    real,
    catchAll,
    peerVersions: Object.fromEntries(PEERS.map((name) => [name, peerVersion(name)])),
  });
  writeFileSync(OUT, doc);
  console.log(doc);
  console.log(`wrote ${path.relative(ROOT, OUT)}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await main();
  process.exit(0);
}
