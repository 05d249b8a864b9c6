import { resolveDateRange } from '@verilead/contracts';

const PLAIN_DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A date filter's start: a plain YYYY-MM-DD is the start of that day in `timeZone` (the caller's setting, resolved
 * like the analytics' custom ranges); an ISO date-time is taken as is.
 */
export function parseDateStart(value: string, timeZone: string): Date {
  return PLAIN_DAY.test(value) ? resolveDateRange({ from: value, to: value }, timeZone).from : new Date(value);
}

/** Exclusive upper bound: a YYYY-MM-DD includes that whole day in `timeZone`; a date-time is taken as is (inclusive → +1 ms). */
export function parseDateEndExclusive(value: string, timeZone: string): Date {
  return PLAIN_DAY.test(value) ? resolveDateRange({ from: value, to: value }, timeZone).to : new Date(new Date(value).getTime() + 1);
}

export function toIso(value: Date | null | undefined): string | null {
  return value ? value.toISOString() : null;
}
