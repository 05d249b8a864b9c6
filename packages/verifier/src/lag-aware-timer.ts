/**
 * Timeouts that measure the remote's silence, not our own lag. A reply timer on a busy process fires late, and a
 * stalled event loop (CPU starvation, a long synchronous task, a machine shared with other work) leaves a reply that
 * already arrived unread in the socket while the timer's callback runs first. Taken at face value, that lag becomes
 * an `smtp_timeout` verdict about a host that answered in time.
 *
 * `startLagAwareTimeout` counts only the time the event loop was free to read the socket: a process-wide lag meter
 * (a 25 ms ticker running while any such timer is armed) adds up how late the loop ran, and when the timer fires:
 *  1. the loop is first let through one poll phase (setImmediate), so data already in the socket is read and the
 *     waiter settled before anything is judged;
 *  2. the lag measured since the timer was armed is subtracted from the elapsed time; if the wait's own budget is
 *     not used up yet, the timer is re-armed for the rest.
 * Only a silence that lasts `ms` of healthy event-loop time fires `onTimeout`, and the lag given back is at most
 * MAX_LAG_CREDIT × `ms`: a host silent for 4 × the timeout of wall time times out whatever our own load (a tarpit is
 * still told apart from a host that answered while we were starved).
 */

import { eventLoopClock } from './clock';

const TICK_MS = 25;
/** At most this many times the timeout is given back for our lag. */
export const MAX_LAG_CREDIT = 3;
/** Lateness below this is ordinary timer jitter, not lag. */
const JITTER_MS = 5;

let totalLagMs = 0;
let lastTick = 0;
let armed = 0;
let ticker: ReturnType<typeof setInterval> | null = null;

function tick(): void {
  const now = eventLoopClock.now();
  const late = now - lastTick - TICK_MS;
  if (late > JITTER_MS) totalLagMs += late;
  lastTick = now;
}

/** Lag measured so far (ms), including the stall in progress since the last tick. */
function lagNow(): number {
  if (!ticker) return totalLagMs;
  const pending = eventLoopClock.now() - lastTick - TICK_MS;
  return totalLagMs + (pending > JITTER_MS ? pending : 0);
}

function retain(): void {
  if (armed++ === 0) {
    lastTick = eventLoopClock.now();
    ticker = setInterval(tick, TICK_MS);
    ticker.unref?.();
  }
}

function release(): void {
  if (--armed === 0 && ticker) {
    tick();
    clearInterval(ticker);
    ticker = null;
  }
}

/**
 * Our own event-loop lag measured so far (ms; measured while any lag-aware timer is armed, as one is while a reply is
 * awaited): the difference over a wait is the part of it that was ours, not the remote's.
 */
export function measuredLagMs(): number {
  return lagNow();
}

/**
 * Calls `onTimeout` once `ms` of time in which our event loop ran freely has passed (see the file comment).
 * Answers a cancel function (idempotent). `onTimeout` receives the wall time the wait really took.
 */
export function startLagAwareTimeout(ms: number, onTimeout: (elapsedMs: number) => void): () => void {
  const start = eventLoopClock.now();
  const lagAtStart = lagNow();
  let done = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let immediate: ReturnType<typeof setImmediate> | null = null;
  retain();
  const finish = (): void => {
    if (done) return;
    done = true;
    if (timer) clearTimeout(timer);
    if (immediate) clearImmediate(immediate);
    release();
  };
  const check = (): void => {
    immediate = null;
    if (done) return;
    const elapsed = eventLoopClock.now() - start;
    const healthy = elapsed - Math.min(lagNow() - lagAtStart, MAX_LAG_CREDIT * ms);
    if (healthy < ms) {
      timer = setTimeout(onTimer, Math.max(1, Math.ceil(ms - healthy)));
      return;
    }
    finish();
    onTimeout(Math.round(elapsed));
  };
  const onTimer = (): void => {
    timer = null;
    if (done) return;
    // let the poll phase read what the socket already holds before judging the silence
    immediate = setImmediate(check);
  };
  timer = setTimeout(onTimer, Math.max(1, ms));
  return finish;
}
