import { describe, expect, it } from 'vitest';
import { SeenKeys } from './seen-keys';

describe('SeenKeys', () => {
  it('answers true for new keys and false for keys seen before, across growth', () => {
    const seen = new SeenKeys(4);
    for (let i = 0; i < 50_000; i += 1) expect(seen.add(`user${i}@example.test`)).toBe(true);
    for (let i = 0; i < 50_000; i += 997) expect(seen.add(`user${i}@example.test`)).toBe(false);
    expect(seen.size).toBe(50_000);
  });

  it('never misses a repeat (a collision may only make a new key look seen)', () => {
    const seen = new SeenKeys();
    const keys = Array.from({ length: 200_000 }, (_, i) => `k${(i * 7919) % 100_000}`);
    const firstTime = new Set<string>();
    for (const k of keys) {
      const added = seen.add(k);
      if (firstTime.has(k)) expect(added).toBe(false);
      firstTime.add(k);
    }
  });

  it('remembers the row each hash was first seen on, across growth', () => {
    const seen = new SeenKeys(4, { rows: true });
    for (let i = 1; i <= 20_000; i += 1) expect(seen.addRow(`user${i}@example.test`, i)).toBe(0);
    for (let i = 1; i <= 20_000; i += 499) expect(seen.addRow(`user${i}@example.test`, 50_000 + i)).toBe(i);
    expect(seen.size).toBe(20_000);
  });
});
