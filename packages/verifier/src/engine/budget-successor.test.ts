import { afterEach, expect, it } from 'vitest';
import { startOneDomainDns, type TFakeDns } from '../test-support/fake-dns-server';
import { startStrictSmtpHost, type TStrictSmtpHost } from '../test-support/strict-smtp-host';
import { VerifierEngine } from './engine';

/** A host on loopback that greets at once, accepts user…@ mailboxes and refuses every other recipient (550 5.1.1). */
const startHost = () => startStrictSmtpHost('mx.budget.test', (line) => line.includes('<user'));

let dns: TFakeDns | null = null;
let host: TStrictSmtpHost | null = null;
afterEach(async () => {
  await dns?.stop();
  await host?.stop();
  dns = null;
  host = null;
});

it('opens the successor of a session halfway through its refused-reply budget, so the call after its retirement finds it greeted', async () => {
  dns = await startOneDomainDns('budget.test');
  host = await startHost();
  const h = host;
  // only the refused-reply budget (9) retires the session here: the non-mail and transaction limits are far away
  const engine = new VerifierEngine({ dnsServers: [dns.server], smtpPort: h.port, heloName: 'verifier.test', timeouts: { dnsMs: 2_000, connectMs: 2_000, replyMs: 2_000 }, perHostConcurrency: 2, sessionBudget: { nonMail: 1_000 } });
  const verdicts: string[] = [];
  let n = 0;
  const unknown = async () => {
    const r = await engine.verify(`nobody${n++}@budget.test`);
    verdicts.push(`${r.email} ${r.status}`);
  };
  try {
    // Every call here is refused twice (its address and the catch-all probe, sent until a mailbox of the domain is
    // accepted): the first session is past half its budget of 9 after 3 calls (6 refusals) and retires with QUIT
    // after 4 (8: room for one refusal only)
    while (h.stats.quits === 0 && n < 10) await unknown();
    expect(n).toBe(4);
    // its successor was opened beside it at half the budget, while it served on ...
    expect(h.stats.events).toEqual(['connect', 'connect', 'QUIT']);
    expect(engine.inspectHost('127.0.0.1')).toMatchObject({ established: 1, opening: 0, budget: { errors: 9 } });
    // ... and the next call is served by that successor, greeted ahead of time: no connection is opened for it
    await unknown();
    expect(h.stats.events).toEqual(['connect', 'connect', 'QUIT']);
    expect(verdicts).toHaveLength(5);
    expect(verdicts.filter((v) => !v.endsWith(' invalid'))).toEqual([]);
  } finally {
    await engine.close();
  }
}, 30_000);
