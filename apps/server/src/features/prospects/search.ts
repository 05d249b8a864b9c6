import { sql, type SQL } from 'drizzle-orm';
import { PROSPECT_FACET_SAMPLE, PROSPECT_SEARCH_COUNT_CAP, PROSPECT_SENIORITIES, type TProspectFilters } from '@verilead/contracts';
import { selectRows, type TDb } from '../../platform/db/database';
import { TITLE_SYNONYMS } from './directory-data';
import { countFromRollups, facetsFromRollups, facetsOfSample, type TFacetCounts } from './facets';

export type { TFacets } from './facets';

/**
 * The search module: filters → SQL over the directory (PostgreSQL or PGlite, with pg_trgm for names, titles and
 * company names). Everything else goes through `TProspectSearchEngine`, so another engine could replace this one.
 */

export type TPersonRow = {
  id: string;
  first_name: string;
  last_name: string;
  full_name: string;
  title: string;
  seniority: string;
  department: string;
  country: string;
  region: string | null;
  city: string | null;
  company_id: string | null;
  company_name: string | null;
  company_domain: string | null;
  industry: string | null;
  size_range: string | null;
  email: string | null;
  email_type: string | null;
  email_role: boolean;
  phone: string | null;
  phone_type: string | null;
  linkedin_url: string | null;
};

export type TCompanyRow = {
  id: string;
  name: string;
  domain: string;
  industry: string;
  industry_code: string;
  size_range: string;
  employees: number;
  revenue_range: string;
  founded_year: number | null;
  technologies: string[];
  country: string;
  region: string | null;
  city: string | null;
  linkedin_url: string | null;
  people_count?: number;
};

export type TSort = 'relevance' | 'name' | 'company' | 'recently_updated';

export type TProspectSearchEngine = {
  searchPeople(filters: TProspectFilters, opts: { sort: TSort; offset: number; limit: number }): Promise<{ rows: TPersonRow[] } & TCount>;
  searchCompanies(filters: TProspectFilters, opts: { sort: TSort; offset: number; limit: number }): Promise<{ rows: TCompanyRow[] } & TCount>;
  /** The ids of the first `limit` people of a search (adding a search to a list). */
  personIds(filters: TProspectFilters, limit: number): Promise<string[]>;
  facets(filters: TProspectFilters): Promise<TFacetCounts>;
};

/** A search's count: exact, or `capped` at PROSPECT_SEARCH_COUNT_CAP (more match). */
export type TCount = { total: number; capped: boolean };

export const PERSON_COLUMNS = sql.raw(
  `p.id, p.first_name, p.last_name, p.full_name, p.title, p.seniority, p.department, p.country, p.region, p.city, p.company_id, p.company_name,
   p.company_domain, p.industry, p.size_range, p.email, p.email_type, p.email_role, p.phone, p.phone_type, p.linkedin_url`,
);

