import { z } from 'zod';

// The date presets of spec section 9 and custom ranges, evaluated in a time zone. Server and web use
// the same functions, so a report and its screen agree on where "today" starts.

export const DATE_PRESETS = [
  'today',
  'yesterday',
  'this_week',
  'last_7_days',
  'last_week',
  'this_month',
  'last_month',
  'this_year',
  'last_30_days',
  'last_year',
  'last_24_hours',
  'last_two_years',
] as const;
export const ZDatePreset = z.enum(DATE_PRESETS, { message: `Please choose one of: ${DATE_PRESETS.join(', ')}` });
export type TDatePreset = z.infer<typeof ZDatePreset>;

export const DATE_PRESET_LABELS: Readonly<Record<TDatePreset, string>> = {
  today: 'Today',
  yesterday: 'Yesterday',
  this_week: 'This week',
  last_7_days: 'Last 7 days',
  last_week: 'Last week',
  this_month: 'This month',
  last_month: 'Last month',
  this_year: 'This year',
  last_30_days: 'Last 30 days',
  last_year: 'Last year',
  last_24_hours: 'Last 24 hours',
  last_two_years: 'Last two years',
};

/** The longest custom range, in days (a little over two years, like the longest preset). */
export const CUSTOM_RANGE_MAX_DAYS = 800;

const ZLocalDay = z.iso.date({ message: 'Please enter a date such as 2026-05-01' });

/** A custom range: whole local days, both ends included. */
export const ZCustomDateRange = z
  .object({ from: ZLocalDay, to: ZLocalDay })
  .refine((r) => r.from <= r.to, { message: 'The start date must be on or before the end date', path: ['from'] })
  .refine((r) => (Date.parse(`${r.to}T00:00:00Z`) - Date.parse(`${r.from}T00:00:00Z`)) / 86_400_000 < CUSTOM_RANGE_MAX_DAYS, {
    message: `Please choose a range of at most ${CUSTOM_RANGE_MAX_DAYS} days`,
    path: ['to'],
  });
export type TCustomDateRange = z.infer<typeof ZCustomDateRange>;

/** A preset name or a custom range. */
export const ZDateRange = z.union([ZDatePreset, ZCustomDateRange], { message: 'Please choose a date range' });
export type TDateRange = z.infer<typeof ZDateRange>;

export type TBucketSize = 'hour' | 'day' | 'month';

/** A range as instants: `from` included, `to` excluded, with the bucket size its charts use. */
export type TResolvedRange = { from: Date; to: Date; bucket: TBucketSize; timeZone: string };

type TLocalParts = { year: number; month: number; day: number; hour: number; minute: number; weekday: number };

const partFormatters = new Map<string, Intl.DateTimeFormat>();
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** The wall-clock parts of `instant` in `timeZone` (weekday 0 = Sunday). */
export function getLocalParts(instant: Date, timeZone: string): TLocalParts {
  let formatter = partFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      weekday: 'short',
      hourCycle: 'h23',
    });
    partFormatters.set(timeZone, formatter);
  }
  const parts: Record<string, string> = {};
  for (const p of formatter.formatToParts(instant)) parts[p.type] = p.value;
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour) % 24,
    minute: Number(parts.minute),
    weekday: WEEKDAYS.indexOf(parts.weekday ?? 'Sun'),
  };
}

function offsetAt(instant: number, timeZone: string): number {
  const p = getLocalParts(new Date(instant), timeZone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute);
  return asUtc - Math.floor(instant / 60_000) * 60_000;
}

/** The instant the wall clock in `timeZone` shows year-month-day hour:00 (days and months may overflow, as in Date.UTC). */
export function getZonedInstant(year: number, month: number, day: number, timeZone: string, hour = 0): Date {
  const wall = Date.UTC(year, month - 1, day, hour);
  let instant = wall - offsetAt(wall, timeZone);
  const second = wall - offsetAt(instant, timeZone);
  if (second !== instant) instant = second;
  return new Date(instant);
}

