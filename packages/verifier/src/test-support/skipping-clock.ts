// Test helper: a clock that skips the long waits (greylist schedules) so minutes of greylisting cost nothing.
import { setTimeout as delay } from 'node:timers/promises';
import type { TClock, TSleep } from '../types';

/** Waits at least this long are skipped (the greylist schedules); shorter ones are really waited. */
export const SKIP_WAITS_FROM_MS = 10_000;

/**
 * Real time plus a skew. A wait of SKIP_WAITS_FROM_MS or more moves the clock on to its end (never backwards) and
 * returns on the next turn of the event loop; a shorter one (back-off, a busy host's retry, the idle-session close)
 * is waited on real time, as in production, so it does not rush the clock (the learned limits and caches that hold
 * for minutes on it keep their meaning). Pass `clock.now` to the mail world so its greylisting runs on it too.
 */
export function createSkippingClock(): { clock: TClock; sleep: TSleep } {
  let skewMs = 0;
  const clock = { now: () => Date.now() + skewMs };
  const sleep: TSleep = async (ms, signal) => {
    if (ms < SKIP_WAITS_FROM_MS) return delay(ms, undefined, signal ? { signal } : undefined);
    skewMs = Math.max(skewMs, clock.now() + ms - Date.now());
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { clock, sleep };
}
