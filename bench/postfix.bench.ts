/**
 * The engine against stock Postfix (the distribution's package) on loopback, its anti-harvesting limits at their
 * defaults (smtpd_soft_error_limit 10, smtpd_error_sleep_time 1s, smtpd_hard_error_limit 20): a list of 2,000
 * addresses at one Postfix domain half of them unknown, then 2,000 real mailboxes. Each list runs on a fresh engine
 * and a fresh Postfix instance (one engine per process, as the server builds it; `verifyMany` at concurrency 500).
 *
 *   npx tsx bench/postfix.bench.ts                 (or `npm run bench postfix`)
 *   BENCH_POSTFIX_SIZE=400 npx tsx bench/postfix.bench.ts
 *
 * Prints addresses/s, verdicts right, the engine's writes to Postfix (command groups: round trips), sessions opened, sessions cut (smtpd's `too many errors`, or lost before QUIT),
 * delayed replies (error replies smtpd held back by smtpd_error_sleep_time once a session passed the soft limit) and
 * the most errors one session made, all read from Postfix's own log. Skips (exit 0) when Postfix is not installed
 * or we are not root, except under CI=true where that is a failure.
 */
import net from 'node:net';
import type { VerifierEngine as TEngine, TVerifyOptions } from '@verilead/verifier';
import { isPostfixAvailable, startPostfixWorld, summarisePostfixLog } from '@verilead/mailworld';

const SIZE = Number(process.env.BENCH_POSTFIX_SIZE ?? 2_000);
// in_flow_delay: Postfix's flow control pauses a new queue file (opened at the first accepted RCPT) up to 1 s when its
// queue manager has handed out no token lately. A live MX moves mail all the time and has tokens to spare; these
// instances receive nothing but our probes (aborted by RSET), so by default they run dry and every transaction waits
// 1 s, whatever the verifier does. BENCH_POSTFIX_IN_FLOW_DELAY=1s measures that idle-queue case.
const IN_FLOW_DELAY = process.env.BENCH_POSTFIX_IN_FLOW_DELAY ?? '0';
// another engine to compare (e.g. an older copy of packages/verifier/src/index.ts)
const ENGINE_MODULE = process.env.BENCH_ENGINE ?? '@verilead/verifier';
const { VerifierEngine } = (await import(ENGINE_MODULE)) as { VerifierEngine: new (o: TVerifyOptions) => TEngine };
const DOMAIN = 'pfbench.test';

type TFigures = { list: string; addrPerSec: number; writes: number; right: number; total: number; sessions: number; cut: number; tooMany: number; delayed: number; overSoft: number; maxErrors: number; ms: number };

async function runList(list: string, unknownShare: number, size = SIZE): Promise<TFigures> {
  const real: string[] = [];
  const emails: Array<{ email: string; valid: boolean }> = [];
  for (let i = 0; i < size; i++) {
    const unknown = unknownShare > 0 && i % Math.round(1 / unknownShare) === 1;
    const local = `person${i}`;
    if (!unknown) real.push(local);
    emails.push({ email: `${unknown ? 'ghost' : ''}${local}@${DOMAIN}`, valid: !unknown });
  }
  const world = await startPostfixWorld([{ name: 'bench', domain: DOMAIN, mailboxes: real, main: { in_flow_delay: IN_FLOW_DELAY } }]);
  // the engine's writes to Postfix (each a command group: one round trip), a figure the machine's load does not change
  let writes = 0;
  const dial = ({ host, port }: { host: string; port: number }) => {
    const socket = net.connect({ host, port, noDelay: true });
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
  let right = 0;
  try {
    for await (const r of engine.verifyMany(emails.map((e) => e.email), { concurrency: 500 })) {
      if (r.status === expected.get(r.email)) right++;
    }
    const ms = Date.now() - started;
    await engine.close();
    const host = world.hosts.get('bench');
    // the log is written by postlogd a moment after each line: wait for the last disconnects
    await new Promise((r) => setTimeout(r, 500));
    const s = summarisePostfixLog((await host?.readLog()) ?? '');
    return {
      list,
      addrPerSec: size / (ms / 1000),
      writes,
      right,
      total: size,
      sessions: s.sessions,
      cut: s.sessions - s.quitSessions,
      tooMany: s.tooManyErrors,
      delayed: s.delayedReplies,
      overSoft: s.sessionsOverSoftLimit,
      maxErrors: s.maxErrorsInSession,
      ms,
    };
  } finally {
    await world.stop();
  }
}

async function main(): Promise<void> {
  if (!isPostfixAvailable()) {
    const why = 'Postfix is not installed (apt-get install postfix) or this is not root';
    if (process.env.CI === 'true') throw new Error(why);
    console.log(`skipped: ${why}`);
    return;
  }
  console.log(`stock Postfix ${SIZE} addresses, in_flow_delay ${IN_FLOW_DELAY}, engine ${ENGINE_MODULE}`);
  // a warm-up list first (not reported): the engine's lists and models load on first use (the gibberish model alone
  // takes a second or more) and its code is compiled as it runs; without it the first list measured pays for both
  await runList('warm-up', 0.5, 200);
  const rows = [await runList(`${SIZE} half unknown`, 0.5), await runList(`${SIZE} all real`, 0)];
  console.log('| list | addr/s | verdicts right | client writes | sessions opened | sessions cut (no QUIT) | of which `too many errors` | delayed replies | sessions over soft limit | most errors in a session | wall |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    console.log(`| ${r.list} | ${r.addrPerSec.toFixed(1)} | ${r.right}/${r.total} | ${r.writes} | ${r.sessions} | ${r.cut} | ${r.tooMany} | ${r.delayed} | ${r.overSoft} | ${r.maxErrors} | ${(r.ms / 1000).toFixed(1)} s |`);
  }
  const [mixed, allReal] = rows as [TFigures, TFigures];
  console.log(`mixed / all-real rate: ${(mixed.addrPerSec / allReal.addrPerSec).toFixed(2)}× (target ≥ 0.8×, 0 cut, 0 delayed)`);
}

await main();
