// The prospect contracts. This file holds the reverse lookup (a person from an e-mail address or a LinkedIn URL,
// for members and on the public page) and the company autocomplete; the search and the lists live beside it and are
// re-exported here, so `@verilead/contracts` keeps every prospect name in one place.
import { z } from 'zod';
import { ZPage, ZPageSize, ZPaged } from './common';
import { ZProspectCompany, ZProspectPerson } from './prospect-search';

export * from './prospect-search';
export * from './prospect-lists';

// ---------- reverse lookup ----------

const ZLinkedinUrl = z
  .string()
  .trim()
  .max(500)
  .regex(/^(https?:\/\/)?([a-z]{2,3}\.)?linkedin\.com\/in\/[^/?#\s]+\/?(\?.*)?$/i, { message: 'Please enter a LinkedIn profile URL such as https://www.linkedin.com/in/jane-doe' });
const ZLookupEmail = z
  .string()
  .trim()
  .toLowerCase()
  .max(320)
  .regex(/^[^@\s]+@[^@\s]+\.[a-z]{2,}$/, { message: 'Please enter a valid email address' });

export const ZReverseLookupRequest = z
  .object({ email: ZLookupEmail.optional(), linkedin_url: ZLinkedinUrl.optional() })
  .refine((v) => (v.email ? 1 : 0) + (v.linkedin_url ? 1 : 0) === 1, { message: 'Please enter an email address or a LinkedIn URL' });
export const ZReverseLookupData = z.object({
  lookup_id: z.string(),
  kind: z.enum(['email', 'linkedin']),
  query: z.string(),
  found: z.boolean(),
  credits_charged: z.number().int().nonnegative(),
  person: ZProspectPerson.nullable(),
  company: ZProspectCompany.nullable(),
});
export type TReverseLookupData = z.infer<typeof ZReverseLookupData>;
export const ZReverseHistoryQuery = z.object({
  kind: z.enum(['email', 'linkedin'], { message: 'Please choose email or linkedin' }).optional(),
  page: ZPage.default(1),
  limit: ZPageSize.default(25),
});
export const ZReverseHistoryItem = z.object({
  lookup_id: z.string(),
  kind: z.enum(['email', 'linkedin']),
  query: z.string(),
  found: z.boolean(),
  full_name: z.string().nullable(),
  title: z.string().nullable(),
  company_name: z.string().nullable(),
  created_at: z.string(),
});
export const ZReverseHistoryData = ZPaged(ZReverseHistoryItem);

/** The public page's answer: who it is (name, title, company), never contact data. */
export const ZPublicPersonEmailRequest = z.object({ email: ZLookupEmail });
export const ZPublicPersonLinkedinRequest = z.object({ linkedin_url: ZLinkedinUrl });
export const ZPublicPersonData = z.object({
  found: z.boolean(),
  person: z
    .object({ full_name: z.string(), title: z.string(), company_name: z.string().nullable(), company_domain: z.string().nullable(), city: z.string().nullable(), country: z.string() })
    .nullable(),
});

/** GET /public/companies/autocomplete?query: company names and domains that start with or resemble the text. */
export const ZCompanyAutocompleteQuery = z.object({
  query: z.string().trim().min(1, { message: 'Please type part of a company name' }).max(100, { message: 'Please type at most 100 characters' }),
});
export const ZCompanyAutocompleteData = z.object({ items: z.array(z.object({ id: z.string(), name: z.string(), domain: z.string() })) });
