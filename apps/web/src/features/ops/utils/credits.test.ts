import { describe, expect, it } from 'vitest';
import { resultingBalance } from './credits';

describe('resultingBalance', () => {
  it('adds a grant and subtracts a removal, going negative when the removal is more than the balance', () => {
    expect(resultingBalance(100, 'grant', 250)).toBe(350);
    expect(resultingBalance(100, 'remove', 100)).toBe(0);
    expect(resultingBalance(100, 'remove', 101)).toBe(-1);
  });
});
