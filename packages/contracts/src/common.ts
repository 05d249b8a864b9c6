import { z } from 'zod';
import { PAGE_SIZES } from './constants';
import { currentTimezoneName } from './timezones';

/** Page size: one of 25, 50, 100, 200, 500 (query strings are coerced). */
export const ZPageSize = z.coerce
  .number()
  .int()
  .refine((v) => (PAGE_SIZES as readonly number[]).includes(v), { message: `limit must be one of ${PAGE_SIZES.join(', ')}` });
export const ZPage = z.coerce.number().int().min(1).max(1_000_000);

/** A calendar date (YYYY-MM-DD) or an ISO date-time with offset. */
export const ZDateInput = z.union([z.iso.date(), z.iso.datetime({ offset: true })]);

/** Standard address pattern check used everywhere an e-mail is entered. */
export const ZEmail = z
  .string()
  .trim()
  .min(3, { message: 'Please enter a valid email address' })
  .max(254, { message: 'An email address is at most 254 characters' })
  .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, { message: 'Please enter a valid email address' })
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
