import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCorpus, startMailWorld, type TCorpusEntry, type TMailWorld } from '@verilead/mailworld';
import { verifyMany } from '../verify';

const SIZE = 10_000;
let world: TMailWorld;
let corpus: TCorpusEntry[];

beforeAll(async () => {
  corpus = makeCorpus(SIZE, 42);
  world = await startMailWorld({ corpus, greylistDelayMs: 300, tarpitDelayMs: 5_000 }); // tarpit beyond 4 × the reply timeout
});
afterAll(async () => {
  await world?.stop();
});

describe('10,000-address corpus (makeCorpus(10000, 42))', () => {
  it('reaches ≥ 99% correct status and never calls an unknown-class address invalid', async () => {
    const emails = corpus.map((entry) => entry.email);
    let total = 0;
    let correctStatus = 0;
    let correctReason = 0;
    let unknownCalledInvalid = 0;
    const confusion = new Map<string, number>();
    const seen = new Set<string>();
    for await (const result of verifyMany(emails, {
      dnsServers: world.dnsServers,
      smtpPort: world.smtpPort,
      heloName: 'verifier.verilead.test',
      mailFrom: 'probe@verifier.verilead.test',
      mode: 'fastest_turnaround',
      greylistSchedule: [world.greylistDelayMs + 100],
      timeouts: { dnsMs: 1_000, connectMs: 1_000, replyMs: 1_000, totalMs: 15_000 },
      concurrency: 100,
      perHostConcurrency: 4,
    })) {
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
      `corpus: ${total} results, status accuracy ${(accuracy * 100).toFixed(2)}%, status+reason ${((correctReason / total) * 100).toFixed(2)}%, ` +
        `unknown-class called invalid: ${unknownCalledInvalid}`,
      confusion.size > 0 ? Object.fromEntries(confusion) : '',
    );
    expect(total).toBe(SIZE);
    expect(seen.size).toBe(new Set(emails).size);
    expect(accuracy).toBeGreaterThanOrEqual(0.99);
    expect(unknownCalledInvalid).toBe(0);
  });
});
