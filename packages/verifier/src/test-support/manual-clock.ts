// Test helper: a clock that moves only when the test moves it, and a sleep on it (the engine's injected clock/sleep).
import type { TClock, TSleep } from '../types';

export type TManualClock = {
  clock: TClock;
  sleep: TSleep;
  /** Moves the clock on by `ms`, ends the sleeps due by then, and lets the event loop run what they started. */
  advance(ms: number): Promise<void>;
  /** Sleeps not yet ended, with the duration each asked for. */
  pending(): number[];
};

/** A manual clock starting at `start` (epoch ms). A sleep whose signal is aborted rejects at once with its reason. */
export function createManualClock(start = Date.now()): TManualClock {
  let now = start;
  const sleepers: Array<{ at: number; ms: number; wake: () => void }> = [];
  const sleep: TSleep = (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const entry = {
        at: now + ms,
        ms,
        wake: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = (): void => {
        const index = sleepers.indexOf(entry);
        if (index >= 0) sleepers.splice(index, 1);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      sleepers.push(entry);
    });
  return {
    clock: { now: () => now },
    sleep,
    async advance(ms) {
      now += ms;
      const due = sleepers.filter((s) => s.at <= now);
      for (const s of due) sleepers.splice(sleepers.indexOf(s), 1);
      for (const s of due) s.wake();
      await new Promise((resolve) => setImmediate(resolve));
    },
    pending: () => sleepers.map((s) => s.ms),
  };
}
