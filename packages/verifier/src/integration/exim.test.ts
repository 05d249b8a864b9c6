// The engine against stock Exim 4.96 (Debian's exim4-daemon-light binary, unpacked beside Postfix: the two packages
// conflict) run inetd-style on loopback with its defaults, smtp_accept_max_nonmail = 10 among them. Under CI=true a
// missing Exim fails this test instead of skipping it (.ci/run unpacks it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isEximAvailable, startEximWorld, type TEximWorld } from '@verilead/mailworld';
import { VerifierEngine } from '../engine/engine';
import type { TVerifyOptions } from '../types';

const available = isEximAvailable();
const N = 1_500;
const emails: string[] = [];
const mailboxes: string[] = [];
for (let i = 0; i < N; i++) {
  const local = i % 2 === 0 ? `person${i}` : `nobody${i}`;
  if (i % 2 === 0) mailboxes.push(local);
  emails.push(`${local}@exstrict.test`);
}

let world: TEximWorld;

function engineOn(more: Partial<TVerifyOptions> = {}): VerifierEngine {
  return new VerifierEngine({
    dnsServers: world.dnsServers,
    smtpPort: world.smtpPort,
    heloName: 'verifier.verilead.test',
    mailFrom: 'probe@verilead.test',
    timeouts: { dnsMs: 2_000, connectMs: 5_000, replyMs: 10_000, totalMs: 120_000 },
    ...more,
  });
}

describe.skipIf(!available && process.env.CI !== 'true')('stock Exim on loopback', () => {
  beforeAll(async () => {
    if (!available) throw new Error('Stock Exim is not unpacked here (see .ci/run) or this is not root; CI must run this test');
    world = await startEximWorld([
      { name: 'strict', domain: 'exstrict.test', mailboxes },
      // stricter than the engine's default budget: the 5th counted non-mail command drops the session
      { name: 'tight', domain: 'extight.test', mailboxes: ['alice', 'bob', 'carol', 'dan', 'erin', 'fay'], main: ['smtp_accept_max_nonmail = 4'] },
      // sender verification in the RCPT ACL: our sender's domain routes nowhere here, so every RCPT is refused
      // "550-Verification failed for <probe@verilead.test> / 550-Unrouteable address / 550 Sender verify failed"
      { name: 'senderverify', domain: 'exsender.test', mailboxes: ['alice', 'bob', 'carol'], rcptAcl: ['require verify = sender'] },
    ]);
  }, 30_000);
  afterAll(async () => {
    await world?.stop();
  });

  it('a long list reuses sessions without Exim ever dropping one for too many non-mail commands (RSET), every verdict right', async () => {
    const engine = engineOn();
    const wrong: string[] = [];
    try {
      for await (const r of engine.verifyMany(emails, { concurrency: 200 })) {
        const expected = r.email.startsWith('person') ? 'valid/valid_mailbox' : 'invalid/mailbox_not_found';
        if (`${r.status}/${r.reason.code}` !== expected) wrong.push(`${r.email}: ${r.status}/${r.reason.code}`);
      }
    } finally {
      await engine.close();
    }
    expect(wrong).toEqual([]);
    const log = (await world.hosts.get('strict')?.readLog()) ?? '';
    expect(log).toMatch(/rejected RCPT <nobody1@exstrict\.test>: Unrouteable address/);
    expect(log).not.toMatch(/too many nonmail commands/);
    expect(log).not.toMatch(/dropped/);
  });

  it("a host whose sender verification refuses the verifier's sender calls no mailbox invalid: unknown / verifier_blocked, and the host is asked no more", async () => {
    const engine = engineOn();
    const list = ['alice', 'bob', 'carol', ...Array.from({ length: 27 }, (_, i) => `ghost${i}`)].map((l) => `${l}@exsender.test`);
    const verdicts = new Map<string, string>();
    try {
      for await (const r of engine.verifyMany(list, { concurrency: 30 })) verdicts.set(r.email, `${r.status}/${r.reason.code}: ${r.reason.text}`);
    } finally {
      await engine.close();
    }
    // the real mailboxes are not called invalid; no address is judged on a refusal of the sender
    for (const email of list) expect(verdicts.get(email), email).toMatch(/^unknown\/verifier_blocked: .*Sender verify failed/);
    const log = (await world.hosts.get('senderverify')?.readLog()) ?? '';
    expect(log).toMatch(/sender verify fail for <probe@verilead\.test>/);
    // the batches in flight when the first refusal came back (3 sessions of at most 9), not one refusal per address
    expect((log.match(/rejected RCPT/g) ?? []).length).toBeLessThanOrEqual(27);
  });

  it("a host stricter than the budget drops one session, and its limit is learnt: the next sessions stay under it", async () => {
    const engine = engineOn({ perHostConcurrency: 1, maxRecipientsPerTransaction: 1 });
    const list = Array.from({ length: 40 }, (_, i) => (i % 4 === 0 ? `${['alice', 'bob', 'carol', 'dan', 'erin', 'fay'][i % 6]}@extight.test` : `ghost${i}@extight.test`));
    const wrong: string[] = [];
    try {
      for await (const r of engine.verifyMany(list, { concurrency: 40 })) {
        const expected = r.email.startsWith('ghost') ? 'invalid/mailbox_not_found' : 'valid/valid_mailbox';
        if (`${r.status}/${r.reason.code}` !== expected) wrong.push(`${r.email}: ${r.status}/${r.reason.code}`);
      }
      const gate = engine.inspectHost(world.hosts.get('tight')?.address ?? '');
      expect(gate?.budget.cuts).toBe(1);
      expect(gate?.budget.nonMail).toBeLessThan(8);
    } finally {
      await engine.close();
    }
    expect(wrong).toEqual([]);
    const log = (await world.hosts.get('tight')?.readLog()) ?? '';
    expect((log.match(/too many nonmail commands/g) ?? []).length).toBe(1);
  });
});
