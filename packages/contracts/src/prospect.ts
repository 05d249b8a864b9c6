import { z } from 'zod';
import { ZPage, ZPageSize, ZPaged } from './common';
import { ZDownloadFileType } from './downloads';
import { ZEnrichEmails, ZEnrichPhones } from './settings';

// ---------- filter vocabularies ----------

/** Seniority levels (Apollo's eleven). */
export const PROSPECT_SENIORITIES = ['owner', 'founder', 'c_suite', 'partner', 'vp', 'head', 'director', 'manager', 'senior', 'entry', 'intern'] as const;
export const ZSeniority = z.enum(PROSPECT_SENIORITIES, { message: 'Please choose a seniority from the list' });
export type TSeniority = z.infer<typeof ZSeniority>;

export const PROSPECT_DEPARTMENTS = [
  'engineering',
  'sales',
  'marketing',
  'finance',
  'human_resources',
  'operations',
  'product',
  'customer_success',
  'legal',
  'information_technology',
  'design',
  'data',
] as const;
export const ZDepartment = z.enum(PROSPECT_DEPARTMENTS, { message: 'Please choose a department from the list' });
export type TDepartment = z.infer<typeof ZDepartment>;

export const PROSPECT_SIZE_RANGES = ['1-10', '11-50', '51-200', '201-500', '501-1000', '1001-5000', '5001-10000', '10001+'] as const;
export const ZSizeRange = z.enum(PROSPECT_SIZE_RANGES, { message: 'Please choose a company size from the list' });
export const PROSPECT_REVENUE_RANGES = ['<1M', '1M-10M', '10M-50M', '50M-100M', '100M-500M', '500M-1B', '1B+'] as const;
export const ZRevenueRange = z.enum(PROSPECT_REVENUE_RANGES, { message: 'Please choose a revenue range from the list' });

/** Credits: an e-mail revealed (verified deliverable) costs 1, a phone 2, a reverse lookup that finds someone 1. */
export const PROSPECT_CREDITS = { email: 1, phone: 2, lookup: 1 } as const;
/** Most people one enrich call, one add or one download takes. */
export const PROSPECT_MAX_SELECTION = 1_000;
/** Most leads a list holds. */
export const PROSPECT_LIST_MAX_LEADS = 10_000;
/** Search counts stop here: a search matching more people answers this many with `total_capped` ("10,000+", as Apollo labels it). */
export const PROSPECT_SEARCH_COUNT_CAP = 10_000;
/** Facets of a search no roll-up answers are counted over at most this many matching people (`sampled` when there are more). */
export const PROSPECT_FACET_SAMPLE = 2_000;
/** A search's total as the screens show it: "1,234 people", or "10,000+ people" when the count stopped at the cap. */
export function prospectTotalLabel(total: number, capped: boolean, noun: string): string {
  return `${total.toLocaleString('en-US')}${capped ? '+' : ''} ${noun}`;
}
/** Lookups the public reverse-lookup page allows per IP address and day. */
export const PUBLIC_REVERSE_LOOKUP_DAILY_LIMIT = 5;

// ---------- filters and search ----------

const ZFilterText = z.string().trim().min(1, { message: 'Please leave no filter value empty' }).max(200, { message: 'A filter value may have at most 200 characters' });
const list = <T extends z.ZodType>(item: T) => z.array(item).max(50, { message: 'A filter may have at most 50 values' }).optional();
const ZYear = z.coerce
  .number({ message: 'Please enter a year' })
  .int({ message: 'Please enter a year' })
  .min(1600, { message: 'Please enter a year after 1600' })
  .max(2100, { message: 'Please enter a year before 2100' });

