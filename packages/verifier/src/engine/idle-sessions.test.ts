import { afterEach, describe, expect, it } from 'vitest';
import { startOneDomainDns, type TFakeDns } from '../test-support/fake-dns-server';
import { createManualClock } from '../test-support/manual-clock';
import { startStrictSmtpHost, type TStrictSmtpHost } from '../test-support/strict-smtp-host';
import { until } from '../test-support/until';
import { VerifierEngine } from './engine';
import { IDLE_CLOSE_MS } from './host-gate';

/** A strict SMTP host on loopback: 250 to the listed mailboxes, 550 5.1.1 to others; counts connections and QUITs. */
const startHost = (mailboxes: string[]) => startStrictSmtpHost('mx.idle.test', (line) => mailboxes.some((m) => line.includes(`<${m}>`)));

let dns: TFakeDns | null = null;
let host: TStrictSmtpHost | null = null;
afterEach(async () => {
  await dns?.stop();
  await host?.stop();
  dns = null;
  host = null;
});

describe('idle SMTP sessions on the injected clock', () => {
  it('keeps an idle session for reuse until IDLE_CLOSE_MS have passed on the injected clock, then QUITs it', async () => {
    dns = await startOneDomainDns('idle.test');
    host = await startHost(['ann@idle.test', 'bob@idle.test', 'cyd@idle.test']);
    const time = createManualClock();
    const engine = new VerifierEngine({
      dnsServers: [dns.server],
      smtpPort: host.port,
      heloName: 'verifier.test',
      timeouts: { dnsMs: 2_000, connectMs: 2_000, replyMs: 2_000 },
      clock: time.clock,
      sleep: time.sleep,
    });
    try {
      expect((await engine.verify('ann@idle.test')).status).toBe('valid');
      expect(host.stats.connections).toBe(1);
      expect(time.pending()).toEqual([IDLE_CLOSE_MS]); // the idle-close wait, on the injected sleep

      // just short of the idle time: the session is still open and is reused
      await time.advance(IDLE_CLOSE_MS - 1);
      expect(host.stats.quits).toBe(0);
      expect((await engine.verify('bob@idle.test')).status).toBe('valid');
      expect(host.stats.connections).toBe(1);

      // real time passing does not close it; the injected clock reaching the idle time does
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(host.stats.quits).toBe(0);
      await time.advance(IDLE_CLOSE_MS);
      await until(() => host?.stats.open === 0);
      expect(host.stats.quits).toBe(1);
      expect(host.stats.open).toBe(0);
      expect(engine.inspectHost('127.0.0.1')).toMatchObject({ active: 0 });

      // the next verification opens a new session
      expect((await engine.verify('cyd@idle.test')).status).toBe('valid');
      expect(host.stats.connections).toBe(2);
    } finally {
      await engine.close();
    }
    // closing the engine QUITs the idle session and ends its idle-close wait
    expect(host.stats.quits).toBe(2);
    expect(time.pending()).toEqual([]);
  });

  /** The DNS of idle.test and a host that knows ann@idle.test; an engine on them. */
  async function idleWorld() {
    dns = await startOneDomainDns('idle.test');
    host = await startHost(['ann@idle.test']);
    // a budget that lets a session serve its 50 transactions (the default retires it after 8 non-mail commands)
    return new VerifierEngine({ dnsServers: [dns.server], smtpPort: host.port, heloName: 'verifier.test', timeouts: { dnsMs: 2_000, connectMs: 2_000, replyMs: 2_000 }, sessionBudget: { nonMail: 1_000 } });
  }

  /** Verifies each address in turn; after each, waits until a session opened in the background is greeted. */
  async function verifyInTurn(engine: VerifierEngine, addresses: string[], status: string) {
    const dialedDuring: number[] = [];
    const connectionsAfter: number[] = [];
    let mostOpen = 0;
    for (const address of addresses) {
      const before = host!.stats.connections;
      expect((await engine.verify(address)).status).toBe(status);
      dialedDuring.push(host!.stats.connections - before);
      mostOpen = Math.max(mostOpen, host!.stats.open);
      await until(() => engine.inspectHost('127.0.0.1')?.opening === 0 && host!.stats.open === engine.inspectHost('127.0.0.1')?.established);
      connectionsAfter.push(host!.stats.connections);
    }
    return { dialedDuring, connectionsAfter, mostOpen };
  }

  it("opens a retiring session's successor halfway through its 50 transactions, so the call after the retirement waits for no greeting", async () => {
    const engine = await idleWorld();
    try {
      // One call is one transaction here; ann is accepted (only the first call's catch-all probe is refused).
      const { dialedDuring, connectionsAfter, mostOpen } = await verifyInTurn(engine, Array(55).fill('ann@idle.test'), 'valid');
      // the first call opened the first session; its successor was opened beside it as the 25th transaction ended (in
      // the background: a slow greeting has 25 transactions' time); the call after the retirement (51) and every
      // other call found a greeted session waiting
      expect(dialedDuring[0]).toBe(1);
      expect(dialedDuring.slice(1).every((n) => n === 0)).toBe(true);
      expect(connectionsAfter.slice(0, 24).every((n) => n === 1)).toBe(true);
      expect(connectionsAfter[24]).toBe(2);
      expect(host!.stats.connections).toBe(2);
      expect(host!.stats.quits).toBe(1);
      expect(mostOpen).toBeLessThanOrEqual(2);
    } finally {
      await engine.close();
    }
  });
});
