import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailWorld, type TMailWorld } from '@verilead/mailworld';
import { verifyMany } from '../verify';
import type { TDial, TVerificationResult, TVerifyOptions } from '../types';

let world: TMailWorld;
let options: TVerifyOptions;

beforeAll(async () => {
  world = await startMailWorld({ greylistDelayMs: 200, tarpitDelayMs: 5_000 }); // tarpit beyond 4 × the reply timeout
  options = {
    dnsServers: world.dnsServers,
    smtpPort: world.smtpPort,
    heloName: 'verifier.verilead.test',
    mailFrom: 'probe@verifier.verilead.test',
    greylistSchedule: [300],
    timeouts: { dnsMs: 1_000, connectMs: 1_000, replyMs: 800, totalMs: 15_000 },
  };
});
afterAll(async () => {
  await world?.stop();
});

/** A dial that counts the SMTP connections open at once per host address (closed on QUIT, destroy or close). */
function makeCountingDial(): { dial: TDial; peak: Map<string, number>; opened: Map<string, number> } {
  const open = new Map<string, number>();
  const peak = new Map<string, number>();
  const opened = new Map<string, number>();
  const dial: TDial = ({ host, port }) => {
    const socket = net.connect({ host, port });
    open.set(host, (open.get(host) ?? 0) + 1);
    opened.set(host, (opened.get(host) ?? 0) + 1);
    peak.set(host, Math.max(peak.get(host) ?? 0, open.get(host) ?? 0));
    let closed = false;
    const markClosed = (): void => {
      if (closed) return;
      closed = true;
      open.set(host, (open.get(host) ?? 1) - 1);
    };
    const write = socket.write.bind(socket) as (chunk: unknown, ...rest: unknown[]) => boolean;
    socket.write = ((chunk: unknown, ...rest: unknown[]) => {
      if (typeof chunk === 'string' && chunk.startsWith('QUIT')) markClosed();
      return write(chunk, ...rest);
    }) as typeof socket.write;
    const destroy = socket.destroy.bind(socket);
    socket.destroy = ((error?: Error) => {
      markClosed();
      return destroy(error);
    }) as typeof socket.destroy;
    socket.on('close', markClosed);
    return socket;
  };
  return { dial, peak, opened };
}

async function collect(iterable: AsyncIterable<TVerificationResult>): Promise<TVerificationResult[]> {
  const out: TVerificationResult[] = [];
  for await (const r of iterable) out.push(r);
  return out;
}

function makeStrictAddresses(n: number): string[] {
  const known = ['alice', 'bob.jones', 'john.smith'];
  return Array.from({ length: n }, (_, i) => (i % 4 === 3 ? `unknown.${i}@strict.test` : `${known[i % 3]}@strict.test`));
}

describe('verifyMany', () => {
  it('returns one result per input, duplicates included, each carrying the input as given', async () => {
    const inputs = ['Alice@Strict.test', 'alice@strict.test', 'not-an-address', 'nobody@strict.test', 'anyone@acceptall.test', 'Alice@Strict.test'];
    const results = await collect(verifyMany(inputs, { ...options, concurrency: 3 }));
    expect(results.map((r) => r.email).sort()).toEqual([...inputs].sort());
    const byEmail = new Map(results.map((r) => [r.email, r]));
    expect(byEmail.get('Alice@Strict.test')?.status).toBe('valid');
    expect(byEmail.get('not-an-address')?.reason.code).toBe('invalid_syntax');
    expect(byEmail.get('nobody@strict.test')?.status).toBe('invalid');
    expect(byEmail.get('anyone@acceptall.test')?.status).toBe('catch_all');
  });

  it('respects the per-host concurrency limit and reuses sessions', async () => {
    // acceptall.test speaks plain SMTP (no STARTTLS), so the counting dial sees the QUIT that ends each session.
    const { dial, peak, opened } = makeCountingDial();
    const inputs = Array.from({ length: 120 }, (_, i) => `person${i}@acceptall.test`);
    const results = await collect(verifyMany(inputs, { ...options, dial, concurrency: 40, perHostConcurrency: 2 }));
    expect(results).toHaveLength(120);
    for (const r of results) expect(r.status).toBe('catch_all');
    const [host] = [...peak.keys()];
    expect(peak.size).toBe(1);
    expect(peak.get(host as string)).toBeGreaterThanOrEqual(1);
    expect(peak.get(host as string)).toBeLessThanOrEqual(2);
    // Sessions are reused (RSET between recipients): far fewer connections than addresses.
    expect(opened.get(host as string)).toBeLessThan(30);
  });

  it('does not let a dead host stall the others', async () => {
    const dead = Array.from({ length: 12 }, (_, i) => `user${i}@timeout.test`);
    const healthy = makeStrictAddresses(20);
    const order: string[] = [];
    for await (const r of verifyMany([...dead, ...healthy], { ...options, concurrency: 4, perHostConcurrency: 1 })) {
      order.push(r.email.endsWith('@timeout.test') ? 'dead' : 'healthy');
      if (r.email.endsWith('@timeout.test')) expect(r).toMatchObject({ status: 'unknown', reason: { code: 'smtp_timeout' } });
      else expect(['valid', 'invalid']).toContain(r.status);
    }
    expect(order).toHaveLength(32);
    // Every healthy address finished before the dead host produced its second result.
    const secondDead = order.indexOf('dead', order.indexOf('dead') + 1);
    expect(order.lastIndexOf('healthy')).toBeLessThan(secondDead);
  });

  it('consumes the input lazily with a bounded number in flight', async () => {
    let pulled = 0;
    async function* source(): AsyncGenerator<string> {
      for (let i = 0; i < 1_000; i++) {
        pulled++;
        yield `user${i}@nxdomain.test`;
      }
    }
    let yielded = 0;
    let maxAhead = 0;
    for await (const r of verifyMany(source(), { ...options, concurrency: 5 })) {
      yielded++;
      expect(r.reason.code).toBe('domain_not_found');
      maxAhead = Math.max(maxAhead, pulled - yielded);
    }
    expect(yielded).toBe(1_000);
    expect(maxAhead).toBeLessThanOrEqual(5 * 4);
  });

  it('stops reading the input when the consumer stops', async () => {
    let pulled = 0;
    function* source(): Generator<string> {
      for (let i = 0; i < 10_000; i++) {
        pulled++;
        yield `user${i}@nxdomain.test`;
      }
    }
    let taken = 0;
    for await (const _ of verifyMany(source(), { ...options, concurrency: 5 })) {
      if (++taken === 10) break;
    }
    expect(pulled).toBeLessThan(50);
  });
});
