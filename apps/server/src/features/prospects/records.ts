import { z } from 'zod';
import isoCountries from 'i18n-iso-countries';
import { DEPARTMENTS, SENIORITIES } from './directory-data';

/**
 * The directory's import records (documented in the README): one company or one person per CSV row or NDJSON line.
 * CSV lists technologies separated by ";". Size and revenue bands, e-mail type and role are derived.
 */
const text = (max: number) => z.string().trim().min(1).max(max);
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((v) => (v ? v : null));
const optionalInt = (min: number, max: number) =>
  z
    .union([z.number(), z.string().trim()])
    .nullish()
    .transform((v, ctx) => {
      if (v === null || v === undefined || v === '') return null;
      const n = Number(v);
      if (!Number.isInteger(n) || n < min || n > max) {
        ctx.addIssue({ code: 'custom', message: `must be a whole number between ${min} and ${max}` });
        return z.NEVER;
      }
      return n;
    });

/** An ISO 3166-1 alpha-2 code (i18n-iso-countries' list; XK, Kosovo's user-assigned code, is kept as everyone uses it). */
const countryCode = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2}$/, { message: 'must be a two-letter country code' })
  .refine((code) => isoCountries.isValid(code), { message: 'is not an ISO 3166 country code' });

export const ZCompanyRecord = z.object({
  external_id: text(200),
  name: text(300),
  domain: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^(?=.{3,253}$)([a-z0-9-]+\.)+[a-z]{2,}$/, { message: 'is not a domain name' }),
  industry: text(200),
  industry_code: z
    .string()
    .trim()
    .regex(/^\d{2,6}$/, { message: 'must be a NAICS code (2 to 6 digits)' }),
  employees: optionalInt(1, 10_000_000).transform((v, ctx) => {
    if (v === null) {
      ctx.addIssue({ code: 'custom', message: 'is required' });
      return z.NEVER;
    }
    return v;
  }),
  revenue_usd: optionalInt(0, 10_000_000_000_000),
  founded_year: optionalInt(1600, 2100),
  technologies: z
    .union([z.array(z.string()), z.string()])
    .nullish()
    // A set: repeats are dropped (the first of each kept), as facets count each technology once per person.
    .transform((v) => [
      ...new Set(
        (typeof v === 'string' ? v.split(';') : (v ?? []))
          .map((t) => t.trim())
          .filter(Boolean)
          .slice(0, 100),
      ),
    ]),
  country: countryCode,
  region: optionalText(200),
  city: optionalText(200),
  phone: optionalText(40),
  linkedin_url: optionalText(500),
});
export type TCompanyRecord = z.input<typeof ZCompanyRecord>;
export type TCompanyRow = z.output<typeof ZCompanyRecord>;

export const ZPersonRecord = z.object({
  external_id: text(200),
  first_name: text(200),
  last_name: text(200),
  title: text(300),
  seniority: z.enum(SENIORITIES, { message: `must be one of ${SENIORITIES.join(', ')}` }),
  department: z.enum(DEPARTMENTS, { message: `must be one of ${DEPARTMENTS.join(', ')}` }),
  country: countryCode,
  region: optionalText(200),
  city: optionalText(200),
  company_external_id: optionalText(200),
  email: z
    .string()
    .trim()
    .toLowerCase()
    .max(320)
    .nullish()
    .transform((v, ctx) => {
      if (!v) return null;
      if (!/^[^@\s]+@[^@\s]+\.[a-z]{2,}$/.test(v)) {
        ctx.addIssue({ code: 'custom', message: 'is not an e-mail address' });
        return z.NEVER;
      }
      return v;
    }),
  phone: optionalText(40),
  phone_type: z
    .enum(['mobile', 'fixed_line'], { message: 'must be mobile or fixed_line' })
    .nullish()
    .or(z.literal('').transform(() => null)),
  linkedin_url: optionalText(500),
});
export type TPersonRecord = z.input<typeof ZPersonRecord>;
export type TPersonRow = z.output<typeof ZPersonRecord>;
