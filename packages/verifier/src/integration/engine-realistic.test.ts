import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRealisticCorpus, startMailWorld, type TCorpusEntry, type TMailWorld } from '@verilead/mailworld';
import { VerifierEngine } from '../engine/engine';
import { startLagAwareTimeout } from '../lag-aware-timer';
import { createSkippingClock } from '../test-support/skipping-clock';
import type { TVerificationResult, TVerifyOptions } from '../types';

// The realistic world (greeting delays, latency, postscreen, a busy host, Microsoft 365 both ways, a 700 ms host,
// 5-minute greylisting, UTF-8 without SMTPUTF8) on a fake clock: the engine's waits go through the injected sleep,
// which moves the shared clock on instead of waiting the long ones (the greylist schedule), so five minutes of
// greylisting cost nothing (test-support/skipping-clock.ts). Size: CORPUS_SIZE (default 10,000: the stream takes
// about 30 s on the 2-core machine, the same addresses one call each a few minutes).
const SIZE = Number(process.env.CORPUS_SIZE ?? 10_000);
/** One-at-a-time calls run side by side (each on its own engine). */
const LANES = Number(process.env.CORPUS_LANES ?? 64);

let world: TMailWorld;
let corpus: TCorpusEntry[];
const { clock, sleep } = createSkippingClock();
let options: TVerifyOptions;

beforeAll(async () => {
  corpus = makeRealisticCorpus(SIZE, 13);
  world = await startMailWorld({
    preset: 'realistic',
    corpus,
    commandLatencyMs: [5, 20],
    greylistDelayMs: 30_000,
    postscreenPauseMs: 1_000,
    // Far beyond the reply timeout, so the tarpit is told apart from a host that is only slow: beyond 4 × 6 s too,
    // the most wall time a reply wait lasts when a busy machine starves our event loop (lag-aware-timer.ts).
    tarpitDelayMs: 30_000,
    now: clock.now,
  });
  options = {
    dnsServers: world.dnsServers,
    smtpPort: world.smtpPort,
    heloName: 'verifier.verilead.test',
    mailFrom: 'probe@verifier.verilead.test',
    mode: 'highest_accuracy', // greylist retries at 1, 4 and 11 minutes (fake clock)
    // every chain's greylist wait moves the one shared fake clock on, so a verification's virtual age grows with the
    // others' waits: no total limit here (real time never jumps; the 15-minute default holds there)
    // Replies get 6 s (the world's slowest honest answer is a 1 s postscreen pause plus latency): a test machine busy
    // with other suites must not turn its own lag into smtp_timeout verdicts.
    timeouts: { dnsMs: 4_000, connectMs: 4_000, replyMs: 6_000, totalMs: 86_400_000 },
    clock,
    sleep,
  };
});
afterAll(async () => {
  await world?.stop();
});

const verdict = (r: TVerificationResult) => `${r.status}/${r.reason.code}`;
const truthOf = (email: string) => {
  const t = world.truth.get(email.toLowerCase());
  return t ? `${t.status}/${t.reason}` : '?';
};

