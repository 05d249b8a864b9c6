import { describe, expect, it } from 'vitest';
import { CEILING_TTL_MS, HostGate } from './host-gate';

const noSleep = async (): Promise<void> => {};

/** A session as the gate sees it: something that ends once. */
function makeSession() {
  const listeners: Array<() => void> = [];
  return { onEnd: (listener: () => void) => void listeners.push(listener), end: () => listeners.splice(0).forEach((l) => l()) };
}

describe('HostGate', () => {
  it('never lets more than the limit hold a slot at once', async () => {
    const gate = new HostGate(2, noSleep);
    // the host has held two sessions at once (slow start is past)
    gate.noteEstablished(makeSession());
    gate.noteEstablished(makeSession());
    await gate.acquire();
    await gate.acquire();
    let third = false;
    const pending = gate.acquire().then(() => (third = true));
    await Promise.resolve();
    expect(third).toBe(false);
    gate.release();
    await pending;
    expect(third).toBe(true);
    expect(gate.active).toBe(2);
  });

  it('halves the limit and doubles the delay on back-off, and recovers on success', () => {
    const gate = new HostGate(8, noSleep);
    gate.penalize();
    expect(gate.limit).toBe(4);
    expect(gate.delayMs).toBe(50);
    gate.penalize();
    expect(gate.limit).toBe(2);
    expect(gate.delayMs).toBe(100);
    for (let i = 0; i < 5; i++) gate.reward();
    expect(gate.limit).toBe(3);
    expect(gate.delayMs).toBe(0);
  });

  it('waits the back-off delay through the injected sleep before using a slot', async () => {
    const slept: number[] = [];
    const gate = new HostGate(4, async (ms) => {
      slept.push(ms);
    });
    gate.penalize();
    gate.penalize();
    await gate.acquire();
    expect(slept).toEqual([100]);
  });

  it('opens sessions in slow start: one more than the host has held at once', async () => {
    const gate = new HostGate(6, noSleep);
    expect(gate.capacity).toBe(1);
    await gate.acquire();
    let second = false;
    const pending = gate.acquire().then(() => (second = true));
    await Promise.resolve();
    expect(second).toBe(false);
    const first = makeSession();
    gate.noteEstablished(first); // the host greeted the first session: room for a second
    await pending;
    expect(second).toBe(true);
    expect(gate.capacity).toBe(2);
    first.end();
    expect(gate.established).toBe(0);
    expect(gate.capacity).toBe(2); // what the host once held stays known
  });

  it('learns the ceiling from a refusal with sessions open, keeps to it for CEILING_TTL_MS on its clock, then may probe one above', () => {
    let now = 1_000_000;
    const gate = new HostGate(6, noSleep, { now: () => now });
    expect(gate.learnCeiling()).toBe(false); // refused with nothing open: busy, not full
    for (let i = 0; i < 2; i++) gate.noteEstablished(makeSession());
    expect(gate.capacity).toBe(3);
    expect(gate.learnCeiling()).toBe(true); // the third was refused
    expect(gate.ceiling).toBe(2);
    expect(gate.capacity).toBe(2);
    for (let i = 0; i < 20; i++) gate.reward();
    expect(gate.capacity).toBe(2);
    now += CEILING_TTL_MS - 1;
    expect(gate.capacity).toBe(2);
    now += 1;
    expect(gate.capacity).toBe(3);
  });

  it('keeps a learned ceiling when a session that was already opening then is refused too (the host still counted the first refused one)', () => {
    // The host takes 2. One of our two sessions ended; two openings started (#3, #4) while it held 1: the host counted 3
    // when #3's greeting was due and refused it, and refused #4 too before our close of #3 reached it.
    const gate = new HostGate(6, noSleep, { now: () => 1_000_000 });
    const first = makeSession();
    gate.noteEstablished(first);
    gate.noteEstablished(makeSession());
    first.end();
    const third = gate.beginOpening();
    const fourth = gate.beginOpening();
    gate.endOpening();
    expect(gate.learnCeiling(null, third)).toBe(true); // held then: 1 established + #4 opening
    expect(gate.ceiling).toBe(2);
    gate.endOpening();
    expect(gate.learnCeiling(null, fourth)).toBe(true);
    expect(gate.ceiling).toBe(2);
    expect(gate.capacity).toBe(2);
    // a session opened after the ceiling was learned and refused: the host takes fewer now, and that is learned
    gate.beginOpening();
    const later = gate.beginOpening();
    gate.endOpening();
    expect(gate.learnCeiling(null, later)).toBe(true); // held then: 1 established + 1 opening
    expect(gate.ceiling).toBe(2);
    gate.endOpening();
    const last = gate.beginOpening();
    gate.endOpening();
    expect(gate.learnCeiling(null, last)).toBe(true); // held then: 1 established
    expect(gate.ceiling).toBe(1);
  });

  it('marks a host down after consecutive connection failures, for a while', () => {
    const gate = new HostGate(2, noSleep);
    gate.recordConnectFailure('smtp_timeout', 1_000);
    expect(gate.isDown(1_000)).toBe(false);
    gate.recordConnectFailure('smtp_timeout', 1_000);
    expect(gate.isDown(1_001)).toBe(true);
    expect(gate.downReason).toBe('smtp_timeout');
    expect(gate.isDown(1_000 + 60_000)).toBe(false);
  });
});
