import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCorpus, makeRealisticCorpus, startMailWorld, type TCorpusEntry, type TMailWorld } from '@verilead/mailworld';
import { verifyMany } from '../verify';
import { createSkippingClock } from '../test-support/skipping-clock';
import type { TVerifyOptions } from '../types';

// The engine's accuracy on a corpus, in the REALISTIC mail world by default (greeting delays of 100–500 ms, per-reply
// latency, postscreen, a host that refuses a 4th connection, Microsoft 365 both ways, a 700 ms host, 5-minute
// greylisting, UTF-8 without SMTPUTF8); CORPUS_WORLD=fast for the old instant world and makeCorpus. The greylist
// waits go through the injected sleep, which moves a fake clock on (shared with the world's greylisting) instead of
// waiting (test-support/skipping-clock.ts), so the minutes of greylisting cost nothing. Size: CORPUS_SIZE (default
// 3,000: well under a minute on the 2-core machine; engine-realistic.test.ts streams 10,000 through one engine).
const SIZE = Number(process.env.CORPUS_SIZE ?? 3_000);
const REALISTIC = (process.env.CORPUS_WORLD ?? 'realistic') !== 'fast';
const SEED = 42;

let world: TMailWorld;
let corpus: TCorpusEntry[];
const { clock, sleep } = createSkippingClock();

beforeAll(async () => {
  corpus = REALISTIC ? makeRealisticCorpus(SIZE, SEED) : makeCorpus(SIZE, SEED);
  world = REALISTIC
    ? await startMailWorld({
        preset: 'realistic',
        corpus,
        commandLatencyMs: [5, 20],
        greylistDelayMs: 30_000,
        postscreenPauseMs: 1_000,
        // far beyond 4 × the reply timeout (the most a starved event loop stretches a reply wait): the tarpit is
        // told apart from a host that is only slow
        tarpitDelayMs: 30_000,
        now: clock.now,
      })
    : await startMailWorld({ corpus, greylistDelayMs: 300, tarpitDelayMs: 5_000 }); // tarpit beyond 4 × the reply timeout
});
afterAll(async () => {
  await world?.stop();
});

function engineOptions(): TVerifyOptions {
  const common = { dnsServers: world.dnsServers, smtpPort: world.smtpPort, heloName: 'verifier.verilead.test', mailFrom: 'probe@verifier.verilead.test' };
  if (!REALISTIC) {
    return {
      ...common,
      mode: 'fastest_turnaround',
      greylistSchedule: [world.greylistDelayMs + 100],
      timeouts: { dnsMs: 1_000, connectMs: 1_000, replyMs: 1_000, totalMs: 15_000 },
      concurrency: 100,
      perHostConcurrency: 4,
    };
  }
  return {
    ...common,
    // greylist retries at 1, 4 and 11 minutes of the fake clock
    mode: 'highest_accuracy',
    // replies get 6 s (the slowest honest answer is the 1 s postscreen pause plus latency), so a machine busy with
    // other work does not turn its own lag into smtp_timeout verdicts; the fake clock jumps with every wait, so no
    // total limit (real time never jumps; the default holds there)
    timeouts: { dnsMs: 4_000, connectMs: 4_000, replyMs: 6_000, totalMs: 86_400_000 },
    clock,
    sleep,
    concurrency: 300,
  };
}

describe(`${SIZE.toLocaleString('en-US')}-address corpus (${REALISTIC ? 'makeRealisticCorpus' : 'makeCorpus'}(${SIZE}, ${SEED}), ${REALISTIC ? 'realistic' : 'fast'} world)`, () => {
  it('reaches ≥ 99% correct status and never calls an unknown-class address invalid', async () => {
    const emails = corpus.map((entry) => entry.email);
    let total = 0;
    let correctStatus = 0;
    let correctReason = 0;
    let unknownCalledInvalid = 0;
    const confusion = new Map<string, number>();
    const seen = new Set<string>();
    for await (const result of verifyMany(emails, engineOptions())) {
      total++;
      seen.add(result.email);
      const expected = world.truth.get(result.email.toLowerCase());
      if (!expected) throw new Error(`no truth for ${result.email}`);
      if (expected.status === result.status) correctStatus++;
      if (expected.status === result.status && expected.reason === result.reason.code) correctReason++;
      else {
        const key = `${expected.status}/${expected.reason} -> ${result.status}/${result.reason.code}`;
        confusion.set(key, (confusion.get(key) ?? 0) + 1);
      }
      // Policy blocks, greylisting, timeouts, refused connections (and DNS failures) must never become invalid.
      if (expected.status === 'unknown' && result.status === 'invalid') unknownCalledInvalid++;
    }
    const accuracy = correctStatus / total;
    console.log(
      `corpus (${world.preset} world): ${total} results, status accuracy ${(accuracy * 100).toFixed(2)}%, status+reason ${((correctReason / total) * 100).toFixed(2)}%, ` +
        `unknown-class called invalid: ${unknownCalledInvalid}`,
      confusion.size > 0 ? Object.fromEntries(confusion) : '',
    );
    expect(total).toBe(SIZE);
    expect(seen.size).toBe(new Set(emails).size);
    expect(accuracy).toBeGreaterThanOrEqual(0.99);
    expect(unknownCalledInvalid).toBe(0);
  });
});