describe('Microsoft 365: 5.4.1 to RCPT after an accepted MAIL FROM is a missing mailbox; a blocked sender is unknown', () => {
  it('a cold instant call on the edge-blocking tenant answers invalid at once, with the evidence; the tenant blocking the sender answers unknown', async () => {
    const engine = new VerifierEngine(options);
    try {
      // the engine's very first call to this tenant: no earlier acceptance seen, no control recipient asked
      const missing = await engine.verify('someone.else@fabrikam.test');
      expect(verdict(missing)).toBe('invalid/mailbox_not_found');
      expect(missing.reason.text).toMatch(/550 5\.4\.1 Recipient address rejected: Access denied.*not in the organisation's directory/);
      expect(missing.transcript.some((l) => /^550 5\.4\.1 /.test(l.line))).toBe(true);
      expect(missing.transcript.some((l) => l.line === 'RCPT TO:<postmaster@fabrikam.test>')).toBe(false);
      expect(verdict(await engine.verify('jane.doe@fabrikam.test'))).toBe('valid/valid_mailbox');
      const blocked = await engine.verify('ceo@northwind.test');
      expect(verdict(blocked)).toBe('unknown/verifier_blocked');
      expect(blocked.reason.text).toMatch(/5\.7\.606 Access denied, banned sending IP/);
    } finally {
      await engine.close();
    }
  });
});

describe('one shared engine under load', () => {
  it(
    'streams the 10,000-address realistic corpus at concurrency 500 through one engine with the same status and reason for every address as ' +
      'each address verified by its own verify call on a fresh engine, and never gives the busy host a 4th connection',
    async () => {
      const engine = new VerifierEngine(options);
      const streamed = new Map<string, string>();
      try {
        for await (const result of engine.verifyMany(corpus.map((e) => e.email), { concurrency: 500 })) streamed.set(result.email, verdict(result));
      } finally {
        await engine.close();
      }
      expect(streamed.size).toBe(corpus.length);
      const wrong = corpus.filter((e) => streamed.get(e.email) !== truthOf(e.email)).map((e) => `${e.email}: ${streamed.get(e.email)} (truth ${truthOf(e.email)})`);
      expect(wrong).toEqual([]);
      const busy = world.hostStats('mx.busy.test');
      expect(busy.connections).toBeGreaterThan(0);
      expect(busy.refusedTooMany).toBe(0);
      expect(busy.peakConcurrentPerClient).toBeLessThanOrEqual(3);

      // One at a time: every address of the corpus, each by its own `verify` call on an engine of its own (no shared
      // stream, sessions, caches or host limits), closed after the call. LANES such calls run side by side so the
      // test ends in minutes; busy.test's addresses go at most 3 at a time and crowded.test's 2, since engines that
      // share no host limits would otherwise open the connection those hosts refuse (what the shared limits are for).
      const alone = new Map<string, string>();
      const queue = [...corpus];
      const hostLimits: Record<string, number> = { 'busy.test': 3, 'crowded.test': 2 };
      const inFlight = new Map<string, number>();
      const limitedDomain = (email: string): string | undefined => Object.keys(hostLimits).find((d) => email.endsWith(`@${d}`));
      const takeNext = (): TCorpusEntry | undefined => {
        const index = queue.findIndex((e) => {
          const domain = limitedDomain(e.email);
          return !domain || (inFlight.get(domain) ?? 0) < (hostLimits[domain] ?? 0);
        });
        return index < 0 ? undefined : queue.splice(index, 1)[0];
      };
      await Promise.all(
        Array.from({ length: LANES }, async () => {
          while (queue.length > 0) {
            const entry = takeNext();
            if (!entry) {
              await new Promise((resolve) => setTimeout(resolve, 20));
              continue;
            }
            const domain = limitedDomain(entry.email);
            if (domain) inFlight.set(domain, (inFlight.get(domain) ?? 0) + 1);
            const single = new VerifierEngine(options);
            try {
              alone.set(entry.email, verdict(await single.verify(entry.email)));
            } finally {
              await single.close();
              if (domain) inFlight.set(domain, (inFlight.get(domain) ?? 1) - 1);
            }
          }
        }),
      );
      expect(alone.size).toBe(corpus.length);
      const differing = corpus.filter((e) => alone.get(e.email) !== streamed.get(e.email)).map((e) => `${e.email}: alone ${alone.get(e.email)}, streamed ${streamed.get(e.email)}`);
      expect(differing).toEqual([]);
    },
    900_000,
  );
});

describe('a host that takes fewer sessions than the engine allows', () => {
  it('an engine allowed 6 sessions, on a host that answers 421 to a 3rd connection: once it has read that first 421 it never opens a 3rd again, and every verdict is right', async () => {
    // Batches of 2 recipients make many transactions: the engine wants more sessions than the host takes, and one that
    // grew its limit back on success would go over it again.
    const engine = new VerifierEngine({ ...options, perHostConcurrency: 6, maxRecipientsPerTransaction: 2 });
    const known = ['cleo@crowded.test', 'cleo.crowd@crowded.test', 'postmaster@crowded.test'];
    const emails = [...known, ...Array.from({ length: 77 }, (_, i) => `nobody.${i}@crowded.test`)];
    const expected = (email: string) => (known.includes(email) ? 'valid/valid_mailbox' : 'invalid/mailbox_not_found');
    const before = world.hostStats('mx.crowded.test');
    const results: TVerificationResult[] = [];
    try {
      for await (const result of engine.verifyMany(emails, { concurrency: 80 })) results.push(result);
    } finally {
      await engine.close();
    }
    expect(results).toHaveLength(emails.length);
    // no unknown caused by the 421: each address gets its mailbox's answer
    expect(results.filter((r) => verdict(r) !== expected(r.email)).map((r) => `${r.email}: ${verdict(r)} (${r.reason.text})`)).toEqual([]);
    const after = world.hostStats('mx.crowded.test');
    // If the engine met the host's limit (a session opened ahead of time may meet it instead of a call), no connection
    // it opened once it had read that first 421 was turned away. Connections it had already opened then may be: the host
    // counts the refused one until our close reaches it (CI once saw two refusals on a loaded machine).
    const refusals = after.refusals.slice(before.refusals.length);
    const firstRead = Math.min(...refusals.map((r) => r.closedAfter ?? Number.POSITIVE_INFINITY));
    expect(refusals.filter((r) => r.connection > firstRead)).toEqual([]);
    expect(after.peakConcurrentPerClient).toBe(2);
  });
});

describe('cancellation', () => {
  it('an aborted stream ends within one reply timeout, even with addresses waiting minutes for a greylist retry', async () => {
    // Real time here: without cancellation the greylisted addresses would wait 10 minutes, and the host that never
    // greets holds its address in a reply wait (the socket deadline, REPLY_MS) that began before the abort.
    const REPLY_MS = 5_000;
    const engine = new VerifierEngine({ ...options, clock: undefined, sleep: undefined, greylistSchedule: [600_000], timeouts: { dnsMs: 1_000, connectMs: 1_000, replyMs: REPLY_MS } });
    const controller = new AbortController();
    const emails = [...Array.from({ length: 10 }, (_, i) => `waiting${i}@greylist.test`), 'erin@timeout.test', 'alice@strict.test'];
    const got: string[] = [];
    // The stream must end before one reply timeout plus a margin (1 s) has passed since the abort, counted as the
    // engine counts its reply timeouts (lag-aware-timer.ts: the time our event loop ran freely, so a loaded machine
    // stretches both alike). The silent host's connection began 1–2 s before the abort, so its one reply timeout ends
    // about 3.5 s after it; waiting out a second one (2 × 5 s from that connection) or the greylist wait would overrun.
    let overran = false;
    let stopWatch: (() => void) | null = null;
    let abortedAt = 0;
    const abort = (): void => {
      controller.abort();
      abortedAt = performance.now();
      stopWatch = startLagAwareTimeout(REPLY_MS + 1_000, () => (overran = true));
    };
    try {
      for await (const result of engine.verifyMany(emails, { concurrency: 20, signal: controller.signal })) {
        got.push(result.email);
        if (result.email === 'alice@strict.test') setTimeout(abort, 200);
      }
      expect(controller.signal.aborted).toBe(true);
      expect(overran, `the stream ended ${Math.round(performance.now() - abortedAt)} ms (wall time) after the abort`).toBe(false);
    } finally {
      (stopWatch as (() => void) | null)?.();
      await engine.close();
    }
    expect(got).toEqual(['alice@strict.test']);
  }, 60_000);
});
