// The email finder's contracts. This file holds the instant search (the Quick Email Finder form and
// POST /email_finder/instant) and the finder's webhook events; the result of a search and the bulk lists live beside
// it and are re-exported here, so `@verilead/contracts` keeps every finder name in one place.
import { z } from 'zod';
import { ZSuccess } from './envelopes';
import { ZFinderResult } from './email-finder-result';

export * from './email-finder-result';
export * from './email-finder-lists';

// ---------- instant ----------

const ZNamePart = z
  .string()
  .trim()
  .max(100, { message: 'The name is too long' })
  .regex(/^[\p{L}\p{M} .'’-]*$/u, { message: 'Unsupported characters in name fields' });

const DOMAIN_RE = /^(?=.{3,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;
const BAD_DOMAIN = 'Please enter a valid domain, such as acme.com';
export const FINDER_DOMAIN_REQUIRED = 'Please enter the company’s domain';
/** What a company name gets until a companies directory exists: only a domain can be searched today. */
export const FINDER_COMPANY_NAME_UNSUPPORTED = 'Please enter the company’s domain, such as acme.com: finding by company name is not available yet';

/**
 * Reads what the user typed as a company domain: a domain (a URL or www. prefix is reduced to the host name,
 * international names to their ASCII form) answers `{ domain }`; something that looks like a company name
 * `{ company }`; anything else `{ error }` with a message for people. Used by the server and the web form alike.
 */
export function readFinderDomain(raw: string): { domain: string } | { company: string } | { error: string } {
  let v = raw.trim().toLowerCase();
  if (!v) return { error: FINDER_DOMAIN_REQUIRED };
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(v)) {
    try {
      v = new URL(v).hostname;
    } catch {
      return { error: BAD_DOMAIN };
    }
  }
  v = v.replace(/^www\./, '').replace(/\/.*$/, '').replace(/\.$/, '');
  if (v.includes('@')) return { error: 'Please enter the domain only (without a name and @)' };
  if (!v.includes('.')) return /^[\p{L}\p{N}][\p{L}\p{N} &.,'-]*$/u.test(raw.trim()) ? { company: raw.trim() } : { error: BAD_DOMAIN };
  let ascii = v;
  try {
    ascii = new URL(`http://${v}`).hostname;
  } catch {
    return { error: BAD_DOMAIN };
  }
  if (!DOMAIN_RE.test(ascii)) return { error: BAD_DOMAIN };
  return { domain: ascii };
}

/** A company domain for a search, normalised (acme.com from "https://www.Acme.com/about"); a company name is refused. */
export const ZFinderDomain = z
  .string()
  .max(253, { message: 'The domain is too long' })
  .transform((value, ctx) => {
    const read = readFinderDomain(value);
    if ('domain' in read) return read.domain;
    ctx.addIssue({ code: 'custom', message: 'company' in read ? FINDER_COMPANY_NAME_UNSUPPORTED : read.error });
    return z.NEVER;
  });

/**
 * The Quick Email Finder form: first name, last name and the company domain, all required, as the server requires
 * them (POST /email_finder/instant answers 400 without a last name; a company name cannot be searched yet).
 */
export const ZQuickFinderForm = z.object({
  first_name: ZNamePart.min(1, { message: 'Please enter the first name' }),
  last_name: ZNamePart.min(1, { message: 'Please enter the last name' }),
  domain: ZFinderDomain,
});
export type TQuickFinderFormInput = z.input<typeof ZQuickFinderForm>;
export type TQuickFinderForm = z.output<typeof ZQuickFinderForm>;

/**
 * POST /email_finder/instant. Give `name` (full name) or first_name (+ last_name, middle_name), and `domain`
 * (a company's domain; a company name answers 400 until a companies directory exists).
 * `timeout` in milliseconds (1,000–60,000, default 30,000): when the search is not finished by then and `queue`
 * is not false, the answer is `{ queued: true, qid }`; poll GET /email_finder/instant/queue_status?qid.
 */
export const ZInstantFindRequest = z
  .object({
    name: ZNamePart.optional(),
    first_name: ZNamePart.optional(),
    middle_name: ZNamePart.optional(),
    last_name: ZNamePart.optional(),
    domain: z.string().trim().max(253, { message: 'The domain is too long' }).optional(),
    company_name: z.string().trim().max(200).optional(),
    timeout: z.coerce.number().int().min(1_000).max(60_000).default(30_000),
    queue: z.boolean().default(true),
  })
  .superRefine((v, ctx) => {
    const hasName = (v.name ?? '').trim().length > 0 || (v.first_name ?? '').trim().length > 0;
    if (!hasName) ctx.addIssue({ code: 'custom', path: ['name'], message: 'Please enter the person’s name' });
    if ((v.domain ?? '').length === 0 && (v.company_name ?? '').length === 0) {
      ctx.addIssue({ code: 'custom', path: ['domain'], message: FINDER_DOMAIN_REQUIRED });
    }
  });
export type TInstantFindRequest = z.input<typeof ZInstantFindRequest>;

/** Either the result (queued: false) or a queue id to poll (queued: true). */
export const ZInstantFindData = z.discriminatedUnion('queued', [
  ZFinderResult.extend({ queued: z.literal(false), id: z.string(), credits_charged: z.number().int().nonnegative() }),
  z.object({ queued: z.literal(true), qid: z.string(), message: z.string() }),
]);
export type TInstantFindData = z.infer<typeof ZInstantFindData>;
export const ZInstantFindResponse = ZSuccess(ZInstantFindData);

export const ZQueueStatusQuery = z.object({ qid: z.uuid({ message: 'qid must be a queue id' }) });
export type TQueueStatusQuery = z.infer<typeof ZQueueStatusQuery>;
export const ZInstantQueueState = z.enum(['queued', 'running', 'completed', 'failed']);
export type TInstantQueueState = z.infer<typeof ZInstantQueueState>;
/** GET /email_finder/instant/queue_status?qid: `result` once completed, `error` when failed. */
export const ZQueueStatusData = z.object({
  qid: z.string(),
  state: ZInstantQueueState,
  result: ZFinderResult.extend({ id: z.string(), credits_charged: z.number().int().nonnegative() }).nullable(),
  error: z.string().nullable(),
});
export type TQueueStatusData = z.infer<typeof ZQueueStatusData>;
export const ZQueueStatusResponse = ZSuccess(ZQueueStatusData);

/** Names of the events the finder records for webhooks. */
export const EMAIL_FINDER_EVENTS = {
  instantCompleted: 'email_finder.instant.completed',
  instantFailed: 'email_finder.instant.failed',
  bulkCompleted: 'email_finder.bulk.completed',
} as const;