export function likePattern(value: string): string {
  return `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** A case-insensitive whole-word regular expression for PostgreSQL (\m, \M: word boundaries). */
function wordPattern(value: string): string {
  return `\\m${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\M`;
}

function anyOf(parts: SQL[]): SQL {
  return parts.length === 1 ? parts[0]! : sql`(${sql.join(parts, sql` or `)})`;
}

function inList(column: SQL, values: readonly (string | number)[]): SQL {
  return sql`${column} in (${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )})`;
}

function ciInList(column: SQL, values: readonly string[]): SQL {
  return inList(sql`lower(${column})`, values.map((v) => v.toLowerCase()));
}

/** The titles a title filter matches: itself, and with `similar` its synonyms. */
export function expandTitles(titles: readonly string[], similar: boolean): string[] {
  const out = new Set(titles.map((t) => t.toLowerCase()));
  if (similar) {
    for (const t of titles) {
      const lower = t.toLowerCase();
      for (const group of TITLE_SYNONYMS) if (group.some((g) => g === lower || lower.includes(g))) for (const g of group) out.add(g);
    }
  }
  return [...out];
}

/** Title filters and keywords resolved against directory_titles beforehand (a few hundred titles at most). */
export type TResolvedTitles = { jobTitles?: string[]; keywordTitles?: string[] };
/** Beyond this many matching titles the search keeps the subquery rather than a list. */
const MAX_RESOLVED_TITLES = 500;

function titleMatch(f: TProspectFilters): SQL {
  const titles = expandTitles(f.job_titles ?? [], f.similar_titles ?? false);
  // Whole words ("CTO" is not "Director"), and with similar titles also close spellings (pg_trgm word similarity).
  const parts = [sql`t.title ~* ${`(${titles.map(wordPattern).join('|')})`}`];
  if (f.similar_titles) for (const t of f.job_titles ?? []) parts.push(sql`${t} <% t.title`);
  return anyOf(parts);
}

/**
 * The titles a search's title filter and keywords match, as lists: the planner then sees which titles (and how many
 * people) it looks for, and a keyword's titles can join the name and company trigram indexes in one bitmap.
 */
export async function resolveTitles(exec: TDb, f: TProspectFilters): Promise<TResolvedTitles> {
  const list = async (where: SQL) => {
    const rows = await selectRows<{ title: string }>(exec, sql`select t.title from directory_titles t where ${where} order by t.title limit ${MAX_RESOLVED_TITLES + 1}`);
    return rows.length > MAX_RESOLVED_TITLES ? undefined : rows.map((r) => r.title);
  };
  const [jobTitles, keywordTitles] = await Promise.all([
    f.job_titles?.length ? list(titleMatch(f)) : undefined,
    f.keywords ? list(sql`t.title ilike ${likePattern(f.keywords)}`) : undefined,
  ]);
  return { jobTitles, keywordTitles };
}

function titleIn(values: readonly string[]): SQL {
  return values.length === 0 ? sql`false` : inList(sql`p.title`, values);
}

/** The WHERE clause of a search over people (alias p); companies' own searches use the same fields. */
export function personWhere(f: TProspectFilters, alias: 'p' | 'c' = 'p', resolved: TResolvedTitles = {}): SQL {
  const col = (name: string) => sql.raw(`${alias}.${name}`);
  const isPeople = alias === 'p';
  const conds: SQL[] = [];
  if (f.keywords) {
    const k = likePattern(f.keywords);
    // Titles through the directory's distinct titles (trigram-indexed), names and companies through their trigram indexes.
    conds.push(
      isPeople
        ? sql`(p.full_name ilike ${k} or ${resolved.keywordTitles ? titleIn(resolved.keywordTitles) : sql`p.title in (select t.title from directory_titles t where t.title ilike ${k})`} or p.company_name ilike ${k})`
        : sql`(c.name ilike ${k} or c.domain ilike ${k})`,
    );
  }
  if (isPeople && f.job_titles?.length) {
    // Resolved against the directory's few thousand distinct titles (trigram-indexed), then people by exact title.
    conds.push(resolved.jobTitles ? titleIn(resolved.jobTitles) : sql`p.title in (select t.title from directory_titles t where ${titleMatch(f)})`);
  }
  if (isPeople && f.seniorities?.length) {
    // By the stored rank (the relevance order), as a range too, so rank-ordered indexes serve it in order.
    const ranks = f.seniorities.map(seniorityRank);
    conds.push(sql`p.seniority_rank between ${Math.min(...ranks)} and ${Math.max(...ranks)}`, inList(sql`p.seniority_rank`, ranks));
  }
  if (isPeople && f.departments?.length) conds.push(inList(sql`p.department`, f.departments));
  if (f.countries?.length) conds.push(inList(col('country'), f.countries));
  if (f.regions?.length) conds.push(ciInList(col('region'), f.regions));
  if (f.cities?.length) conds.push(ciInList(col('city'), f.cities));
  if (f.company_names?.length) conds.push(anyOf(f.company_names.map((n) => sql`${col(isPeople ? 'company_name' : 'name')} ilike ${likePattern(n)}`)));
  if (f.company_domains?.length) conds.push(inList(col(isPeople ? 'company_domain' : 'domain'), f.company_domains.map((d) => d.replace(/^https?:\/\/(www\.)?/, '').replace(/\/.*$/, ''))));
  if (f.size_ranges?.length) conds.push(inList(col('size_range'), f.size_ranges));
  if (f.industries?.length) conds.push(inList(col('industry'), f.industries));
  if (f.revenue_ranges?.length) conds.push(inList(col('revenue_range'), f.revenue_ranges));
  if (f.technologies?.length) {
    conds.push(sql`${col('technologies')} && array[${sql.join(
      f.technologies.map((t) => sql`${t}`),
      sql`, `,
    )}]::text[]`);
  }
  if (f.founded_year_min !== undefined) conds.push(sql`${col('founded_year')} >= ${f.founded_year_min}`);
  if (f.founded_year_max !== undefined) conds.push(sql`${col('founded_year')} <= ${f.founded_year_max}`);
  return conds.length ? sql.join(conds, sql` and `) : sql`true`;
}

/** Company filters that only people carry (title, seniority, department) narrow companies to those employing such people. */
function companyWhere(f: TProspectFilters): SQL {
  const own = personWhere(f, 'c');
  if (!f.job_titles?.length && !f.seniorities?.length && !f.departments?.length) return own;
  const people = personWhere({ job_titles: f.job_titles, similar_titles: f.similar_titles, seniorities: f.seniorities, departments: f.departments });
  return sql`${own} and exists (select 1 from directory_people p where p.company_id = c.id and ${people})`;
}

/** The stored `seniority_rank` of a seniority (migration 0020): relevance sorts by it, most senior first. */
export function seniorityRank(seniority: string): number {
  const i = (PROSPECT_SENIORITIES as readonly string[]).indexOf(seniority);
  return i < 0 ? 12 : i + 1;
}

/**
 * Filters whose matches are best found through their own indexes and then sorted: walking the rank index instead
 * (which the planner likes when it thinks matches are spread evenly) can read most of the directory when the
 * matches sit at the far end of it (recruiters are seldom owners).
 */
function selective(f: TProspectFilters): boolean {
  return Boolean(f.job_titles?.length || f.keywords || f.company_names?.length || f.company_domains?.length || f.cities?.length || f.regions?.length);
}

function personOrder(sort: TSort, fenced = false): SQL {
  switch (sort) {
    case 'name':
      return sql`p.last_name, p.first_name, p.id`;
    case 'company':
      return sql`p.company_name nulls last, p.last_name, p.id`;
    case 'recently_updated':
      return sql`p.updated_at desc, p.id`;
    default:
      // Relevance: senior people first (the stored rank; indexes on (…, seniority_rank, id) serve it), then by id (stable).
      // `+ 0` keeps the rank-ordered indexes out of a selective search (same order, sorted after finding the matches).
      return fenced ? sql`p.seniority_rank + 0, p.id` : sql`p.seniority_rank, p.id`;
  }
}

/** Counts matches up to the cap (the count's own plan: often an index-only scan), then says whether it stopped there. */
async function cappedCount(exec: TDb, from: SQL, cap: number): Promise<TCount> {
  const rows = await selectRows<{ n: number }>(exec, sql`select count(*)::int as n from (select 1 ${from} limit ${cap + 1}) t`);
  const n = rows[0]?.n ?? 0;
  return n > cap ? { total: cap, capped: true } : { total: n, capped: false };
}

/** The PostgreSQL search engine (tests may lower the count cap and the facet sample to see them at work on a small directory). */
export function createSqlSearchEngine(exec: TDb, limits: { countCap?: number; facetSample?: number } = {}): TProspectSearchEngine {
  const countCap = limits.countCap ?? PROSPECT_SEARCH_COUNT_CAP;
  const facetSample = limits.facetSample ?? PROSPECT_FACET_SAMPLE;
  return {
    async searchPeople(filters, { sort, offset, limit }) {
      const where = personWhere(filters, 'p', await resolveTitles(exec, filters));
      const order = personOrder(sort, selective(filters));
      // The page's ids first (from indexes where the filters allow), then only those rows from the table.
      const [rows, count] = await Promise.all([
        selectRows<TPersonRow>(
          exec,
          sql`select ${PERSON_COLUMNS} from directory_people p
              join (select p.id from directory_people p where ${where} order by ${order} limit ${limit} offset ${offset}) k on k.id = p.id
              order by ${personOrder(sort)}`,
        ),
        countFromRollups(exec, filters).then((exact) => (exact === null ? cappedCount(exec, sql`from directory_people p where ${where}`, countCap) : { total: exact, capped: false })),
      ]);
      return { rows, ...count };
    },
    async searchCompanies(filters, { sort, offset, limit }) {
      const where = companyWhere(filters);
      const order = sort === 'name' ? sql`c.name, c.id` : sort === 'recently_updated' ? sql`c.updated_at desc, c.id` : sql`c.employees desc, c.id`;
      const [rows, count] = await Promise.all([
        selectRows<TCompanyRow>(
          exec,
          sql`select c.id, c.name, c.domain, c.industry, c.industry_code, c.size_range, c.employees, c.revenue_range, c.founded_year, c.technologies,
                     c.country, c.region, c.city, c.linkedin_url
              from directory_companies c where ${where} order by ${order} limit ${limit} offset ${offset}`,
        ),
        cappedCount(exec, sql`from directory_companies c where ${where}`, countCap),
      ]);
      return { rows, ...count };
    },
    async personIds(filters, limit) {
      const where = personWhere(filters, 'p', await resolveTitles(exec, filters));
      const rows = await selectRows<{ id: string }>(exec, sql`select p.id from directory_people p where ${where} order by ${personOrder('relevance', selective(filters))} limit ${limit}`);
      return rows.map((r) => r.id);
    },
    async facets(filters) {
      return (await facetsFromRollups(exec, filters)) ?? facetsOfSample(exec, personWhere(filters, 'p', await resolveTitles(exec, filters)), facetSample);
    },
  };
}
