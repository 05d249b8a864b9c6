import { maskAddresses } from '../smtp/mask-addresses';
import type { TClock, THostPause, THostRef, TSleep } from '../types';

/** Replies kept per mail host for the operator's view (the last few final reply lines). */
export const RECENT_REPLIES = 8;
/** A reply line is cut to this many characters in the view. */
const REPLY_CHARS = 200;

export type TRecentReply = { at: number; line: string };

/** A final SMTP reply line ("250 2.1.5 Ok", not a "250-PIPELINING" continuation). */
const FINAL_REPLY = /^\d{3}(?: |$)/;

const normalise = (name: string): string => name.trim().toLowerCase().replace(/\.$/, '');

/**
 * The operator's side of each mail host, kept apart from the gates (host-gate.ts): the last replies the host gave
 * (a small ring buffer per host), the MX name it was last reached as, and the pause an operator may put on it
 * (injected: `TVerifyOptions.hostPause`). New work for a paused host waits before it takes a slot (see `waitWhilePaused`):
 * nothing is failed or answered for it, and the wait never counts against the call's own time limit.
 */
export class HostWatch {
  private readonly replies = new Map<string, TRecentReply[]>();
  private readonly exchanges = new Map<string, string>();

  constructor(
    private readonly clock: TClock,
    private readonly sleep: TSleep,
    readonly pause: THostPause | null,
  ) {}

  /**
   * Wraps a session's transcript sink so the host's final replies are also kept (newest last, RECENT_REPLIES at most),
   * their e-mail addresses masked (`<…@corp.com>`): every operator sees them, not only those with a support grant.
   */
  tap<T extends ((direction: 'C' | 'S', line: string) => void) | undefined>(key: string, sink: T): (direction: 'C' | 'S', line: string) => void {
    return (direction, line) => {
      if (direction === 'S' && FINAL_REPLY.test(line)) {
        let ring = this.replies.get(key);
        if (!ring) this.replies.set(key, (ring = []));
        const shown = maskAddresses(line);
        ring.push({ at: this.clock.now(), line: shown.length > REPLY_CHARS ? `${shown.slice(0, REPLY_CHARS)}…` : shown });
        if (ring.length > RECENT_REPLIES) ring.shift();
      }
      sink?.(direction, line);
    };
  }

  noteExchange(key: string, exchange: string): void {
    this.exchanges.set(key, normalise(exchange));
  }

  recentReplies(key: string): TRecentReply[] {
    return [...(this.replies.get(key) ?? [])];
  }

  exchange(key: string): string | null {
    return this.exchanges.get(key) ?? null;
  }

  /** Whether the host ("ip:port", as last reached, or as `ref` names it) is paused now. */
  isPaused(key: string, ref?: THostRef): boolean {
    if (!this.pause) return false;
    return this.pause.isPaused(ref ?? { key, ip: key.slice(0, key.lastIndexOf(':')), exchange: this.exchanges.get(key) ?? '' });
  }

  /**
   * Waits while the host is paused: until the pause is lifted (answers how long it waited: the caller moves its deadline
   * back by as much), `maxMs` passes (answers null: the caller gives up on the host), or the call is cancelled
   * (rejects with the signal's reason).
   */
  async waitWhilePaused(ref: THostRef, run: { signal: AbortSignal | undefined; onParked: ((delta: number) => void) | undefined; pauseWaitMs: number | null }): Promise<number | null> {
    const pause = this.pause;
    if (!pause?.isPaused(ref)) return 0;
    const { signal } = run;
    const before = this.clock.now();
    const giveUp = new AbortController();
    const stop = signal ? AbortSignal.any([signal, giveUp.signal]) : giveUp.signal;
    let expired = false;
    if (run.pauseWaitMs !== null) {
      this.sleep(run.pauseWaitMs, stop).then(
        () => {
          expired = true;
          giveUp.abort();
        },
        () => undefined,
      );
    }
    run.onParked?.(+1);
    try {
      while (pause.isPaused(ref) && !expired) {
        if (signal?.aborted) throw signal.reason;
        await pause.nextChange(stop);
      }
      if (signal?.aborted) throw signal.reason;
    } finally {
      run.onParked?.(-1);
      giveUp.abort();
    }
    return expired ? null : this.clock.now() - before;
  }
}

/**
 * The pause set a process keeps (the server fills it from its database): each entry an "ip:port", an ip or an MX host
 * name (case-insensitive). `set` replaces the list and wakes every waiter whose host may have been resumed.
 */
export class PausedHosts implements THostPause {
  private entries = new Set<string>();
  private waiters: Array<() => void> = [];

  set(list: Iterable<string>): void {
    const next = new Set([...list].map(normalise).filter((e) => e.length > 0));
    const same = next.size === this.entries.size && [...next].every((e) => this.entries.has(e));
    this.entries = next;
    if (!same) for (const wake of this.waiters.splice(0)) wake();
  }

  list(): string[] {
    return [...this.entries];
  }

  isPaused(host: THostRef): boolean {
    if (this.entries.size === 0) return false;
    return this.entries.has(host.key) || this.entries.has(host.ip) || (host.exchange !== '' && this.entries.has(normalise(host.exchange)));
  }

  nextChange(signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = (): void => {
        signal?.removeEventListener('abort', done);
        const index = this.waiters.indexOf(done);
        if (index >= 0) this.waiters.splice(index, 1);
        resolve();
      };
      if (signal?.aborted) return resolve();
      signal?.addEventListener('abort', done, { once: true });
      this.waiters.push(done);
    });
  }
}
