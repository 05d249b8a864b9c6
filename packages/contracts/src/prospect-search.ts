// Prospect search: the filter vocabularies and limits, the people and company search with its facets, a profile,
// and saved searches. The lists and enrichment (prospect-lists.ts) and the reverse lookup (prospect.ts) build on it.
import { z } from 'zod';
import { ZPage, ZPageSize, ZPaged } from './common';

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
