import { describe, expect, it } from 'vitest';
import type { THostBudgetStore, THostLessons } from '../types';
import { HostGate } from './host-gate';
import { inProcessHostBudgets, SharedHostLessons } from './host-budgets';

/** A store that answers what the test says other processes learned, and records what this process teaches. */
function fakeStore(): THostBudgetStore & { known: THostLessons | undefined; taught: Array<[string, THostLessons]> } {
  const store = {
    known: undefined as THostLessons | undefined,
    taught: [] as Array<[string, THostLessons]>,
    lessons: () => store.known,
    learn: (host: string, lessons: THostLessons) => void store.taught.push([host, lessons]),
    lease: () => null,
  };
  return store;
}

const clock = { now: () => 1_000_000 };
const newGate = () => new HostGate(3, () => Promise.resolve(), clock);

describe('a mail host\'s lessons shared with other processes (host-budgets.ts)', () => {
  it('a gate takes the lower ceiling and budgets and the longer pause the other processes learned, once per read', () => {
    const store = fakeStore();
    const shared = new SharedHostLessons(store, clock);
    const gate = newGate();
    shared.track('10.0.0.1:25', gate);
    expect(gate.capacity).toBe(1); // slow start, nothing known
    store.known = { ceiling: { value: 2, forMs: 60_000 }, budget: { errors: 5, nonMail: 6 }, down: { forMs: 30_000, reason: 'smtp_timeout' } };
    shared.adopt(gate);
    expect(gate.ceiling).toBe(2);
    expect(gate.ceilingUntil).toBe(1_060_000);
    expect(gate.budget).toMatchObject({ errors: 5, nonMail: 6 });
    expect(gate.isDown(clock.now())).toBe(true);
    expect(gate.downReason).toBe('smtp_timeout');
    // what was adopted is not sent back
    shared.share(gate);
    expect(store.taught).toEqual([]);
  });

  it('what a gate learns itself (a ceiling from a 421, a cut session) is sent once, with how long it holds', () => {
    const store = fakeStore();
    const shared = new SharedHostLessons(store, clock);
    const gate = newGate();
    shared.track('10.0.0.2:25', gate);
    gate.learnCeiling(3); // three connections held by every process together when the host refused one more
    shared.share(gate);
    shared.share(gate);
    gate.budget.learnCut({ errors: 7, nonMail: 2 });
    shared.share(gate);
    expect(store.taught).toEqual([
      ['10.0.0.2:25', { ceiling: { value: 3, forMs: 30 * 60_000 } }],
      ['10.0.0.2:25', { budget: { errors: 5, nonMail: 8 } }],
    ]);
  });

  it('the in-process default shares nothing and grants every connection at once', () => {
    const shared = new SharedHostLessons(inProcessHostBudgets, clock);
    const gate = newGate();
    shared.track('10.0.0.3:25', gate);
    gate.learnCeiling(2);
    shared.share(gate);
    const lease = shared.lease(gate, 1_000, undefined, new AbortController().signal);
    expect(lease).not.toBeInstanceOf(Promise);
    expect(lease).not.toBeNull();
  });
});
