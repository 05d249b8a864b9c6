import { z } from 'zod';
import { PAGE_SIZES } from './constants';
import { currentTimezoneName } from './timezones';
import { EMAIL_ADDRESS_PATTERN, EMAIL_MESSAGE } from './email-address';

/** Page size: one of 25, 50, 100, 200, 500 (query strings are coerced). */
export const ZPageSize = z.coerce
  .number()
  .int()
  .refine((v) => (PAGE_SIZES as readonly number[]).includes(v), { message: `Please choose a page size of ${PAGE_SIZES.join(', ')}` })
  // Documented as the enum it is (the OpenAPI document would otherwise say "any integer").
  .meta({ type: 'integer', enum: [...PAGE_SIZES], description: `Page size: one of ${PAGE_SIZES.join(', ')}` });
export const ZPage = z.coerce.number().int().min(1).max(1_000_000);

/** Dates the API takes: years 1900 to 2999 (year 0000 or 10000 is no date a database can hold). */
export const DATE_INPUT_MIN_YEAR = 1900;
export const DATE_INPUT_MAX_YEAR = 2999;
const DATE_RANGE_MESSAGE = `Please enter a date between the years ${DATE_INPUT_MIN_YEAR} and ${DATE_INPUT_MAX_YEAR}`;

function isSupportedDate(value: string): boolean {
  const time = /^\d{4}-\d{2}-\d{2}$/.test(value) ? Date.parse(`${value}T00:00:00Z`) : Date.parse(value);
  if (!Number.isFinite(time)) return false;
  const year = new Date(time).getUTCFullYear();
  return year >= DATE_INPUT_MIN_YEAR && year <= DATE_INPUT_MAX_YEAR;
}

/** An ISO date-time with offset, within the supported years. */
export const ZDateTimeInput = z.iso
  .datetime({ offset: true, message: 'Please enter a date and time such as 2024-05-01T09:30:00Z' })
  .refine(isSupportedDate, { message: DATE_RANGE_MESSAGE });

/** A calendar date (YYYY-MM-DD) or an ISO date-time with offset, within the supported years. */
export const ZDateInput = z
  .union([z.iso.date(), z.iso.datetime({ offset: true })], { message: 'Please enter a date such as 2024-05-01' })
  .refine(isSupportedDate, { message: DATE_RANGE_MESSAGE });

export { EMAIL_ADDRESS_PATTERN, isEmailAddress } from './email-address';

/** An address as the mailer takes it (the same grammar, no normalisation). */
export const ZEmailAddress = z.string().regex(EMAIL_ADDRESS_PATTERN, { message: EMAIL_MESSAGE });

/** The address check used everywhere an e-mail is entered (trimmed and lower-cased). */
export const ZEmail = z
  .string()
  .trim()
  .regex(EMAIL_ADDRESS_PATTERN, { message: EMAIL_MESSAGE })
  .transform((v) => v.toLowerCase());

/** Password policy: 8–128 characters with a lower-case letter, an upper-case letter and a digit. */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const ZPassword = z
  .string()
  .min(PASSWORD_MIN_LENGTH, { message: `Password must be at least ${PASSWORD_MIN_LENGTH} characters` })
  .max(PASSWORD_MAX_LENGTH, { message: `Password must be at most ${PASSWORD_MAX_LENGTH} characters` })
  .regex(/[a-z]/, { message: 'Password must contain a lower-case letter' })
  .regex(/[A-Z]/, { message: 'Password must contain an upper-case letter' })
  .regex(/[0-9]/, { message: 'Password must contain a digit' });

/** Person name: letters, spaces and . ' - only. */
export const ZPersonName = z
  .string()
  .trim()
  .min(1, { message: 'Please enter your name' })
  .max(100)
  .regex(/^[\p{L}][\p{L}\p{M} .'-]*$/u, { message: 'Name may contain letters and spaces only' });

/** Phone number: optional leading +, then digits (spaces and dashes allowed between). */
export const ZPhoneNumber = z
  .string()
  .trim()
  .regex(/^\+?[0-9][0-9 -]{5,20}[0-9]$/, { message: 'Please enter a valid phone number' });

/** An IANA time zone name. */
export const ZTimezone = z
  .string()
  .min(1)
  .max(64)
  .refine(
    (v) => {
      try {
        new Intl.DateTimeFormat('en-US', { timeZone: v });
        return v.includes('/') || v === 'UTC';
      } catch {
        return false;
      }
    },
    { message: 'Please choose a valid time zone' },
  )
  // Legacy names (Asia/Calcutta) are kept under their current name (Asia/Kolkata).
  .transform((v) => currentTimezoneName(v));

/** Paged list answer. */
export function ZPaged<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), total: z.number().int().nonnegative(), page: z.number().int(), limit: z.number().int() });
}
