/**
 * Small in-process caches for what every API call reads (a token's caller and app, a member's preferences).
 *
 * - Bounded: at most `max` entries; the least recently used goes first.
 * - Short-lived: an entry lives CALLER_CACHE_TTL_MS (5 s). A change made by this process invalidates the entries it
 *   touches at once (invalidateCallers); a change made by another process is seen here within the TTL.
 */
export const CALLER_CACHE_TTL_MS = 5_000;

let clock: () => number = () => Date.now();

/** Tests move the caches' clock (never the wall clock) to see an entry expire. */
export function setCacheClockForTests(now: (() => number) | null): void {
  clock = now ?? (() => Date.now());
}

export type TTtlCache<V> = {
  get(key: string): V | undefined;
  set(key: string, value: V): void;
  delete(key: string): void;
  /** Drops every entry whose value matches. */
  deleteWhere(match: (value: V, key: string) => boolean): void;
  clear(): void;
  readonly size: number;
};

export function createTtlCache<V>(opts: { max?: number; ttlMs?: number } = {}): TTtlCache<V> {
  const max = opts.max ?? 10_000;
  const ttlMs = opts.ttlMs ?? CALLER_CACHE_TTL_MS;
  const entries = new Map<string, { value: V; expires: number }>();
  return {
    get(key) {
      const e = entries.get(key);
      if (!e) return undefined;
      if (e.expires <= clock()) {
        entries.delete(key);
        return undefined;
      }
      // Most recently used last: the first key is the one to drop when full.
      entries.delete(key);
      entries.set(key, e);
      return e.value;
    },
    set(key, value) {
      entries.delete(key);
      entries.set(key, { value, expires: clock() + ttlMs });
      while (entries.size > max) {
        const oldest = entries.keys().next().value;
        if (oldest === undefined) break;
        entries.delete(oldest);
      }
    },
    delete(key) {
      entries.delete(key);
    },
    deleteWhere(match) {
      for (const [k, e] of entries) if (match(e.value, k)) entries.delete(k);
    },
    clear() {
      entries.clear();
    },
    get size() {
      return entries.size;
    },
  };
}

/** What changed: an organisation (its defaults), a member of it, or one app. */
export type TCallerChange = { orgId?: string; userId?: string; appId?: string };

const listeners = new Set<(change: TCallerChange) => void>();

/** A cache of caller data drops what a change touches (each feature registers its own caches). */
export function onCallerChange(listener: (change: TCallerChange) => void): void {
  listeners.add(listener);
}

/**
 * Called by every write that changes what a cached caller sees: app settings or token, a member's role, status or
 * limits, a member's or the organisation's preferences. This process sees the change at once.
 */
export function invalidateCallers(change: TCallerChange): void {
  for (const listener of listeners) listener(change);
}