/** YYYY-MM-DD of `instant` in `timeZone`. */
export function getLocalDay(instant: Date, timeZone: string): string {
  const p = getLocalParts(instant, timeZone);
  return `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
}

/**
 * `instant` as the wall time of `timeZone` with its UTC offset, in ISO 8601: 2026-03-10T00:10:00+05:30. For files a
 * person opens (the activity download): the time they see is their own, and it still names one instant.
 */
export function formatZonedDateTime(instant: Date, timeZone: string): string {
  const p = getLocalParts(instant, timeZone);
  const pad = (n: number) => String(n).padStart(2, '0');
  const offset = Math.round(offsetAt(instant.getTime(), timeZone) / 60_000);
  const abs = Math.abs(offset);
  const seconds = Math.floor((((instant.getTime() % 60_000) + 60_000) % 60_000) / 1000);
  return `${p.year}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}:${pad(seconds)}${offset < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

function pickBucket(from: Date, to: Date): TBucketSize {
  const hours = (to.getTime() - from.getTime()) / 3_600_000;
  if (hours <= 49) return 'hour';
  if (hours <= 93 * 24) return 'day';
  return 'month';
}

function parseDay(value: string): { year: number; month: number; day: number } {
  const [year, month, day] = value.split('-').map(Number);
  return { year: year!, month: month!, day: day! };
}

/** Turns a preset or custom range into instants in `timeZone`, relative to `now`. */
export function resolveDateRange(range: TDateRange, timeZone: string, now: Date = new Date()): TResolvedRange {
  const at = (y: number, m: number, d: number) => getZonedInstant(y, m, d, timeZone);
  const done = (from: Date, to: Date): TResolvedRange => ({ from, to, bucket: pickBucket(from, to), timeZone });
  if (typeof range !== 'string') {
    const a = parseDay(range.from);
    const b = parseDay(range.to);
    return done(at(a.year, a.month, a.day), at(b.year, b.month, b.day + 1));
  }
  const p = getLocalParts(now, timeZone);
  const { year: y, month: m, day: d } = p;
  const tomorrow = at(y, m, d + 1);
  const mondayOffset = (p.weekday + 6) % 7;
  switch (range) {
    case 'today':
      return done(at(y, m, d), tomorrow);
    case 'yesterday':
      return done(at(y, m, d - 1), at(y, m, d));
    case 'this_week':
      return done(at(y, m, d - mondayOffset), tomorrow);
    case 'last_7_days':
      return done(at(y, m, d - 6), tomorrow);
    case 'last_week':
      return done(at(y, m, d - mondayOffset - 7), at(y, m, d - mondayOffset));
    case 'this_month':
      return done(at(y, m, 1), tomorrow);
    case 'last_month':
      return done(at(y, m - 1, 1), at(y, m, 1));
    case 'this_year':
      return done(at(y, 1, 1), tomorrow);
    case 'last_30_days':
      return done(at(y, m, d - 29), tomorrow);
    case 'last_year':
      return done(at(y - 1, 1, 1), at(y, 1, 1));
    case 'last_24_hours': {
      // Whole quarter hours, the granularity reports are kept in (every UTC offset is a multiple of 15 minutes).
      const to = new Date(Math.ceil(now.getTime() / 900_000) * 900_000);
      return { from: new Date(to.getTime() - 86_400_000), to, bucket: 'hour', timeZone };
    }
    case 'last_two_years':
      return done(at(y - 2, m, d + 1), tomorrow);
  }
}

/** The label of the bucket `instant` falls in: YYYY-MM-DDTHH:00 (hour), YYYY-MM-DD (day) or YYYY-MM (month), local to `timeZone`. */
export function getBucketLabel(instant: Date, bucket: TBucketSize, timeZone: string): string {
  const p = getLocalParts(instant, timeZone);
  const month = `${p.year}-${String(p.month).padStart(2, '0')}`;
  if (bucket === 'month') return month;
  const day = `${month}-${String(p.day).padStart(2, '0')}`;
  return bucket === 'day' ? day : `${day}T${String(p.hour).padStart(2, '0')}:00`;
}

/** Every bucket label of a range, oldest first (so a chart shows empty days as zero). */
export function listBucketLabels(range: TResolvedRange): string[] {
  const labels: string[] = [];
  const step = range.bucket === 'hour' ? 3_600_000 : range.bucket === 'day' ? 3_600_000 * 6 : 86_400_000;
  for (let t = range.from.getTime(); t < range.to.getTime(); t += step) {
    const label = getBucketLabel(new Date(t), range.bucket, range.timeZone);
    if (labels[labels.length - 1] !== label) labels.push(label);
  }
  return labels;
}