/** Search filters (all optional; values within one filter are OR-ed, filters AND-ed). */
export const ZProspectFilters = z
  .object({
    /** Free text over name, title and company. */
    keywords: ZFilterText.optional(),
    job_titles: list(ZFilterText),
    /** Also match titles that mean the same (CTO ↔ VP of Engineering…) and close spellings. */
    similar_titles: z.boolean().optional(),
    seniorities: list(ZSeniority),
    departments: list(ZDepartment),
    countries: list(z.string().trim().toUpperCase().regex(/^[A-Z]{2}$/, { message: 'Countries are two-letter codes such as US' })),
    regions: list(ZFilterText),
    cities: list(ZFilterText),
    company_names: list(ZFilterText),
    company_domains: list(z.string().trim().toLowerCase().min(3, { message: 'Please enter a domain such as example.com' }).max(253)),
    size_ranges: list(ZSizeRange),
    industries: list(ZFilterText),
    revenue_ranges: list(ZRevenueRange),
    technologies: list(ZFilterText),
    founded_year_min: ZYear.optional(),
    founded_year_max: ZYear.optional(),
  })
  .refine((f) => f.founded_year_min === undefined || f.founded_year_max === undefined || f.founded_year_min <= f.founded_year_max, {
    message: 'The first founding year must not be after the last',
    path: ['founded_year_max'],
  });
export type TProspectFilters = z.infer<typeof ZProspectFilters>;

export const ZProspectSort = z.enum(['relevance', 'name', 'company', 'recently_updated'], { message: 'Please choose a sort order from the list' });

export const ZProspectSearchRequest = z.object({
  type: z.enum(['people', 'companies'], { message: 'Search people or companies' }).default('people'),
  filters: ZProspectFilters.default({}),
  sort: ZProspectSort.default('relevance'),
  page: ZPage.default(1),
  limit: ZPageSize.default(25),
});
export type TProspectSearchRequest = z.input<typeof ZProspectSearchRequest>;

export const ZProspectCompany = z.object({
  id: z.string(),
  name: z.string(),
  domain: z.string(),
  industry: z.string(),
  industry_code: z.string(),
  size_range: z.string(),
  employees: z.number().int(),
  revenue_range: z.string(),
  founded_year: z.number().int().nullable(),
  technologies: z.array(z.string()),
  country: z.string(),
  region: z.string().nullable(),
  city: z.string().nullable(),
  linkedin_url: z.string().nullable(),
  /** People of the company in the directory. */
  people_count: z.number().int().nonnegative().optional(),
});
export type TProspectCompany = z.infer<typeof ZProspectCompany>;

/** A person as search shows them: contact data masked until the organisation reveals it. */
export const ZProspectPerson = z.object({
  id: z.string(),
  full_name: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  title: z.string(),
  seniority: ZSeniority,
  department: ZDepartment,
  country: z.string(),
  region: z.string().nullable(),
  city: z.string().nullable(),
  linkedin_url: z.string().nullable(),
  company: z
    .object({ id: z.string().nullable(), name: z.string().nullable(), domain: z.string().nullable(), industry: z.string().nullable(), size_range: z.string().nullable() })
    .nullable(),
  has_email: z.boolean(),
  has_phone: z.boolean(),
  /** Masked (j•••@d•••.com) until revealed. */
  email: z.string().nullable(),
  email_revealed: z.boolean(),
  email_status: z.string().nullable(),
  phone: z.string().nullable(),
  phone_revealed: z.boolean(),
  phone_type: z.string().nullable(),
});
export type TProspectPerson = z.infer<typeof ZProspectPerson>;

export const ZProspectSearchData = z.object({
  type: z.enum(['people', 'companies']),
  people: z.array(ZProspectPerson),
  companies: z.array(ZProspectCompany),
  /** Matches, counted exactly up to PROSPECT_SEARCH_COUNT_CAP (10,000); an unfiltered search, or one filtered by one of seniority, department or country only, is counted exactly from the directory's roll-ups. */
  total: z.number().int().nonnegative(),
  /** True when the count stopped at the cap: more than `total` match (show "10,000+"). */
  total_capped: z.boolean(),
  page: z.number().int(),
  limit: z.number().int(),
});
export type TProspectSearchData = z.infer<typeof ZProspectSearchData>;

