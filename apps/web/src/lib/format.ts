import dayjs from 'dayjs';
import { currentTimezoneName, getLocalParts, getZonedInstant, isKnownTimezone } from '@verilead/contracts';
import { useSessionStore } from './session-store';

const UNITS = [
  { size: 1_000_000_000, suffix: 'B' },
  { size: 1_000_000, suffix: 'M' },
  { size: 1_000, suffix: 'k' },
] as const;

function trimDecimal(value: number): string {
  // Truncate to one decimal so a balance is never shown larger than it is.
  const truncated = Math.trunc(value * 10) / 10;
  return truncated.toFixed(1).replace(/\.0$/, '');
}

/** Numbers above 999 abbreviated as k / M (B beyond); smaller numbers as they are. */
export function formatCompactNumber(value: number): string {
  if (!Number.isFinite(value)) return '-';
  const sign = value < 0 ? '-' : '';
  const abs = Math.abs(value);
  if (abs <= 999) return `${sign}${Number.isInteger(abs) ? abs : trimDecimal(abs)}`;
  for (const unit of UNITS) {
    if (abs >= unit.size) return `${sign}${trimDecimal(abs / unit.size)}${unit.suffix}`;
  }
  return `${sign}${abs}`;
}

/**
 * A credits balance for the header: exact below 100,000 ("9,989": people paying per credit see every one spent;
 * "9.9k" hid a hundred), abbreviated above, where the exact figure would crowd a phone's header.
 */
export function formatBalance(value: number): string {
  return Math.abs(value) < 100_000 ? formatNumber(value) : formatCompactNumber(value);
}

/** Full number with thousands separators, for tables and balances. */
export function formatNumber(value: number): string {
  return new Intl.NumberFormat('en-US').format(value);
}

/** A count with its noun, singular for one: "1 duplicate", "2,500 duplicates" (`pluralWord` when not just + s). */
export function formatCount(count: number, word: string, pluralWord = `${word}s`): string {
  return `${formatNumber(count)} ${count === 1 ? word : pluralWord}`;
}

/** Money as $K / $M / $B; 0 shows as Undisclosed Amount. */
export function formatMoney(value: number, currencySymbol = '$'): string {
  if (!Number.isFinite(value) || value === 0) return 'Undisclosed Amount';
  const abs = Math.abs(value);
  const sign = value < 0 ? '-' : '';
  if (abs >= 1_000_000_000) return `${sign}${currencySymbol}${trimDecimal(abs / 1_000_000_000)}B`;
  if (abs >= 1_000_000) return `${sign}${currencySymbol}${trimDecimal(abs / 1_000_000)}M`;
  if (abs >= 1_000) return `${sign}${currencySymbol}${trimDecimal(abs / 1_000)}K`;
  return `${sign}${currencySymbol}${abs}`;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** A duration in minutes, hours or days (whichever reads best). */
export function formatDuration(milliseconds: number): string {
  const minutes = Math.max(0, Math.round(milliseconds / 60_000));
  if (minutes < 60) return plural(minutes, 'minute');
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return plural(hours, 'hour');
  return plural(Math.floor(hours / 24), 'day');
}

/** Shortens a string to `max` characters with `...` in the middle. */
export function truncateMiddle(value: string, max: number): string {
  if (value.length <= max) return value;
  if (max <= 3) return '...'.slice(0, max);
  const keep = max - 3;
  const head = Math.ceil(keep / 2);
  const tail = Math.floor(keep / 2);
  return `${value.slice(0, head)}...${tail > 0 ? value.slice(value.length - tail) : ''}`;
}

/** Today, Tomorrow, In N days (or N days ago for past days), counted in calendar days of the user's timezone. */
export function formatDayLabel(date: string | Date, now: string | Date = new Date(), timeZone = getDisplayTimezone()): string {
  const days = Math.round((calendarDayOf(date, timeZone) - calendarDayOf(now, timeZone)) / 86_400_000);
  if (days === 0) return 'Today';
  if (days === 1) return 'Tomorrow';
  if (days === -1) return 'Yesterday';
  if (days > 1) return `In ${days} days`;
  return `${-days} days ago`;
}

const dayFormatters = new Map<string, Intl.DateTimeFormat>();

/** Midnight UTC of the calendar day `value` falls on in `timeZone` (the browser's when undefined). */
function calendarDayOf(value: string | Date, timeZone: string | undefined): number {
  const key = timeZone ?? '';
  let formatter = dayFormatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormatters.set(key, formatter);
  }
  const date = value instanceof Date ? value : dayjs(value).toDate();
  const parts = Object.fromEntries(formatter.formatToParts(date).map((part) => [part.type, part.value]));
  return Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day));
}

/** Score label of spec section 5: 1-30 Very Low, 31-60 Low, 61-80 Moderate, above 80 High, else -. */
export function getScoreLabel(score: number | null | undefined): string {
  if (score === null || score === undefined || !Number.isFinite(score) || score < 1) return '-';
  if (score <= 30) return 'Very Low';
  if (score <= 60) return 'Low';
  if (score <= 80) return 'Moderate';
  return 'High';
}

