import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startOneDomainDns, type TFakeDns } from '../test-support/fake-dns-server';
import { createManualClock } from '../test-support/manual-clock';
import { startStrictSmtpHost, type TStrictSmtpHost } from '../test-support/strict-smtp-host';
import { until } from '../test-support/until';
import { VerifierEngine } from './engine';
import { ERROR_BUDGET, NONMAIL_BUDGET } from './session-budget';

/** The operator's view of the mail hosts (listHosts, shown in /metrics): sessions open, refused, back-off. */
let dns: TFakeDns | null = null;
let host: TStrictSmtpHost | null = null;
let busy: net.Server | null = null;
afterEach(async () => {
  await dns?.stop();
  await host?.stop();
  await new Promise((resolve) => (busy ? busy.close(resolve) : resolve(undefined)));
  dns = null;
  host = null;
  busy = null;
});

const engineOn = (dnsServer: string, port: number, clock = createManualClock()) =>
  new VerifierEngine({ dnsServers: [dnsServer], smtpPort: port, heloName: 'verifier.test', timeouts: { dnsMs: 2_000, connectMs: 2_000, replyMs: 2_000 }, clock: clock.clock, sleep: clock.sleep });

describe('VerifierEngine.listHosts', () => {
  it('shows a host it verified at with its one warm session open and nothing refused', async () => {
    dns = await startOneDomainDns('hosts.test');
    host = await startStrictSmtpHost('mx.hosts.test', (line) => line.includes('<ann@hosts.test>'));
    const engine = engineOn(dns.server, host.port);
    try {
      expect(engine.listHosts()).toEqual([]);
      expect((await engine.verify('ann@hosts.test')).status).toBe('valid');
      expect(engine.listHosts()).toEqual([
        { host: `127.0.0.1:${host.port}`, sessionsOpen: 1, sessionsOpening: 0, inUse: 0, capacity: 2, learnedCeiling: null, refusedSessions: 0, rateLimited: 0, cutSessions: 0, backOffMs: 0,
          downUntil: null, errorBudget: ERROR_BUDGET, nonMailBudget: NONMAIL_BUDGET, exchange: 'mx.hosts.test', paused: false, recentReplies: expect.any(Array) },
      ]);
    } finally {
      await engine.close();
    }
  });

  it('counts the sessions a busy host refuses with a 421 greeting, and its back-off', async () => {
    dns = await startOneDomainDns('busy.test');
    let greeted = 0;
    busy = net.createServer((socket) => {
      greeted++;
      socket.on('error', () => socket.destroy());
      socket.end('421 4.7.0 mx.busy.test Too many connections, try again later\r\n');
    });
    await new Promise<void>((resolve) => busy!.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as net.AddressInfo).port;
    const engine = engineOn(dns.server, port);
    const stop = new AbortController();
    const call = engine.verify('ann@busy.test', { signal: stop.signal }).catch((err: unknown) => err);
    try {
      await until(() => engine.listHosts()[0]?.refusedSessions === 1);
      const [view] = engine.listHosts();
      expect(greeted).toBe(1);
      expect(view).toMatchObject({ host: `127.0.0.1:${port}`, sessionsOpen: 0, refusedSessions: 1 });
      // refused with none of ours open: the host is busy, so the engine backs off before using it again
      expect(view!.backOffMs).toBeGreaterThan(0);
    } finally {
      stop.abort(new Error('test over'));
      expect(await call).toMatchObject({ message: 'test over' });
      await engine.close();
    }
  });
});
