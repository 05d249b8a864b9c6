import { describe, expect, it } from 'vitest';
import { measureEditDistance, suggestTypo } from './typo';

describe('suggestTypo', () => {
  it('fixes misspelled provider domains', () => {
    expect(suggestTypo('gmial.com')).toBe('gmail.com');
    expect(suggestTypo('john@gmai.com')).toBe('john@gmail.com');
    expect(suggestTypo('yaho.com')).toBe('yahoo.com');
    expect(suggestTypo('hotmial.com')).toBe('hotmail.com');
    expect(suggestTypo('outlok.com')).toBe('outlook.com');
  });
  it('fixes misspelled top-level domains', () => {
    expect(suggestTypo('jane@example.con')).toBe('jane@example.com');
    expect(suggestTypo('example.nte')).toBe('example.net');
  });
  it('proposes nothing for correct or unrelated domains', () => {
    expect(suggestTypo('gmail.com')).toBeNull();
    expect(suggestTypo('strict.test')).toBeNull();
    expect(suggestTypo('example.org')).toBeNull();
  });
});

describe('measureEditDistance', () => {
  it('counts insertions, deletions, substitutions and adjacent transpositions as one edit', () => {
    expect(measureEditDistance('gmail', 'gmail')).toBe(0);
    expect(measureEditDistance('gmial', 'gmail')).toBe(1);
    expect(measureEditDistance('gmai', 'gmail')).toBe(1);
    expect(measureEditDistance('gnail', 'gmail')).toBe(1);
    expect(measureEditDistance('abc', 'xyz')).toBe(3);
  });
});
