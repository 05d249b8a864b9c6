import type { Redis } from 'ioredis';
import { MemoryCache, type TVerifierCache } from '@verilead/verifier';

const PREFIX = 'vl-verifier:';
/** How long an answer read from Redis is kept in this process before Redis is asked again. */
const LOCAL_MS = 60_000;

/**
 * The verifier's DNS and catch-all cache shared by every process through Redis (REDIS_URL), with a small
 * in-process cache in front so a hot domain costs no round trip. Redis trouble never changes a verdict: a failed
 * read is a miss, a failed write is skipped, and the process carries on with its own memory.
 */
export class RedisVerifierCache implements TVerifierCache {
  private readonly local: MemoryCache;
  private readonly prefix: string;

  /**
   * `namespace` keeps apart processes that see a different DNS (e.g. each test's own mail world): only processes
   * with the same resolvers share answers.
   */
  constructor(
    private readonly redis: Redis,
    namespace = 'system',
    localEntries = 50_000,
  ) {
    this.local = new MemoryCache(localEntries);
    this.prefix = `${PREFIX}${namespace}:`;
  }

  async get(key: string): Promise<unknown> {
    const near = this.local.get(key);
    if (near !== undefined) return near;
    try {
      const [[, raw], [, ttl]] = (await this.redis.multi().get(this.prefix + key).pttl(this.prefix + key).exec()) as [[unknown, string | null], [unknown, number]];
      if (raw === null) return undefined;
      const value: unknown = JSON.parse(raw);
      this.local.set(key, value, Math.min(LOCAL_MS, ttl > 0 ? ttl : LOCAL_MS));
      return value;
    } catch {
      return undefined;
    }
  }

  async set(key: string, value: unknown, ttlMs: number): Promise<void> {
    this.local.set(key, value, Math.min(LOCAL_MS, ttlMs));
    try {
      await this.redis.set(this.prefix + key, JSON.stringify(value), 'PX', Math.max(1, Math.round(ttlMs)));
    } catch {
      // the process keeps its own copy
    }
  }
}
