import { afterEach, describe, expect, it } from 'vitest';
import { a, mx, startFakeDns, type TFakeAnswer, type TFakeDns } from '../test-support/fake-dns-server';
import { MemoryCache } from '../engine/memory-cache';
import { parseDnsServer, queryDns } from './dns-client';
import { resolveMailRouting, type TDnsContext } from './resolve-mail-hosts';

let dns: TFakeDns | null = null;
afterEach(async () => {
  await dns?.stop();
  dns = null;
});

const ZONE: Record<string, Record<string, TFakeAnswer>> = {
  'multi.test': { MX: { answers: [mx('multi.test', 20, 'mx2.multi.test'), mx('multi.test', 10, 'mx1.multi.test'), mx('multi.test', 30, 'ghost.multi.test')] } },
  'mx1.multi.test': { A: { answers: [a('mx1.multi.test', '127.0.0.11')] } },
  'mx2.multi.test': { A: { answers: [a('mx2.multi.test', '127.0.0.12')] } },
  'ghost.multi.test': { A: { rcode: 'NXDOMAIN' } },
  'aonly.test': { MX: {}, A: { answers: [a('aonly.test', '127.0.0.13')] } },
  'nomail.test': { MX: {}, A: {}, AAAA: {} },
  'nullmx.test': { MX: { answers: [mx('nullmx.test', 0, '.')] } },
  'servfail.test': { MX: { rcode: 'SERVFAIL' } },
  'slow.test': { MX: { drop: true } },
  'big.test': { MX: { truncateUdp: true, answers: [mx('big.test', 10, 'mx.big.test')] } },
  'mx.big.test': { A: { answers: [a('mx.big.test', '127.0.0.14')] } },
  'short.test': { MX: { answers: [mx('short.test', 10, 'mx.short.test', 5)] } },
  'mx.short.test': { A: { answers: [a('mx.short.test', '127.0.0.15', 60)] } },
};

async function start(): Promise<TFakeDns> {
  dns = await startFakeDns((name, type) => ZONE[name]?.[type] ?? (ZONE[name] ? {} : { rcode: 'NXDOMAIN' }));
  return dns;
}

function makeContext(server: string, now = () => 0): TDnsContext {
  return { servers: [parseDnsServer(server)], timeoutMs: 300, cache: new MemoryCache(100, { now }) };
}

describe('resolveMailRouting', () => {
  it('sorts MX hosts by preference and drops hosts without an address', async () => {
    const { server } = await start();
    const routing = await resolveMailRouting(makeContext(server), 'multi.test');
    expect(routing).toEqual({
      kind: 'mx',
      implicit: false,
      hosts: [
        { exchange: 'mx1.multi.test', preference: 10, addresses: ['127.0.0.11'] },
        { exchange: 'mx2.multi.test', preference: 20, addresses: ['127.0.0.12'] },
      ],
    });
  });

  it('falls back to the A record when there is no MX (implicit MX)', async () => {
    const { server } = await start();
    expect(await resolveMailRouting(makeContext(server), 'aonly.test')).toEqual({
      kind: 'mx',
      implicit: true,
      hosts: [{ exchange: 'aonly.test', preference: 0, addresses: ['127.0.0.13'] }],
    });
  });

  it('tells null MX, no mail server, NXDOMAIN, SERVFAIL and timeouts apart', async () => {
    const { server } = await start();
    const ctx = makeContext(server);
    expect(await resolveMailRouting(ctx, 'nullmx.test')).toEqual({ kind: 'null_mx' });
    expect(await resolveMailRouting(ctx, 'nomail.test')).toEqual({ kind: 'no_mail' });
    expect(await resolveMailRouting(ctx, 'nothing.test')).toEqual({ kind: 'nxdomain' });
    expect(await resolveMailRouting(ctx, 'servfail.test')).toMatchObject({ kind: 'dns_error', detail: expect.stringContaining('SERVFAIL') });
    expect(await resolveMailRouting(ctx, 'slow.test')).toMatchObject({ kind: 'dns_error', detail: expect.stringContaining('timed out') });
  });

  it('retries over TCP when the UDP answer is truncated', async () => {
    const fake = await start();
    const routing = await resolveMailRouting(makeContext(fake.server), 'big.test');
    expect(routing).toMatchObject({ kind: 'mx', hosts: [{ exchange: 'mx.big.test', addresses: ['127.0.0.14'] }] });
    expect(fake.queries.filter((q) => q.name === 'big.test').map((q) => q.transport)).toEqual(['udp', 'tcp']);
  });

  it('caches per domain for the smallest record TTL', async () => {
    const fake = await start();
    let now = 0;
    const ctx = makeContext(fake.server, () => now);
    const count = (): number => fake.queries.filter((q) => q.name === 'short.test').length;
    await resolveMailRouting(ctx, 'short.test');
    await resolveMailRouting(ctx, 'short.test');
    expect(count()).toBe(1);
    now = 4_999;
    await resolveMailRouting(ctx, 'short.test');
    expect(count()).toBe(1);
    now = 5_000;
    await resolveMailRouting(ctx, 'short.test');
    expect(count()).toBe(2);
  });

  it('does not cache DNS errors', async () => {
    const fake = await start();
    const ctx = makeContext(fake.server);
    await resolveMailRouting(ctx, 'servfail.test');
    await resolveMailRouting(ctx, 'servfail.test');
    expect(fake.queries.filter((q) => q.name === 'servfail.test')).toHaveLength(2);
  });
});

describe('queryDns', () => {
  it('moves on to the next server when one does not answer', async () => {
    const fake = await start();
    const silent = await startFakeDns(() => ({ drop: true }));
    try {
      const answer = await queryDns([parseDnsServer(silent.server), parseDnsServer(fake.server)], 'mx1.multi.test', 'A', 200);
      expect(answer.rcode).toBe('NOERROR');
      expect(answer.answers[0]).toMatchObject({ type: 'A', data: '127.0.0.11', ttl: 300 });
      // asked twice (a UDP datagram may be lost), then the next server
      expect(silent.queries).toHaveLength(2);
    } finally {
      await silent.stop();
    }
  });
});

describe('parseDnsServer', () => {
  it('reads host, host:port, [v6]:port and bare IPv6', () => {
    expect(parseDnsServer('127.0.0.1')).toEqual({ host: '127.0.0.1', port: 53 });
    expect(parseDnsServer('127.0.0.1:5353')).toEqual({ host: '127.0.0.1', port: 5353 });
    expect(parseDnsServer('[::1]:5353')).toEqual({ host: '::1', port: 5353 });
    expect(parseDnsServer('::1')).toEqual({ host: '::1', port: 53 });
  });
});
