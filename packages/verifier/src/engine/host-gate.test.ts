import { describe, expect, it } from 'vitest';
import { HostGate } from './host-gate';

const noSleep = async (): Promise<void> => {};

describe('HostGate', () => {
  it('never lets more than the limit hold a slot at once', async () => {
    const gate = new HostGate(2, noSleep);
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
