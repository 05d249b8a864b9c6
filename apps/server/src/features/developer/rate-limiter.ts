import type { Redis } from 'ioredis';

/** A fixed-window counter per key: in the process's memory, or in Redis so every API process shares one limit. */
export type TRateDecision = { allowed: boolean; limit: number; remaining: number; resetAt: number; retryAfterSeconds: number };

export type TRateLimiter = { hit(key: string, max: number, windowSeconds: number): TRateDecision | Promise<TRateDecision> };

/** `now` is injectable so tests decide where a window starts and ends. */
export function createRateLimiter(now: () => number = Date.now): { hit(key: string, max: number, windowSeconds: number): TRateDecision } {
  const windows = new Map<string, { start: number; count: number }>();
  let sweeps = 0;
  return {
    hit(key, max, windowSeconds) {
      const t = now();
      const windowMs = windowSeconds * 1000;
      const start = Math.floor(t / windowMs) * windowMs;
      const fullKey = `${key}|${windowSeconds}`;
      let w = windows.get(fullKey);
      if (!w || w.start !== start) {
        w = { start, count: 0 };
        windows.set(fullKey, w);
      }
      if (++sweeps % 10_000 === 0) {
        for (const [k, v] of windows) if (v.start + 86_400_000 < t) windows.delete(k);
      }
      const resetAt = start + windowMs;
      if (w.count >= max) {
        return { allowed: false, limit: max, remaining: 0, resetAt, retryAfterSeconds: Math.max(1, Math.ceil((resetAt - t) / 1000)) };
      }
      w.count += 1;
      return { allowed: true, limit: max, remaining: max - w.count, resetAt, retryAfterSeconds: 0 };
    },
  };
}

/** One atomic step: count the hit in the window's key, and let the key expire with the window. */
const HIT_SCRIPT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n`;

/**
 * The same fixed windows, counted in Redis (REDIS_URL): N API processes allow the limit once, not N times. When Redis
 * does not answer, the process's own counter decides (the API keeps serving; limits then hold per process).
 */
export function createRedisRateLimiter(redis: Redis, now: () => number = Date.now, fallback: TRateLimiter = createRateLimiter(now)): TRateLimiter {
  return {
    async hit(key, max, windowSeconds) {
      const t = now();
      const windowMs = windowSeconds * 1000;
      const start = Math.floor(t / windowMs) * windowMs;
      const resetAt = start + windowMs;
      let n: number;
      try {
        n = Number(await redis.eval(HIT_SCRIPT, 1, `vl-rl:${key}|${windowSeconds}|${start}`, String(windowMs + 1_000)));
      } catch {
        return fallback.hit(key, max, windowSeconds);
      }
      if (n > max) return { allowed: false, limit: max, remaining: 0, resetAt, retryAfterSeconds: Math.max(1, Math.ceil((resetAt - t) / 1000)) };
      return { allowed: true, limit: max, remaining: max - n, resetAt, retryAfterSeconds: 0 };
    },
  };
}
