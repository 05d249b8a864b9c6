import type { TClock, THostBudgetStore, THostLease, THostLessons } from '../types';
import type { HostGate } from './host-gate';

/** The lease of the in-process store: the gate's own count is the only one. */
const NO_LEASE: THostLease = { refused: () => Promise.resolve(null), established: () => undefined, release: () => undefined };

/**
 * The default host-budget store: this engine alone. Each gate learns and enforces its host's limits for the process
 * (host-gate.ts); nothing is shared, leases are granted at once (synchronously) and count nothing.
 */
export const inProcessHostBudgets: THostBudgetStore = {
  lessons: () => undefined,
  learn: () => undefined,
  lease: () => NO_LEASE,
};

/** What a gate's lessons were when last shared or adopted (so only what changed since is sent). */
type TSeen = { key: string; ceiling: number; ceilingUntil: number; errors: number; nonMail: number; downUntil: number; read: THostLessons | undefined };

/**
 * The bridge between the gates of one engine and a shared host-budget store: `adopt` folds what other processes
 * learned (as last read by the store, no round trip) into a gate, `share` sends what the gate learned since. Both are
 * plain comparisons when nothing changed, so they may run on every use of a host.
 */
export class SharedHostLessons {
  private readonly seen = new WeakMap<HostGate, TSeen>();

  constructor(
    private readonly store: THostBudgetStore,
    private readonly clock: TClock,
  ) {}

  /** Whether the store is shared at all (the in-process one needs no bookkeeping: no gate is tracked). */
  private get shared(): boolean {
    return this.store !== inProcessHostBudgets;
  }

  /** A new gate, of the host "ip:port": what other processes learned of it applies at once. */
  track(key: string, gate: HostGate): void {
    if (!this.shared) return;
    this.seen.set(gate, { key, ceiling: gate.ceiling, ceilingUntil: gate.ceilingUntil, errors: gate.budget.errors, nonMail: gate.budget.nonMail, downUntil: gate.downUntil, read: undefined });
    this.adopt(gate);
  }

  /**
   * A lease for one more connection to the gate's host (the in-process store grants it at once); the wait ends when
   * either signal aborts (the call's, the engine closing).
   */
  lease(gate: HostGate, waitMs: number, signal: AbortSignal | undefined, closing: AbortSignal): THostLease | null | Promise<THostLease | null> {
    const seen = this.seen.get(gate);
    if (!seen) return NO_LEASE;
    return this.store.lease(seen.key, waitMs, signal ? AbortSignal.any([signal, closing]) : closing);
  }

  /** Fold the other processes' lessons into the gate: the lower ceiling and budgets, the longer pause. */
  adopt(gate: HostGate): void {
    const seen = this.seen.get(gate);
    if (!seen) return;
    const read = this.store.lessons(seen.key);
    if (!read || read === seen.read) return;
    seen.read = read;
    const now = this.clock.now();
    if (read.ceiling && read.ceiling.forMs > 0) {
      gate.ceiling = gate.ceilingUntil > now ? Math.min(gate.ceiling, read.ceiling.value) : read.ceiling.value;
      gate.ceilingUntil = Math.max(gate.ceilingUntil, now + read.ceiling.forMs);
    }
    if (read.budget) {
      gate.budget.errors = Math.min(gate.budget.errors, read.budget.errors);
      gate.budget.nonMail = Math.min(gate.budget.nonMail, read.budget.nonMail);
    }
    if (read.down && now + read.down.forMs > gate.downUntil) {
      gate.downUntil = now + read.down.forMs;
      gate.downReason = read.down.reason;
    }
    Object.assign(seen, { ceiling: gate.ceiling, ceilingUntil: gate.ceilingUntil, errors: gate.budget.errors, nonMail: gate.budget.nonMail, downUntil: gate.downUntil });
  }

  /**
   * Send what the gate learned since it last shared or adopted (a new ceiling, a lower budget, a pause), after
   * folding in what the others learned: called as each transaction ends and after a failed open.
   */
  share(gate: HostGate): void {
    const seen = this.seen.get(gate);
    if (!seen) return;
    this.adopt(gate);
    const now = this.clock.now();
    const lessons: THostLessons = {};
    if (gate.ceilingUntil > now && (gate.ceiling !== seen.ceiling || gate.ceilingUntil !== seen.ceilingUntil)) {
      lessons.ceiling = { value: gate.ceiling, forMs: gate.ceilingUntil - now };
    }
    if (gate.budget.errors < seen.errors || gate.budget.nonMail < seen.nonMail) lessons.budget = { errors: gate.budget.errors, nonMail: gate.budget.nonMail };
    if (gate.downUntil > now && gate.downUntil !== seen.downUntil) lessons.down = { forMs: gate.downUntil - now, reason: gate.downReason };
    Object.assign(seen, { ceiling: gate.ceiling, ceilingUntil: gate.ceilingUntil, errors: gate.budget.errors, nonMail: gate.budget.nonMail, downUntil: gate.downUntil });
    if (lessons.ceiling || lessons.budget || lessons.down) this.store.learn(seen.key, lessons);
  }
}