/** GET /prospect/search/meta: the filters as a JSON text in `filters` (URL-encoded), facets with counts. */
export const ZProspectMetaQuery = z.object({
  filters: z
    .string()
    .max(20_000)
    .optional()
    .transform((v, ctx) => {
      if (!v) return {};
      try {
        return JSON.parse(v) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'The filters are not valid JSON' });
        return z.NEVER;
      }
    })
    .pipe(ZProspectFilters),
  /** What the facets count: people (the people search, default) or companies (the company search). */
  type: z.enum(['people', 'companies'], { message: 'type is people or companies' }).optional(),
});
export const ZFacetBucket = z.object({ value: z.string(), count: z.number().int().nonnegative() });
export const ZProspectMetaData = z.object({
  /**
   * People the facets were counted over. Unfiltered searches and searches filtered by one of seniority, department
   * or country only are counted exactly over every match (the directory's roll-ups); other searches over every match
   * up to PROSPECT_FACET_SAMPLE (2,000), and over the first 2,000 matches found when there are more (`sampled`).
   */
  total: z.number().int().nonnegative(),
  /** True when the facets count a sample of the matches (their counts are then "about", not exact). */
  sampled: z.boolean(),
  facets: z.record(z.string(), z.array(ZFacetBucket)),
  options: z.object({
    seniorities: z.array(z.string()),
    departments: z.array(z.string()),
    size_ranges: z.array(z.string()),
    revenue_ranges: z.array(z.string()),
  }),
});
export type TProspectMetaData = z.infer<typeof ZProspectMetaData>;

// ---------- profiles ----------

export const ZProspectViewRequest = z
  .object({ person_id: z.uuid({ message: 'Please choose a person' }).optional(), company_id: z.uuid({ message: 'Please choose a company' }).optional() })
  .refine((v) => (v.person_id ? 1 : 0) + (v.company_id ? 1 : 0) === 1, { message: 'Please choose one person or one company' });
