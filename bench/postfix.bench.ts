/**
 * The engine against stock Postfix (the distribution's package) on loopback, its anti-harvesting limits at their
 * defaults (smtpd_soft_error_limit 10, smtpd_error_sleep_time 1s, smtpd_hard_error_limit 20): a list of 2,000
 * addresses at one Postfix domain half of them unknown, then 2,000 real mailboxes. Each list runs on a fresh engine
 * and a fresh Postfix instance (one engine per process, as the server builds it; `verifyMany` at concurrency 500).
 *
 *   npx tsx bench/postfix.bench.ts                 (or `npm run bench postfix`)
 *   BENCH_POSTFIX_SIZE=400 npx tsx bench/postfix.bench.ts
 *
 * Prints addresses/s, verdicts right, the engine's writes to Postfix (command groups: round trips) and CPU time per
 * address, and from Postfix's own log: sessions opened, sessions cut (smtpd's `too many errors`, or lost before QUIT),
 * delayed replies (error replies smtpd held back by smtpd_error_sleep_time once a session passed the soft limit), the
 * most errors one session made and the queue files opened. Skips (exit 0) when Postfix is not installed or we are not
 * root, except under CI=true where that is a failure.
 *
 * How it measures: a list of each kind at full size first, not reported (the engine's code is compiled as it runs:
 * the same mixed list run four times in a row in one process took 1.8, 1.5, 1.3 and 1.3 s, so the list measured first
 * paid for the others); then BENCH_POSTFIX_ROUNDS rounds (3) of both lists, their order alternating, each list on a
 * fresh engine and a fresh Postfix instance; the ratio is of the medians. Then, unless BENCH_POSTFIX_IDLE=0, one round
 * with Postfix's own `in_flow_delay` (1 s): an idle queue, where each queue file past the flow-control tokens Postfix
 * starts with (100) waits a second. BENCH_POSTFIX_RTT_MS=20 puts the host a 20 ms round trip away (the engine's socket
 * delays each direction by half; Postfix and its replies are unchanged).
 */
import net from 'node:net';
import { Duplex } from 'node:stream';
import type { VerifierEngine as TEngine, TVerifyOptions } from '@verilead/verifier';
import { isPostfixAvailable, startPostfixWorld, summarisePostfixLog } from '@verilead/mailworld';

const SIZE = Number(process.env.BENCH_POSTFIX_SIZE ?? 2_000);
// in_flow_delay: Postfix's flow control pauses a new queue file (opened at the first accepted RCPT) up to 1 s when its
// queue manager has handed out no token lately. A live MX moves mail all the time and has tokens to spare; these
// instances receive nothing but our probes (aborted by RSET), so by default they run dry and every transaction waits
// 1 s, whatever the verifier does. BENCH_POSTFIX_IN_FLOW_DELAY=1s measures that idle-queue case.
const IN_FLOW_DELAY = process.env.BENCH_POSTFIX_IN_FLOW_DELAY ?? '0';
const ROUNDS = Math.max(1, Number(process.env.BENCH_POSTFIX_ROUNDS ?? 3));
// a round trip to the host (ms), as on the internet: every byte each way and the connect are held half of it (0: loopback)
const RTT_MS = Number(process.env.BENCH_POSTFIX_RTT_MS ?? 0);
// another engine to compare (e.g. an older copy of packages/verifier/src/index.ts)
const ENGINE_MODULE = process.env.BENCH_ENGINE ?? '@verilead/verifier';
const { VerifierEngine } = (await import(ENGINE_MODULE)) as { VerifierEngine: new (o: TVerifyOptions) => TEngine };
const DOMAIN = 'pfbench.test';

type TFigures = {
  list: string;
  addrPerSec: number;
  writes: number;
  cpuUsPerAddress: number;
  right: number;
  total: number;
  sessions: number;
  cut: number;
  tooMany: number;
  delayed: number;
  overSoft: number;
  maxErrors: number;
  queueFiles: number;
  ms: number;
};

