/** Parses a YYYY-MM-DD (start of that UTC day) or an ISO date-time. */
export function parseDateStart(value: string): Date {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00.000Z`) : new Date(value);
}

/** Exclusive upper bound: a YYYY-MM-DD includes that whole UTC day; a date-time is taken as is (inclusive → +1 ms). */
export function parseDateEndExclusive(value: string): Date {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const d = new Date(`${value}T00:00:00.000Z`);
    d.setUTCDate(d.getUTCDate() + 1);
    return d;
  }
  return new Date(new Date(value).getTime() + 1);
}

export function toIso(value: Date | null | undefined): string | null {
  return value ? value.toISOString() : null;
}
