import { afterEach, describe, expect, it } from 'vitest';
import { startOneDomainDns, type TFakeDns } from '../test-support/fake-dns-server';
import { createManualClock } from '../test-support/manual-clock';
import { startStrictSmtpHost, type TStrictSmtpHost } from '../test-support/strict-smtp-host';
import { until } from '../test-support/until';
import { VerifierEngine } from './engine';
import { ERROR_BUDGET, NONMAIL_BUDGET } from './session-budget';
import { PausedHosts, RECENT_REPLIES } from './host-watch';

/** An operator's pause of a mail host (host-watch.ts): new work for it waits, then goes on once it is resumed. */
let dns: TFakeDns | null = null;
let host: TStrictSmtpHost | null = null;
afterEach(async () => {
  await dns?.stop();
  await host?.stop();
  dns = null;
  host = null;
});

async function setUp(paused: PausedHosts, clock = createManualClock()) {
  dns = await startOneDomainDns('pause.test');
  host = await startStrictSmtpHost('mx.pause.test', (line) => line.includes('<ann@pause.test>'));
  const engine = new VerifierEngine({
    dnsServers: [dns.server],
    smtpPort: host.port,
    heloName: 'verifier.test',
    timeouts: { dnsMs: 2_000, connectMs: 2_000, replyMs: 2_000, totalMs: 10_000 },
    clock: clock.clock,
    sleep: clock.sleep,
    hostPause: paused,
  });
  return { engine, clock, port: host.port, stats: host.stats };
}

describe('pausing a mail host', () => {
  it('holds a verification for a paused host (no connection, no verdict), then verifies it once resumed', async () => {
    const paused = new PausedHosts();
    paused.set(['MX.Pause.Test.']);
    const { engine, clock, stats } = await setUp(paused);
    try {
      let settled = false;
      const call = engine.verify('ann@pause.test').finally(() => (settled = true));
      // the DNS answer arrives on real time; after it the call waits on the pause, however long the clock runs
      await until(() => engine.listHosts().length === 1);
      await clock.advance(60_000);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(settled).toBe(false);
      expect(stats.connections).toBe(0);
      expect(engine.listHosts()[0]).toMatchObject({ exchange: 'mx.pause.test', paused: true, sessionsOpen: 0 });
      paused.set([]);
      // 60 s paused, with a 10 s total limit: the wait was not the host's, so the call still has its time
      expect(await call).toMatchObject({ status: 'valid' });
      expect(stats.connections).toBe(1);
      expect(engine.listHosts()[0]).toMatchObject({ paused: false, sessionsOpen: 1 });
    } finally {
      await engine.close();
    }
  });

  it('pauses by address too, and a cancelled call stops waiting at once with its reason', async () => {
    const paused = new PausedHosts();
    const { engine, port, stats } = await setUp(paused);
    paused.set([`127.0.0.1:${port}`]);
    try {
      const stop = new AbortController();
      const call = engine.verify('ann@pause.test', { signal: stop.signal }).catch((err: unknown) => err);
      await until(() => engine.listHosts().length === 1);
      stop.abort(new Error('caller timeout'));
      expect(await call).toMatchObject({ message: 'caller timeout' });
      expect(stats.connections).toBe(0);
    } finally {
      await engine.close();
    }
  });

  it('a call with pauseWaitMs gives up after it: unknown, smtp_timeout, saying the host is paused', async () => {
    const paused = new PausedHosts();
    paused.set(['127.0.0.1']);
    const { engine, clock, stats } = await setUp(paused);
    try {
      const call = engine.verify('ann@pause.test', { pauseWaitMs: 5_000 });
      await until(() => clock.pending().includes(5_000));
      await clock.advance(5_000);
      const result = await call;
      expect(result).toMatchObject({ status: 'unknown', reason: { code: 'smtp_timeout' } });
      expect(JSON.stringify(result)).toContain('paused by the operator');
      expect(stats.connections).toBe(0);
    } finally {
      await engine.close();
    }
  });

  it('keeps the last replies of each host, final lines only, newest last', async () => {
    const { engine } = await setUp(new PausedHosts());
    try {
      for (let i = 0; i < 4; i++) await engine.verify(`nobody${i}@pause.test`);
      const [view] = engine.listHosts();
      expect(view!.recentReplies).toHaveLength(RECENT_REPLIES);
      expect(view!.recentReplies.every((r) => /^\d{3} /.test(r.line))).toBe(true);
      expect(view!.recentReplies.at(-1)!.line).toBe('550 5.1.1 User unknown');
      expect(view).toMatchObject({ errorBudget: ERROR_BUDGET, nonMailBudget: NONMAIL_BUDGET, downUntil: null, paused: false });
    } finally {
      await engine.close();
    }
  });
});
