import { createRequire } from 'node:module';
import type { Redis, RedisOptions } from 'ioredis';

const requireModule = createRequire(import.meta.url);

/**
 * A Redis client (REDIS_URL: the rate limits and the verifier's shared cache). ioredis is loaded with the first client,
 * so a server without Redis never holds it; it is CommonJS, so loading it here stays synchronous for the callers.
 */
export function createRedisClient(url: string, options: RedisOptions): Redis {
  const { Redis: RedisClient } = requireModule('ioredis') as { Redis: typeof Redis };
  return new RedisClient(url, options);
}
