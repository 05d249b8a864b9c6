import type { TClock } from './types';

/**
 * The engine's time when none is injected: epoch milliseconds. Every reading of the time in this package goes through
 * a `TClock`: the engine's (handed down to its runs, caches and host gates), so a test's clock moves everything the
 * engine dates at once; this file is the only place that reads the system's.
 */
export const systemClock: TClock = { now: () => Date.now() };

/**
 * The time real timers run on (monotonic, sub-millisecond): the SMTP sockets' reply timeouts and the lag meter of
 * lag-aware-timer.ts, which measures how late those timers fire. Never the engine's clock: a test clock that jumps
 * would count as lag or cut a reply short, one that stands still would never let a timeout end. Nothing is dated on
 * it: the engine hands a socket the time left to its deadline (a duration), never a time of its own clock.
 */
export const eventLoopClock: TClock = { now: () => performance.now() };

/** A clock time (epoch ms) as an ISO 8601 string: results are stamped with the engine's clock, not the system's. */
export const isoTime = (epochMs: number): string => new Date(epochMs).toISOString();
