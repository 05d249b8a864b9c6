import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailWorld, type TMailWorld } from '@verilead/mailworld';
import { VerifierEngine } from '../engine/engine';
import type { TVerificationResult, TVerifyOptions } from '../types';

// Our own load never becomes a verdict: a starved event loop (busy-wait bursts far longer than the reply timeout,
// as on a machine busy with other work) makes every reply timer fire late, after the host's answer already sits
// unread in the socket. The engine must count only the time it could actually read, while a host that is truly
// silent still times out.
const REPLY_MS = 400;
const BURST_MS = 500;
const BREATH_MS = 30;

let world: TMailWorld;
let options: TVerifyOptions;

beforeAll(async () => {
  world = await startMailWorld({ greylistDelayMs: 250, tarpitDelayMs: 2_000 });
  options = {
    dnsServers: world.dnsServers,
    smtpPort: world.smtpPort,
    heloName: 'verifier.verilead.test',
    mailFrom: 'probe@verifier.verilead.test',
    timeouts: { dnsMs: REPLY_MS, connectMs: REPLY_MS, replyMs: REPLY_MS, totalMs: 120_000 },
  };
});
afterAll(async () => {
  await world?.stop();
});

/** Busy-waits BURST_MS, lets the loop breathe for BREATH_MS, and again, until stopped: our process starved of CPU. */
function starveEventLoop(): { stop: () => number; bursts: () => number } {
  let running = true;
  let bursts = 0;
  const burst = (): void => {
    if (!running) return;
    const until = performance.now() + BURST_MS;
    while (performance.now() < until) {
      // spin: nothing else in this process runs meanwhile
    }
    bursts++;
    setTimeout(burst, BREATH_MS);
  };
  setTimeout(burst, BREATH_MS);
  return {
    stop: () => {
      running = false;
      return bursts;
    },
    bursts: () => bursts,
  };
}

const verdict = (r: TVerificationResult) => `${r.email} ${r.status}/${r.reason.code}`;
const truth = (email: string) => {
  const t = world.truth.get(email.toLowerCase());
  return `${email} ${t?.status}/${t?.reason}`;
};

describe('event-loop lag is not the host\'s silence', () => {
  it('a fast host verified while our event loop stalls for 500 ms at a time (reply timeout 400 ms) gets no timeout verdicts', async () => {
    const emails = ['alice@strict.test', 'john.smith@strict.test', 'no.such.user@strict.test', 'peter@initech.test', 'anyone@acceptall.test', 'info@strict.test'];
    const engine = new VerifierEngine(options);
    const starving = starveEventLoop();
    const results: TVerificationResult[] = [];
    try {
      for await (const result of engine.verifyMany(emails, { concurrency: 6 })) results.push(result);
      // more passes on warm sessions (RSET, pipelined RCPT) under the same starvation, until it has stalled several
      // times (on a fast machine a pass takes a few ms, so passes are not counted: the bound is only a safety net)
      const giveUpAt = performance.now() + 30_000;
      do {
        for await (const result of engine.verifyMany(emails, { concurrency: 3 })) results.push(result);
      } while (starving.bursts() < 3 && performance.now() < giveUpAt);
    } finally {
      const bursts = starving.stop();
      await engine.close();
      // the test starved the loop for real: several bursts, each longer than the reply timeout
      expect(bursts).toBeGreaterThanOrEqual(3);
    }
    expect(results.filter((r) => r.reason.code === 'smtp_timeout' || r.reason.code === 'dns_error').map(verdict)).toEqual([]);
    expect(results.map(verdict).sort()).toEqual(Array.from({ length: results.length / emails.length }, () => emails).flat().map(truth).sort());
  }, 60_000);

  it('a host that never greets still times out under the same starvation', async () => {
    const engine = new VerifierEngine(options);
    const starving = starveEventLoop();
    const results: TVerificationResult[] = [];
    try {
      for await (const result of engine.verifyMany(['erin@timeout.test'], { concurrency: 1 })) results.push(result);
    } finally {
      starving.stop();
      await engine.close();
    }
    expect(results.map(verdict)).toEqual(['erin@timeout.test unknown/smtp_timeout']);
  }, 60_000);
});
