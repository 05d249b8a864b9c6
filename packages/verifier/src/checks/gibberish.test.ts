import { describe, expect, it } from 'vitest';
import { checkGibberish, GIBBERISH_THRESHOLDS, scoreGibberish } from './gibberish';

const NAMES = ['john.smith', 'jsmith', 'mary', 'anne-marie', 'michael.johnson84', 'wei.zhang', 'oluwaseun', 'sven.oskarsson', 'olivia_brown', 'thomasmuller', 'sales', 'newsletter'];
const MASH = ['xkqzvbw', 'qwrtzpl', 'zxcvbnmq', 'jkdfhgkjdhfg', 'vwxqz.jdkq', 'x7f9q2kz', 'a1b2c3d4'];

describe('scoreGibberish', () => {
  it('scores names and words low', () => {
    for (const local of NAMES) expect(scoreGibberish(local), local).toBeLessThan(GIBBERISH_THRESHOLDS.low);
  });
  it('scores keyboard mash and letter/digit soup high', () => {
    for (const local of MASH) expect(scoreGibberish(local), local).toBeGreaterThanOrEqual(GIBBERISH_THRESHOLDS.high);
  });
  it('ignores the domain and +tags of a full address', () => {
    expect(scoreGibberish('john.smith+xkqzvbw@qwrtzpl.com')).toBe(scoreGibberish('john.smith'));
  });
  it('returns 0 for local parts with no letter run to judge', () => {
    expect(scoreGibberish('12345')).toBe(0);
    expect(scoreGibberish('j.d')).toBe(0);
  });
});

describe('checkGibberish thresholds', () => {
  it('orders the levels: low flags the most, high the fewest', () => {
    expect(GIBBERISH_THRESHOLDS.low).toBeLessThan(GIBBERISH_THRESHOLDS.medium);
    expect(GIBBERISH_THRESHOLDS.medium).toBeLessThan(GIBBERISH_THRESHOLDS.high);
  });
  it('flags a borderline local part at low and medium but not at high', () => {
    // 'asdfgh' is keyboard mash that still looks a little like letters of names.
    const score = scoreGibberish('asdfgh');
    expect(score).toBeGreaterThanOrEqual(GIBBERISH_THRESHOLDS.medium);
    expect(score).toBeLessThan(GIBBERISH_THRESHOLDS.high);
    expect(checkGibberish('asdfgh', 'low')).toBe(true);
    expect(checkGibberish('asdfgh', 'medium')).toBe(true);
    expect(checkGibberish('asdfgh', 'high')).toBe(false);
  });
  it('flags clear gibberish at every level and names at none', () => {
    for (const level of ['low', 'medium', 'high'] as const) {
      expect(checkGibberish('xkqzvbw', level)).toBe(true);
      expect(checkGibberish('john.smith', level)).toBe(false);
    }
  });
  it('defaults to the high threshold', () => {
    expect(checkGibberish('asdfgh')).toBe(false);
  });
});
