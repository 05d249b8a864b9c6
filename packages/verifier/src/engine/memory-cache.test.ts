import { describe, expect, it } from 'vitest';
import { MemoryCache } from './memory-cache';

describe('MemoryCache', () => {
  it('expires entries after their TTL on the injected clock', () => {
    let now = 1000;
    const cache = new MemoryCache(10, { now: () => now });
    cache.set('a', 1, 500);
    expect(cache.get('a')).toBe(1);
    now = 1499;
    expect(cache.get('a')).toBe(1);
    now = 1500;
    expect(cache.get('a')).toBeUndefined();
  });
  it('evicts the least recently used entry when full', () => {
    const cache = new MemoryCache(2, { now: () => 0 });
    cache.set('a', 1, 1000);
    cache.set('b', 2, 1000);
    cache.get('a');
    cache.set('c', 3, 1000);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(1);
    expect(cache.get('c')).toBe(3);
    expect(cache.size).toBe(2);
  });
  it('does not store entries with a zero TTL', () => {
    const cache = new MemoryCache();
    cache.set('a', 1, 0);
    expect(cache.get('a')).toBeUndefined();
  });
});