async function runList(list: string, unknownShare: number, opts: { size?: number; inFlowDelay?: string | null } = {}): Promise<TFigures> {
  const size = opts.size ?? SIZE;
  const inFlowDelay = opts.inFlowDelay === undefined ? IN_FLOW_DELAY : opts.inFlowDelay;
  const real: string[] = [];
  const emails: Array<{ email: string; valid: boolean }> = [];
  for (let i = 0; i < size; i++) {
    const unknown = unknownShare > 0 && i % Math.round(1 / unknownShare) === 1;
    const local = `person${i}`;
    if (!unknown) real.push(local);
    emails.push({ email: `${unknown ? 'ghost' : ''}${local}@${DOMAIN}`, valid: !unknown });
  }
  // null: Postfix's own in_flow_delay (not set in main.cf)
  const main: Record<string, string> = inFlowDelay === null ? {} : { in_flow_delay: inFlowDelay };
  const world = await startPostfixWorld([{ name: 'bench', domain: DOMAIN, mailboxes: real, main }]);
  // the engine's writes to Postfix (each a command group: one round trip), a figure the machine's load does not change
  let writes = 0;
  const dial = ({ host, port }: { host: string; port: number }): Duplex => {
    const socket = net.connect({ host, port, noDelay: true });
    if (RTT_MS > 0) return farAway(socket, RTT_MS / 2, () => writes++);
    const write = socket.write.bind(socket) as (...args: unknown[]) => boolean;
    (socket as { write: unknown }).write = (...args: unknown[]) => {
      writes++;
      return write(...args);
    };
    return socket;
  };
  const engine = new VerifierEngine({ dnsServers: world.dnsServers, smtpPort: world.smtpPort, heloName: 'bench.verilead.test', mailFrom: 'bounce@verilead.test', dial });
  const expected = new Map(emails.map((e) => [e.email, e.valid ? 'valid' : 'invalid']));
  const started = Date.now();
  const cpuBefore = process.cpuUsage();
  let right = 0;
  try {
    for await (const r of engine.verifyMany(emails.map((e) => e.email), { concurrency: 500 })) {
      if (r.status === expected.get(r.email)) right++;
    }
    const ms = Date.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    await engine.close();
    const host = world.hosts.get('bench');
    // the log is written by postlogd a moment after each line: wait for the last disconnects
    await new Promise((r) => setTimeout(r, 500));
    const s = summarisePostfixLog((await host?.readLog()) ?? '');
    return {
      list,
      addrPerSec: size / (ms / 1000),
      writes,
      cpuUsPerAddress: (cpu.user + cpu.system) / size,
      right,
      total: size,
      sessions: s.sessions,
      cut: s.sessions - s.quitSessions,
      tooMany: s.tooManyErrors,
      delayed: s.delayedReplies,
      overSoft: s.sessionsOverSoftLimit,
      maxErrors: s.maxErrorsInSession,
      queueFiles: s.queueFiles,
      ms,
    };
  } finally {
    await world.stop();
  }
}

/**
 * The socket as if the host were far away: the connect, every write and every byte read arrive `oneWayMs` later (in
 * order: one timer queue each way). Only the path is slowed; the replies and their timing are Postfix's own.
 */
function farAway(socket: net.Socket, oneWayMs: number, onWrite: () => void): Duplex {
  const later = (f: () => void) => setTimeout(f, oneWayMs);
  const far = new Duplex({
    write(chunk: Buffer, _encoding, callback) {
      onWrite();
      later(() => socket.write(chunk));
      callback();
    },
    read() {},
    final(callback) {
      later(() => {
        socket.end();
        callback();
      });
    },
    destroy(error, callback) {
      later(() => socket.destroy());
      callback(error);
    },
  });
  // SmtpSession.open waits for 'connect' while `connecting` is true, as on a net.Socket
  const state = far as Duplex & { connecting: boolean };
  state.connecting = true;
  socket.on('connect', () =>
    later(() => {
      state.connecting = false;
      far.emit('connect');
    }),
  );
  socket.on('data', (chunk: Buffer) => later(() => far.push(chunk)));
  socket.on('end', () => later(() => far.push(null)));
  socket.on('error', (error) => later(() => far.destroy(error)));
  return far;
}