export type TRiskLevel = { label: 'No Risk' | 'Low Risk' | 'Moderate Risk' | 'High Risk'; value: string };

/** Risk label of spec section 5: 100 No Risk; 75+ Low Risk (value no_risk); 50+ Moderate Risk; else High Risk. */
export function getRiskLevel(score: number): TRiskLevel {
  if (score >= 100) return { label: 'No Risk', value: 'no_risk' };
  if (score >= 75) return { label: 'Low Risk', value: 'no_risk' };
  if (score >= 50) return { label: 'Moderate Risk', value: 'moderate_risk' };
  return { label: 'High Risk', value: 'high_risk' };
}

/** The zone dates are shown in: the user's timezone setting, else the browser's. */
export function getDisplayTimezone(): string | undefined {
  const zone = useSessionStore.getState().timezone;
  return zone && isKnownTimezone(zone) ? currentTimezoneName(zone) : undefined;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function partsOf(value: string | Date | null | undefined, timeZone: string | undefined) {
  if (!value) return null;
  const date = value instanceof Date ? value : dayjs(value).toDate();
  if (Number.isNaN(date.getTime())) return null;
  const p = getLocalParts(date, timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone);
  const pad = (n: number) => String(n).padStart(2, '0');
  return { day: String(p.day), month: MONTHS[p.month - 1], year: String(p.year), hour: pad(p.hour), minute: pad(p.minute) };
}

/** 22 Nov 2026, in the user's timezone (or the one given). */
export function formatDate(value: string | Date | null | undefined, timeZone = getDisplayTimezone()): string {
  const p = partsOf(value, timeZone);
  return p ? `${p.day} ${p.month} ${p.year}` : '-';
}

/** 22 Nov 2026, 14:05, in the user's timezone (or the one given). */
export function formatDateTime(value: string | Date | null | undefined, timeZone = getDisplayTimezone()): string {
  const p = partsOf(value, timeZone);
  return p ? `${p.day} ${p.month} ${p.year}, ${p.hour}:${p.minute}` : '-';
}

/** 14:05 in the user's timezone (or the one given); with the date in front when it is not today there. */
export function formatTime(value: string | Date | null | undefined, timeZone = getDisplayTimezone(), now: Date = new Date()): string {
  const p = partsOf(value, timeZone);
  if (!p) return '-';
  const today = partsOf(now, timeZone);
  const sameDay = today && today.day === p.day && today.month === p.month && today.year === p.year;
  return sameDay ? `${p.hour}:${p.minute}` : `${p.day} ${p.month} ${p.year}, ${p.hour}:${p.minute}`;
}

/** Turns snake_case keys into a readable label: life_time → Life time. */
export function humanizeKey(value: string): string {
  const spaced = value.replace(/_/g, ' ').trim();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/** A member limit: Unlimited, or what is left of it. */
export function formatLimitUsage(usage: { limit: number | null; used: number; remaining: number | null }): string {
  if (usage.limit === null) return 'Unlimited';
  return `${formatNumber(usage.remaining ?? Math.max(0, usage.limit - usage.used))} of ${formatNumber(usage.limit)} left`;
}

const SHORT_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A report bucket (already local to the user's timezone): 2026-03-10T14:00 → 14:00, 2026-03-10 → 10 Mar, 2026-03 → Mar 2026. */
export function formatBucketLabel(bucket: string): string {
  const m = /^(\d{4})-(\d{2})(?:-(\d{2}))?(?:T(\d{2}:\d{2}))?$/.exec(bucket);
  if (!m) return bucket;
  const month = SHORT_MONTHS[Number(m[2]) - 1] ?? m[2];
  if (m[4]) return m[4];
  if (m[3]) return `${Number(m[3])} ${month}`;
  return `${month} ${m[1]}`;
}

/** The hour of the day on the user's clock (their timezone setting, else the browser's). */
export function getDisplayHour(now: Date = new Date(), timeZone = getDisplayTimezone()): number {
  return Number(new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', hourCycle: 'h23' }).format(now)) % 24;
}

/**
 * A date picker's calendar days as the instants they span on the user's clock: `from` at local midnight and
 * `to` at the last millisecond of its day (the API takes ISO date-times with an offset).
 */
export function toZonedDayRange(range: [Date | string | null, Date | string | null], timeZone = getDisplayTimezone() ?? 'UTC'): { from?: string; to?: string } {
  const pick = (value: Date | string | null) => (value ? dayjs(value) : null);
  const a = pick(range[0]);
  const b = pick(range[1]);
  return {
    from: a ? getZonedInstant(a.year(), a.month() + 1, a.date(), timeZone).toISOString() : undefined,
    to: b ? new Date(getZonedInstant(b.year(), b.month() + 1, b.date() + 1, timeZone).getTime() - 1).toISOString() : undefined,
  };
}
