/** A fixed-window counter per key (process-local). */
export type TRateDecision = { allowed: boolean; limit: number; remaining: number; resetAt: number; retryAfterSeconds: number };

export type TRateLimiter = { hit(key: string, max: number, windowSeconds: number): TRateDecision };

/** `now` is injectable so tests decide where a window starts and ends. */
export function createRateLimiter(now: () => number = Date.now): TRateLimiter {
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