const HEADER = [
  '| round | list | addr/s | verdicts right | client writes | engine CPU per address | sessions opened | sessions cut (no QUIT) | of which `too many errors` | delayed replies | sessions over soft limit | most errors in a session | queue files | wall |',
  '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
];
const row = (round: string, r: TFigures): string =>
  `| ${round} | ${r.list} | ${r.addrPerSec.toFixed(1)} | ${r.right}/${r.total} | ${r.writes} | ${r.cpuUsPerAddress.toFixed(0)} µs | ${r.sessions} | ${r.cut} | ${r.tooMany} | ${r.delayed} | ${r.overSoft} | ${r.maxErrors} | ${r.queueFiles} | ${(r.ms / 1000).toFixed(1)} s |`;
const median = (xs: number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

async function main(): Promise<void> {
  if (!isPostfixAvailable()) {
    const why = 'Postfix is not installed (apt-get install postfix) or this is not root';
    if (process.env.CI === 'true') throw new Error(why);
    console.log(`skipped: ${why}`);
    return;
  }
  const MIXED = `${SIZE} half unknown`;
  const REAL = `${SIZE} all real`;
  console.log(`stock Postfix, ${SIZE} addresses a list, in_flow_delay ${IN_FLOW_DELAY}, round trip ${RTT_MS ? `${RTT_MS} ms` : 'loopback'}, ${ROUNDS} rounds, engine ${ENGINE_MODULE}`);
  // a list of each kind at full size first, not reported: the engine's lists and models load on first use (the
  // gibberish model alone takes a second or more) and its code is compiled as it runs
  await runList('warm-up', 0.5);
  await runList('warm-up', 0);
  const runs: Array<{ round: number; r: TFigures }> = [];
  for (let round = 1; round <= ROUNDS; round++) {
    // the order alternates, so that neither list is always the one run after the other
    const order: Array<[string, number]> = round % 2 ? [[MIXED, 0.5], [REAL, 0]] : [[REAL, 0], [MIXED, 0.5]];
    for (const [list, share] of order) runs.push({ round, r: await runList(list, share) });
  }
  console.log(HEADER.join('\n'));
  for (const { round, r } of runs) console.log(row(String(round), r));
  const rate = (list: string) => median(runs.filter((x) => x.r.list === list).map((x) => x.r.addrPerSec));
  const all = runs.map((x) => x.r);
  const cut = all.reduce((n, r) => n + r.cut, 0);
  const delayed = all.reduce((n, r) => n + r.delayed, 0);
  const wrong = all.reduce((n, r) => n + r.total - r.right, 0);
  console.log(
    `mixed / all-real rate (medians of ${ROUNDS}: ${rate(MIXED).toFixed(1)} and ${rate(REAL).toFixed(1)} addr/s): ${(rate(MIXED) / rate(REAL)).toFixed(2)}× (target ≥ 0.8×); ${cut} cut, ${delayed} delayed, ${wrong} verdicts wrong`,
  );
  if (process.env.BENCH_POSTFIX_IDLE === '0') return;
  // an idle queue: Postfix's own in_flow_delay (1 s). Each queue file (a transaction's first accepted recipient)
  // takes a flow-control token; an instance starts with 100 and, receiving no mail, gets more only when its queue
  // manager wakes (every 300 s): each queue file past them waits a second. A session of a half-unknown list holds at
  // most 9 refusals, so that list needs at least one queue file per 9 unknown addresses (112 for 2,000).
  const idle = [await runList(MIXED, 0.5, { inFlowDelay: null }), await runList(REAL, 0, { inFlowDelay: null })];
  console.log(`\nidle queue (Postfix's default in_flow_delay, 1 s; a fresh instance starts with 100 flow tokens):`);
  console.log(HEADER.join('\n'));
  for (const r of idle) console.log(row('idle', r));
}

await main();
