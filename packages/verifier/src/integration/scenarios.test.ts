import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailWorld, type TMailWorld } from '@verilead/mailworld';
import { verifyEmail, verifyMany } from '../verify';
import { VerifierEngine } from '../engine/engine';
import { IDLE_CLOSE_MS } from '../engine/host-gate';
import type { TVerificationResult, TVerifyOptions } from '../types';

// Every scenario domain of the mail world, as named in the interface both packages code to.
const SCENARIO_DOMAINS = [
  'strict.test', 'acceptall.test', 'greylist.test', 'tarpit.test', 'timeout.test', 'refused.test', 'policy.test',
  'fullbox.test', 'disabled.test', 'starttls.test', 'ratelimit.test', 'backupmx.test', 'aonly.test', 'nullmx.test',
  'nxdomain.test', 'servfail.test', 'gmail.com', 'outlook.com', 'm365.test', 'yahoo.com', 'zoho.test', 'mailinator.com',
  'gmial.com',
];

let world: TMailWorld;
let options: TVerifyOptions;

beforeAll(async () => {
  world = await startMailWorld({ greylistDelayMs: 250, tarpitDelayMs: 5_000 }); // tarpit beyond 4 × the reply timeout (lag-aware timeouts)
  options = {
    dnsServers: world.dnsServers,
    smtpPort: world.smtpPort,
    heloName: 'verifier.verilead.test',
    mailFrom: 'probe@verifier.verilead.test',
    greylistSchedule: [world.greylistDelayMs + 150, world.greylistDelayMs + 150],
    // slowpoke.test answers every command after 700 ms: within the reply timeout, so it gets its true verdict
    timeouts: { dnsMs: 1_000, connectMs: 1_000, replyMs: 1_000, totalMs: 15_000 },
  };
});
afterAll(async () => {
  await world?.stop();
});

/** Every example but 5-minute greylisting's, which engine-realistic.test.ts checks on a fake clock. */
function listExamples(): string[] {
  return Object.entries(world.examples).flatMap(([scenario, emails]) => (scenario === 'greylist5' ? [] : emails));
}

function expectTruth(result: TVerificationResult): void {
  const expected = world.truth.get(result.email.toLowerCase());
  expect(expected, `truth for ${result.email}`).toBeDefined();
  expect({ email: result.email, status: result.status, reason: result.reason.code }).toEqual({ email: result.email, status: expected?.status, reason: expected?.reason });
}

describe('every scenario of the mail world', () => {
  it('has examples for every scenario domain', () => {
    const domains = new Set(listExamples().map((e) => e.slice(e.lastIndexOf('@') + 1).toLowerCase()));
    for (const domain of SCENARIO_DOMAINS) expect(domains.has(domain), domain).toBe(true);
  });

  it('verifyEmail gives the exact status and reason for every example address', async () => {
    // each address alone on a fresh engine; four at a time so the 700 ms host's examples do not add up
    const emails = listExamples();
    const results = new Map<string, TVerificationResult>();
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < emails.length) {
          const email = emails[next++] as string;
          results.set(email, await verifyEmail(email, options));
        }
      }),
    );
    for (const email of emails) expectTruth(results.get(email) as TVerificationResult);
  });

  it('never calls a policy block, greylisting, a timeout or a refused connection invalid', async () => {
    for (const email of ['grace@policy.test', 'dave@tarpit.test', 'erin@timeout.test', 'frank@refused.test', 'sybil@servfail.test']) {
      const result = await verifyEmail(email, options);
      expect(result.status, email).toBe('unknown');
      expect(result.safe_to_send).toBe('risky');
    }
    // A fresh (never seen) unknown recipient with no retries left: still deferred, so unknown — not invalid.
    const stillGreylisted = await verifyEmail('nobody.fresh@greylist.test', { ...options, greylistSchedule: [] });
    expect(stillGreylisted).toMatchObject({ status: 'unknown', reason: { code: 'greylisted' }, greylist_count: 1 });
  });
});

