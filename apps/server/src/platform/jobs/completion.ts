import { EventEmitter } from 'node:events';
import type { TDatabase } from '../db/database';
import { sendNotify } from './completion-queries';

/**
 * Completion notices: a job says "this object is done" (an upload's analysis, an export), and a request waiting for it
 * wakes up, with no polling. The notice goes through PostgreSQL's NOTIFY, so a waiter in an API process hears a job
 * that ran in a worker process (on PGlite, one process, the embedded session carries it the same way).
 */
const CHANNEL = 'verilead_done';
/** Emitted to every waiter after the LISTEN connection was opened again (a `key` is never this symbol). */
const RESYNC = Symbol('resync');

type TNotifier = { events: EventEmitter; ready: Promise<unknown> };
const notifiers = new WeakMap<TDatabase, TNotifier>();

function notifierFor(database: TDatabase): TNotifier {
  let n = notifiers.get(database);
  if (!n) {
    const events = new EventEmitter();
    events.setMaxListeners(0);
    // One LISTEN per process and database, opened on first use, closed with the database. When its connection was
    // lost and opened again, every waiter reads its state once more: a notice sent meanwhile was missed.
    const ready = database.listen(CHANNEL, (key) => events.emit(key), () => events.emit(RESYNC)).catch(() => undefined);
    n = { events, ready };
    notifiers.set(database, n);
  }
  return n;
}

/** Wakes every process waiting for `key` (e.g. `verify_list:<id>`). Called by jobs once the object's state is written. */
export async function notifyCompletion(database: TDatabase, key: string): Promise<void> {
  await sendNotify(database.db, CHANNEL, key);
}

/**
 * Reads `check` until it answers (not undefined): once now, then each time `key` is notified, until `timeoutMs`.
 * Answers undefined when the time is up. The listener is in place before the first read, so no notice is missed.
 */
export async function waitForCompletion<T>(database: TDatabase, key: string, check: () => Promise<T | undefined>, timeoutMs: number): Promise<T | undefined> {
  const { events, ready } = notifierFor(database);
  await ready;
  let wake: (() => void) | null = null;
  let notified = false;
  const onNotice = () => {
    notified = true;
    wake?.();
  };
  events.on(key, onNotice);
  events.on(RESYNC, onNotice);
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      notified = false;
      const answer = await check();
      if (answer !== undefined) return answer;
      const left = deadline - Date.now();
      if (left <= 0) return undefined;
      if (!notified) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = null;
      }
    }
  } finally {
    events.off(key, onNotice);
    events.off(RESYNC, onNotice);
  }
}
