import { afterEach, describe, expect, it } from 'vitest';
import { buildLogin } from '../test/fixtures';
import { useSessionStore } from './session-store';
import {
  formatDate,
  formatDateTime,
  formatBalance,
  formatCompactNumber,
  formatDayLabel,
  formatDuration,
  formatLimitUsage,
  formatMoney,
  getRiskLevel,
  getScoreLabel,
  truncateMiddle,
} from './format';

describe('formatCompactNumber', () => {
  it('keeps numbers up to 999 and abbreviates above', () => {
    expect(formatCompactNumber(0)).toBe('0');
    expect(formatCompactNumber(999)).toBe('999');
    expect(formatCompactNumber(1000)).toBe('1k');
    expect(formatCompactNumber(1550)).toBe('1.5k');
    expect(formatCompactNumber(12_345)).toBe('12.3k');
    expect(formatCompactNumber(999_999)).toBe('999.9k');
    expect(formatCompactNumber(1_000_000)).toBe('1M');
    expect(formatCompactNumber(2_750_000)).toBe('2.7M');
    expect(formatCompactNumber(-4200)).toBe('-4.2k');
  });
});

describe('formatBalance', () => {
  it('shows a balance exactly below 100,000 and abbreviated above', () => {
    expect(formatBalance(9_989)).toBe('9,989');
    expect(formatBalance(99_999)).toBe('99,999');
    expect(formatBalance(100_000)).toBe('100k');
    expect(formatBalance(1_234_567)).toBe('1.2M');
    expect(formatBalance(-50)).toBe('-50');
  });
});

describe('formatMoney', () => {
  it('uses $K, $M, $B and shows 0 as Undisclosed Amount', () => {
    expect(formatMoney(0)).toBe('Undisclosed Amount');
    expect(formatMoney(500)).toBe('$500');
    expect(formatMoney(25_000)).toBe('$25K');
    expect(formatMoney(3_400_000)).toBe('$3.4M');
    expect(formatMoney(7_000_000_000)).toBe('$7B');
  });
});

describe('formatDuration', () => {
  it('reads in minutes, hours or days', () => {
    expect(formatDuration(60_000)).toBe('1 minute');
    expect(formatDuration(45 * 60_000)).toBe('45 minutes');
    expect(formatDuration(3 * 3_600_000)).toBe('3 hours');
    expect(formatDuration(50 * 3_600_000)).toBe('2 days');
  });
});

describe('truncateMiddle', () => {
  it('puts ... in the middle', () => {
    expect(truncateMiddle('short', 10)).toBe('short');
    expect(truncateMiddle('averyveryverylongname@example.com', 15)).toBe('averyv...le.com');
    expect(truncateMiddle('averyveryverylongname@example.com', 15)).toHaveLength(15);
  });
});

describe('formatDayLabel', () => {
  it('says Today, Tomorrow or In N days', () => {
    const now = '2026-03-10T09:00:00';
    expect(formatDayLabel('2026-03-10T23:00:00', now)).toBe('Today');
    expect(formatDayLabel('2026-03-11T01:00:00', now)).toBe('Tomorrow');
    expect(formatDayLabel('2026-03-15T08:00:00', now)).toBe('In 5 days');
    expect(formatDayLabel('2026-03-09T08:00:00', now)).toBe('Yesterday');
    expect(formatDayLabel('2026-03-07T08:00:00', now)).toBe('3 days ago');
  });

  it("counts calendar days in the user's timezone, not the browser's", () => {
    // 22:30 UTC on the 10th is already the 11th in Kolkata (UTC+5:30) and still the 10th in New York.
    const now = '2026-03-10T12:00:00Z';
    expect(formatDayLabel('2026-03-10T22:30:00Z', now, 'Asia/Kolkata')).toBe('Tomorrow');
    expect(formatDayLabel('2026-03-10T22:30:00Z', now, 'America/New_York')).toBe('Today');
    expect(formatDayLabel('2026-03-10T02:00:00Z', now, 'America/New_York')).toBe('Yesterday');
  });
});

describe('score and risk labels (spec section 5)', () => {
  it('labels scores', () => {
    expect(getScoreLabel(0)).toBe('-');
    expect(getScoreLabel(null)).toBe('-');
    expect(getScoreLabel(1)).toBe('Very Low');
    expect(getScoreLabel(30)).toBe('Very Low');
    expect(getScoreLabel(31)).toBe('Low');
    expect(getScoreLabel(60)).toBe('Low');
    expect(getScoreLabel(61)).toBe('Moderate');
    expect(getScoreLabel(80)).toBe('Moderate');
    expect(getScoreLabel(81)).toBe('High');
  });

  it('labels risk', () => {
    expect(getRiskLevel(100)).toEqual({ label: 'No Risk', value: 'no_risk' });
    expect(getRiskLevel(75)).toEqual({ label: 'Low Risk', value: 'no_risk' });
    expect(getRiskLevel(74)).toEqual({ label: 'Moderate Risk', value: 'moderate_risk' });
    expect(getRiskLevel(50).label).toBe('Moderate Risk');
    expect(getRiskLevel(49)).toEqual({ label: 'High Risk', value: 'high_risk' });
  });
});

describe('formatLimitUsage', () => {
  it('shows Unlimited or what is left', () => {
    expect(formatLimitUsage({ limit: null, used: 5, remaining: null })).toBe('Unlimited');
    expect(formatLimitUsage({ limit: 1000, used: 250, remaining: 750 })).toBe('750 of 1,000 left');
  });
});

describe('dates follow the user timezone setting', () => {
  afterEach(() => useSessionStore.getState().logout());

  it('formats in the given zone', () => {
    expect(formatDateTime('2026-11-22T20:05:00Z', 'Asia/Kolkata')).toBe('23 Nov 2026, 01:35');
    expect(formatDate('2026-11-22T20:05:00Z', 'Asia/Kolkata')).toBe('23 Nov 2026');
    expect(formatDateTime('2026-11-22T20:05:00Z', 'America/New_York')).toBe('22 Nov 2026, 15:05');
    expect(formatDateTime('2026-11-22T20:05:00Z', 'Asia/Calcutta')).toBe('23 Nov 2026, 01:35');
  });

  it("reads the zone from the session's user", () => {
    useSessionStore.getState().fillSession(buildLogin({ timezone: 'Asia/Kolkata' }));
    expect(formatDateTime('2026-11-22T20:05:00Z')).toBe('23 Nov 2026, 01:35');
    useSessionStore.getState().setTimezone('UTC');
    expect(formatDateTime('2026-11-22T20:05:00Z')).toBe('22 Nov 2026, 20:05');
    expect(formatDate(null)).toBe('-');
    expect(formatDateTime('not a date')).toBe('-');
  });
});