export const ZProspectProfileData = z.object({
  person: ZProspectPerson.nullable(),
  company: ZProspectCompany.nullable(),
  /** Lists of the caller's organisation holding the person. */
  lists: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type TProspectProfileData = z.infer<typeof ZProspectProfileData>;

export const ZProspectProfilesQuery = z.object({
  company_id: z.uuid({ message: 'Please choose a company' }),
  page: ZPage.default(1),
  limit: ZPageSize.default(25),
});
export const ZProspectPeoplePage = ZPaged(ZProspectPerson);

// ---------- saved searches ----------

export const ZSavedSearch = z.object({ id: z.string(), name: z.string(), filters: ZProspectFilters, created_at: z.string(), user_id: z.string() });
export type TSavedSearch = z.infer<typeof ZSavedSearch>;
export const ZSaveFilterRequest = z.object({
  name: z.string().trim().min(1, { message: 'Please name the search' }).max(100, { message: 'A name may have at most 100 characters' }),
  filters: ZProspectFilters,
});
export const ZRemoveFilterRequest = z.object({ filter_id: z.uuid({ message: 'Please choose a saved search' }) });
export const ZSavedSearchesData = z.object({ items: z.array(ZSavedSearch) });

// ---------- lists ----------

export const ZProspectListState = z.enum(['not_processed', 'in_progress', 'processed', 'cancelled']);
export const ZProspectList = z.object({
  id: z.string(),
  name: z.string(),
  lead_count: z.number().int().nonnegative(),
  state: ZProspectListState,
  user_id: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TProspectList = z.infer<typeof ZProspectList>;
const ZListId = z.uuid({ message: 'Please choose a list' });
const ZPersonIds = z
  .array(z.uuid({ message: 'Please choose people from the results' }))
  .min(1, { message: 'Please choose at least one person' })
  .max(PROSPECT_MAX_SELECTION, { message: `Please choose at most ${PROSPECT_MAX_SELECTION} people at once` });
const ZListName = z.string().trim().min(1, { message: 'Please name the list' }).max(100, { message: 'A name may have at most 100 characters' });

export const ZProspectListsQuery = z.object({
  q: z.string().trim().max(100).optional(),
  page: ZPage.default(1),
  limit: ZPageSize.default(25),
});
export const ZProspectListsData = ZPaged(ZProspectList);

/** Add people to a list (an existing one, or a new one by name): chosen ids, or the first `count` results of a search. */
export const ZAddProfilesRequest = z
  .object({
    list_id: ZListId.optional(),
    list_name: ZListName.optional(),
    person_ids: ZPersonIds.optional(),
    filters: ZProspectFilters.optional(),
    count: z.coerce.number().int().min(1).max(PROSPECT_MAX_SELECTION, { message: `Please add at most ${PROSPECT_MAX_SELECTION} people at once` }).optional(),
  })
  .refine((v) => (v.list_id ? 1 : 0) + (v.list_name ? 1 : 0) === 1, { message: 'Please choose a list or name a new one', path: ['list_id'] })
  .refine((v) => (v.person_ids ? 1 : 0) + (v.filters ? 1 : 0) === 1, { message: 'Please choose people or a search', path: ['person_ids'] });
export const ZAddProfilesData = z.object({ list: ZProspectList, added: z.number().int().nonnegative(), already_in_list: z.number().int().nonnegative() });

export const ZListUpdateRequest = z.object({ list_id: ZListId, name: ZListName });
export const ZListRemoveRequest = z.object({ list_id: ZListId });
export const ZListRemoveLeadRequest = z.object({ list_id: ZListId, person_ids: ZPersonIds });
export const ZListDetailsQuery = z.object({ list_id: ZListId });
export const ZListDetailsData = z.object({
  list: ZProspectList,
  revealed_emails: z.number().int().nonnegative(),
  revealed_phones: z.number().int().nonnegative(),
  enrichment: z.lazy(() => ZEnrichRequest).nullable(),
});
export const ZLeadInListQuery = z.object({
  person_ids: z
    .string()
    .max(40_000)
    .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean))
    .pipe(ZPersonIds),
});
export const ZLeadInListData = z.object({ items: z.array(z.object({ person_id: z.string(), lists: z.array(z.object({ id: z.string(), name: z.string() })) })) });
export const ZListLeadsQuery = z.object({
  list_id: ZListId,
  q: z.string().trim().max(100).optional(),
  page: ZPage.default(1),
  limit: ZPageSize.default(25),
});
export const ZListLeadsData = ZPaged(ZProspectPerson.extend({ added_at: z.string() }));

// ---------- enrichment ----------

export const ZEnrichOptions = z.object({ phones: ZEnrichPhones, emails: ZEnrichEmails });
export const ZEnrichState = z.enum(['queued', 'in_progress', 'completed', 'cancelled', 'failed']);
export const ZEnrichRequest = z.object({
  request_id: z.string(),
  kind: z.enum(['lead', 'list']),
  list_id: z.string().nullable(),
  list_name: z.string().nullable(),
  state: ZEnrichState,
  options: ZEnrichOptions,
  total: z.number().int().nonnegative(),
  processed: z.number().int().nonnegative(),
  progress: z.number().int().min(0).max(100),
  emails_revealed: z.number().int().nonnegative(),
  phones_revealed: z.number().int().nonnegative(),
  credits_charged: z.number().int().nonnegative(),
  error: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TEnrichRequest = z.infer<typeof ZEnrichRequest>;

/** POST /prospect/enrich: reveal chosen people now (options default to the member's prospect settings). */
export const ZEnrichLeadsRequest = z.object({ person_ids: ZPersonIds.max(25, { message: 'Please enrich at most 25 people at once, or add them to a list' }), options: ZEnrichOptions.optional() });

/**
 * What became of one field (e-mail or phone) of one person in an enrichment. Only `revealed` is charged:
 * - `revealed`: shown now and charged; `already_revealed`: the organisation revealed it before (free);
 * - `none`: the directory holds no such data; `excluded`: it does not fit the enrich options;
 * - `undeliverable`: the verifier found the address cannot receive mail;
 * - `unverified`: the mail server did not confirm it now (greylisting, a timeout): try again later, or in a list;
 * - `out_of_time`: the request's time for checks ran out before this address was confirmed.
 */
export const REVEAL_FIELD_CODES = ['revealed', 'already_revealed', 'none', 'excluded', 'undeliverable', 'unverified', 'out_of_time'] as const;
export type TRevealFieldCode = (typeof REVEAL_FIELD_CODES)[number];
export const ZRevealField = z.object({
  code: z.enum(REVEAL_FIELD_CODES),
  credits: z.number().int().nonnegative(),
  /** Why the field was not revealed, for people (null when it shows). */
  reason: z.string().nullable(),
});
export type TRevealField = z.infer<typeof ZRevealField>;
export const ZRevealResult = z.object({ person_id: z.string(), email: ZRevealField, phone: ZRevealField });
export type TRevealResult = z.infer<typeof ZRevealResult>;
export const ZEnrichLeadsData = z.object({ request: ZEnrichRequest, people: z.array(ZProspectPerson), results: z.array(ZRevealResult) });
export type TEnrichLeadsData = z.infer<typeof ZEnrichLeadsData>;

/**
 * One sentence on what an enrichment left unrevealed (and uncharged), for the screens' notices: null when every
 * e-mail and phone asked for was revealed. Addresses a mail server did not confirm in time are named apart, since
 * trying again later (or enriching a list) can reveal them.
 */
export function describeUnrevealed(results: readonly TRevealResult[]): string | null {
  const count = (field: 'email' | 'phone', codes: TRevealFieldCode[]) => results.filter((r) => codes.includes(r[field].code)).length;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const parts: string[] = [];
  const pending = count('email', ['unverified', 'out_of_time']);
  const undeliverable = count('email', ['undeliverable']);
  const excluded = count('email', ['excluded']) + count('phone', ['excluded']);
  const missing = count('email', ['none']) + count('phone', ['none']);
  if (pending > 0) parts.push(`${plural(pending, 'e-mail')} could not be confirmed right now (try again in a few minutes, or enrich a list, which waits for slow mail servers)`);
  if (undeliverable > 0) parts.push(`${plural(undeliverable, 'e-mail')} cannot receive mail`);
  if (excluded > 0) parts.push(`${excluded} left out by your enrich options`);
  if (missing > 0) parts.push(`${missing} not in the directory`);
  if (parts.length === 0) return null;
  return `Not revealed and not charged: ${parts.join('; ')}.`;
}
/** POST /prospect/list/enrich: start (or, with `cancel`, stop) enriching a whole list. */
export const ZListEnrichRequest = z.object({ list_id: ZListId, options: ZEnrichOptions.optional(), cancel: z.boolean().optional() });
export const ZEnrichStatusQuery = z.object({ request_id: z.uuid({ message: 'Please choose a request' }) });
export const ZRequestsQuery = z.object({ page: ZPage.default(1), limit: ZPageSize.default(25) });
export const ZRequestsData = ZPaged(ZEnrichRequest);
/** POST /prospect/remove: stop a running enrichment, or remove a finished one from the requests. */
export const ZRemoveRequestRequest = z.object({ request_id: z.uuid({ message: 'Please choose a request' }) });

// ---------- exports ----------

/** POST /prospect/list/export: a list's leads as CSV or XLSX (revealed contact data only), prepared by the downloads job. */
export const ZListExportRequest = z.object({ list_id: ZListId, file_type: ZDownloadFileType.default('csv') });
/** POST /prospect/download: chosen people as a file (revealed contact data only). */
export const ZProspectDownloadRequest = z.object({ person_ids: ZPersonIds, file_type: ZDownloadFileType.default('csv') });

// ---------- home ----------

export const ZRecentAddedData = z.object({
  items: z.array(z.object({ person: ZProspectPerson, list_id: z.string(), list_name: z.string(), added_at: z.string() })),
});
export const ZRecentActivitiesData = z.object({
  items: z.array(z.object({ type: z.string(), description: z.string(), created_at: z.string() })),
});

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
