import { describe, expect, it } from 'vitest';
import { DATE_PRESETS, formatZonedDateTime, getZonedInstant, listBucketLabels, resolveDateRange, ZDateRange } from './date-presets';

// Wednesday 11 March 2026, 02:00 in Kolkata (still the 10th in UTC and in New York).
const NOW = new Date('2026-03-10T20:30:00Z');
const iso = (d: Date) => d.toISOString();

describe('date presets', () => {
  it('evaluates every preset on the Kolkata clock', () => {
    const r = (p: (typeof DATE_PRESETS)[number]) => {
      const x = resolveDateRange(p, 'Asia/Kolkata', NOW);
      return [iso(x.from), iso(x.to), x.bucket];
    };
    expect(r('today')).toEqual(['2026-03-10T18:30:00.000Z', '2026-03-11T18:30:00.000Z', 'hour']);
    expect(r('yesterday')).toEqual(['2026-03-09T18:30:00.000Z', '2026-03-10T18:30:00.000Z', 'hour']);
    expect(r('this_week')[0]).toBe('2026-03-08T18:30:00.000Z'); // Monday 9 March
    expect(r('last_week').slice(0, 2)).toEqual(['2026-03-01T18:30:00.000Z', '2026-03-08T18:30:00.000Z']);
    expect(r('last_7_days')[0]).toBe('2026-03-04T18:30:00.000Z');
    expect(r('this_month')[0]).toBe('2026-02-28T18:30:00.000Z');
    expect(r('last_month').slice(0, 2)).toEqual(['2026-01-31T18:30:00.000Z', '2026-02-28T18:30:00.000Z']);
    expect(r('last_30_days')[0]).toBe('2026-02-09T18:30:00.000Z');
    expect(r('this_year')).toEqual(['2025-12-31T18:30:00.000Z', '2026-03-11T18:30:00.000Z', 'day']);
    expect(r('last_year')).toEqual(['2024-12-31T18:30:00.000Z', '2025-12-31T18:30:00.000Z', 'month']);
    expect(r('last_24_hours')).toEqual(['2026-03-09T20:30:00.000Z', '2026-03-10T20:30:00.000Z', 'hour']);
    expect(r('last_two_years')[0]).toBe('2024-03-11T18:30:00.000Z');
  });

  it('starts New York days at local midnight across daylight saving (8 March 2026)', () => {
    const week = resolveDateRange({ from: '2026-03-07', to: '2026-03-09' }, 'America/New_York', NOW);
    expect(iso(week.from)).toBe('2026-03-07T05:00:00.000Z'); // EST
    expect(iso(week.to)).toBe('2026-03-10T04:00:00.000Z'); // EDT
    expect(listBucketLabels(week)).toEqual(['2026-03-07', '2026-03-08', '2026-03-09']);
    expect(resolveDateRange('today', 'America/New_York', NOW).from.toISOString()).toBe('2026-03-10T04:00:00.000Z');
    expect(iso(getZonedInstant(2026, 3, 8, 'America/New_York', 3))).toBe('2026-03-08T07:00:00.000Z');
  });

  it('lists hour buckets of a half-hour zone and month buckets of a year', () => {
    expect(listBucketLabels(resolveDateRange('today', 'Asia/Kolkata', NOW))).toHaveLength(24);
    expect(listBucketLabels(resolveDateRange('last_year', 'Asia/Kolkata', NOW))).toHaveLength(12);
  });

  it('writes an instant as the wall time of a zone with its offset', () => {
    const at = new Date('2026-03-09T18:40:07Z');
    expect(formatZonedDateTime(at, 'Asia/Kolkata')).toBe('2026-03-10T00:10:07+05:30');
    expect(formatZonedDateTime(at, 'America/New_York')).toBe('2026-03-09T14:40:07-04:00');
    expect(formatZonedDateTime(new Date('2026-01-15T12:00:00Z'), 'America/New_York')).toBe('2026-01-15T07:00:00-05:00');
    expect(formatZonedDateTime(at, 'UTC')).toBe('2026-03-09T18:40:07+00:00');
    expect(formatZonedDateTime(new Date('2026-06-30T23:59:59Z'), 'Pacific/Chatham')).toBe('2026-07-01T12:44:59+12:45');
  });

  it('refuses reversed or overlong custom ranges with readable messages', () => {
    const reversed = ZDateRange.safeParse({ from: '2026-03-10', to: '2026-03-01' });
    expect(reversed.success).toBe(false);
    expect(JSON.stringify(reversed.error?.issues)).toContain('The start date must be on or before the end date');
    expect(ZDateRange.safeParse({ from: '2020-01-01', to: '2026-01-01' }).success).toBe(false);
    expect(ZDateRange.safeParse('last_decade').success).toBe(false);
  });
});
