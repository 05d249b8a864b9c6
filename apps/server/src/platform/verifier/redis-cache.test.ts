import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailWorld, type TMailWorld } from '@verilead/mailworld';
import { VerifierEngine } from '@verilead/verifier';
import { RedisVerifierCache } from './redis-cache';
import { isRedisUpForTests } from '../../test/reachable';

const redisUp = await isRedisUpForTests();

describe.skipIf(!redisUp)('the verifier cache in Redis (shared across processes)', () => {
  let world: TMailWorld;
  const clients: Redis[] = [];
  const connect = () => {
    const client = new Redis('redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
    clients.push(client);
    return client;
  };
  beforeAll(async () => {
    world = await startMailWorld();
  });
  afterAll(async () => {
    for (const client of clients) client.disconnect();
    await world?.stop();
  });

  it('a value set by one process is read by another, with its time to live', async () => {
    const a = new RedisVerifierCache(connect());
    const b = new RedisVerifierCache(connect());
    const key = `test:${Date.now()}:${Math.random()}`;
    await a.set(key, { kind: 'mx', hosts: [] }, 5_000);
    expect(await b.get(key)).toEqual({ kind: 'mx', hosts: [] });
    expect(await b.get(`${key}:missing`)).toBeUndefined();
  });

  it('a catch-all learned by one engine is known to an engine of another process: no second random probe', async () => {
    const options = {
      dnsServers: world.dnsServers,
      smtpPort: world.smtpPort,
      heloName: 'verifier.verilead.test',
      mailFrom: 'probe@verifier.verilead.test',
      timeouts: { dnsMs: 1_000, connectMs: 1_000, replyMs: 1_000, totalMs: 10_000 },
    };
    // Namespaced by the world's DNS server, as the server does, plus this run's own mark: Redis outlives the run, and a
    // later world may get the same loopback port; without the mark it found this run's catch-all (6 h) already known.
    const namespace = `${world.dnsServers.join(',')}#${randomUUID()}`;
    const first = new VerifierEngine({ ...options, cache: new RedisVerifierCache(connect(), namespace) });
    const second = new VerifierEngine({ ...options, cache: new RedisVerifierCache(connect(), namespace) });
    try {
      const learnt = await first.verify('anyone@acceptall.test');
      expect(learnt.status).toBe('catch_all');
      expect(learnt.transcript.filter((l) => l.line.startsWith('RCPT TO:'))).toHaveLength(2);
      const known = await second.verify('someone.else@acceptall.test');
      expect(known.status).toBe('catch_all');
      expect(known.transcript.filter((l) => l.line.startsWith('RCPT TO:'))).toHaveLength(1);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  it('a Redis outage only costs cache hits', async () => {
    const down = new Redis('redis://127.0.0.1:1', { maxRetriesPerRequest: 0, lazyConnect: true, retryStrategy: () => null });
    down.on('error', () => undefined);
    const cache = new RedisVerifierCache(down);
    await cache.set('k', 1, 1_000);
    expect(await cache.get('k')).toBe(1); // from the process's own memory
    expect(await cache.get('other')).toBeUndefined();
    down.disconnect();
  });
});