describe('SMTP behaviours in detail', () => {
  it('keeps a transcript: greeting, EHLO with heloName, MAIL FROM, RCPT for the address and a random one (no RSET: the transaction stays open for the next batch)', async () => {
    const result = await verifyEmail('alice@strict.test', options);
    const client = result.transcript.filter((t) => t.direction === 'C').map((t) => t.line);
    expect(result.transcript[0]?.direction).toBe('S');
    expect(result.transcript[0]?.line).toMatch(/^220 /);
    expect(client[0]).toBe('EHLO verifier.verilead.test');
    expect(client).toContain('MAIL FROM:<probe@verifier.verilead.test>');
    expect(client).toContain('RCPT TO:<alice@strict.test>');
    expect(client.filter((l) => l.startsWith('RCPT TO:'))).toHaveLength(2);
    expect(client).not.toContain('RSET');
    expect(result.transcript.every((t, i, all) => i === 0 || t.at_ms >= (all[i - 1]?.at_ms ?? 0))).toBe(true);
  });

  it('does STARTTLS with a self-signed certificate, then EHLO again', async () => {
    const result = await verifyEmail('laura@starttls.test', options);
    expect(result.status).toBe('valid');
    const client = result.transcript.filter((t) => t.direction === 'C').map((t) => t.line);
    expect(client.slice(0, 3)).toEqual(['EHLO verifier.verilead.test', 'STARTTLS', 'EHLO verifier.verilead.test']);
  });

  it('retries greylisting on the schedule and counts it', async () => {
    const result = await verifyEmail('postmaster@greylist.test', options);
    expect(result).toMatchObject({ status: 'valid', reason: { code: 'valid_mailbox' }, greylist_count: 1 });
    const rcpt = result.transcript.findIndex((t) => t.line === 'RCPT TO:<postmaster@greylist.test>');
    // replies follow their commands in order (pipelined: after the whole batch)
    expect(result.transcript.slice(rcpt + 1).some((t) => t.direction === 'S' && /^451 4\.7\.1/.test(t.line))).toBe(true);
    expect(result.transcript.filter((t) => t.line === 'RCPT TO:<postmaster@greylist.test>')).toHaveLength(2);
  });

  it("greylisting 'defer' answers at once without waiting, and a later 'last' call gets the verdict (a bulk list's re-check)", async () => {
    const slept: number[] = [];
    const engine = new VerifierEngine({ ...options, greylistSchedule: [600_000], sleep: async (ms) => void slept.push(ms) });
    // a triplet the greylisting host has not seen yet in this file
    const address = `never.seen.${Date.now()}@greylist.test`;
    try {
      const deferred = await engine.verify(address, { greylisting: 'defer' });
      expect(deferred).toMatchObject({ status: 'unknown', reason: { code: 'greylisted' }, greylist_count: 1 });
      expect(deferred.reason.text).toMatch(/re-check is due later/);
      const early = await engine.verify(address, { greylisting: 'last' });
      expect(early).toMatchObject({ status: 'unknown', reason: { code: 'greylisted' }, greylist_count: 1 });
      // neither call waited on the greylist schedule (the only waits are the idle sessions' close timers)
      expect(slept.filter((ms) => ms !== IDLE_CLOSE_MS)).toEqual([]);
      await new Promise((resolve) => setTimeout(resolve, world.greylistDelayMs + 100));
      const final = await engine.verify(address, { greylisting: 'last' });
      expect(final).toMatchObject({ status: 'invalid', reason: { code: 'mailbox_not_found' }, greylist_count: 0 });
    } finally {
      await engine.close();
    }
  });

  it("a list's greylisted addresses, deferred together, get their verdicts at the first re-check (one catch-all probe per domain, the one that was sent)", async () => {
    const engine = new VerifierEngine(options);
    const run = Date.now();
    const mailboxes = ['carol@greylist.test', 'carol.white@greylist.test', 'postmaster@greylist.test'];
    const missing = Array.from({ length: 4 }, (_, i) => `gone.${run}.${i}@greylist.test`);
    const emails = [...mailboxes, ...missing];
    try {
      const first: TVerificationResult[] = [];
      for await (const r of engine.verifyMany(emails, { greylisting: 'defer', concurrency: 10 })) first.push(r);
      expect(first.map((r) => r.reason.code)).toEqual(emails.map(() => 'greylisted'));
      await new Promise((resolve) => setTimeout(resolve, world.greylistDelayMs + 100));
      const recheck: TVerificationResult[] = [];
      for await (const r of engine.verifyMany(emails, { greylisting: 'defer', concurrency: 10 })) recheck.push(r);
      const verdicts = Object.fromEntries(recheck.map((r) => [r.email, `${r.status}/${r.reason.code}`]));
      expect(verdicts).toEqual(Object.fromEntries(emails.map((e) => [e, mailboxes.includes(e) ? 'valid/valid_mailbox' : 'invalid/mailbox_not_found'])));
    } finally {
      await engine.close();
    }
  });

  it('uses the default highest-accuracy schedule through the injected sleep and clock', async () => {
    const requested: number[] = [];
    let skipped = 0;
    const clock = { now: () => Date.now() + skipped };
    const sleep = async (ms: number): Promise<void> => {
      requested.push(ms);
      skipped += ms;
      await new Promise((resolve) => setTimeout(resolve, world.greylistDelayMs + 100));
    };
    const { greylistSchedule: _unused, ...rest } = options;
    const result = await verifyEmail('carol.white@greylist.test', { ...rest, mode: 'highest_accuracy', clock, sleep, timeouts: { ...rest.timeouts, totalMs: 900_000 } });
    expect(result).toMatchObject({ status: 'valid', greylist_count: 1 });
    // the schedule's first delay (beside the idle session's close timer, on the same injected sleep)
    expect(requested.filter((ms) => ms !== IDLE_CLOSE_MS)).toEqual([60_000]);
    expect(result.time_taken).toBeGreaterThanOrEqual(60_000);
  });

  it('fails over from a refused preference-10 MX to the preference-20 MX', async () => {
    const result = await verifyEmail('niaj@backupmx.test', options);
    expect(result).toMatchObject({ status: 'valid', mx_record: 'mx2.backupmx.test' });
  });

  it('retries a recipient on a new session after 452 too many recipients', async () => {
    const emails = ['r1@ratelimit.test', 'r2@ratelimit.test', 'r3@ratelimit.test', 'r4@ratelimit.test', 'r5@ratelimit.test', 'nobody@ratelimit.test'];
    const results: TVerificationResult[] = [];
    for await (const r of verifyMany(emails, { ...options, concurrency: 1, perHostConcurrency: 1 })) results.push(r);
    for (const r of results) expectTruth(r);
    const lines = results.flatMap((r) => r.transcript.map((t) => t.line));
    expect(lines.some((l) => l.startsWith('452 4.5.3'))).toBe(true);
  });

  it('reports Microsoft 365 as catch-all, never valid', async () => {
    for (const email of ['ceo@m365.test', 'jane.doe@outlook.com']) {
      const result = await verifyEmail(email, options);
      expect(result).toMatchObject({ status: 'catch_all', reason: { code: 'accept_all' }, smtp_provider: 'Microsoft', safe_to_send: 'risky' });
    }
  });

  it('names providers and sets the local flags', async () => {
    expect(await verifyEmail('john.smith@gmail.com', options)).toMatchObject({ status: 'valid', smtp_provider: 'Google', mx_record: 'gmail-smtp-in.l.google.com', free_account: true, safe_to_send: 'yes' });
    expect(await verifyEmail('mike.brown@yahoo.com', options)).toMatchObject({ smtp_provider: 'Yahoo', free_account: true });
    expect(await verifyEmail('trent@zoho.test', options)).toMatchObject({ smtp_provider: 'Zoho', free_account: false });
    expect(await verifyEmail('temp123@mailinator.com', options)).toMatchObject({ status: 'catch_all', disposable: true, free_account: false, safe_to_send: 'no' });
    expect(await verifyEmail('info@strict.test', options)).toMatchObject({ status: 'valid', role_account: true, safe_to_send: 'risky' });
    expect(await verifyEmail('xkqzvbn@acceptall.test', options)).toMatchObject({ gibberish: true });
  });

  it('suggests the provider for a typo domain that does not exist', async () => {
    expect(await verifyEmail('john.smith@gmial.com', options)).toMatchObject({ status: 'invalid', reason: { code: 'domain_not_found' }, suggested_email_address: 'john.smith@gmail.com' });
    expect(await verifyEmail('nobody@strict.test', options)).toMatchObject({ suggested_email_address: null });
  });
});
