import { sql, type SQL } from 'drizzle-orm';
import type { TProspectFilters } from '@verilead/contracts';
import { selectRows, type TDb } from '../../platform/db/database';
import { bareDomain, inList, likePattern, pageBranches, personMatches, personWhere, selective, type TBranch, type TResolved } from './person-match-queries';

/**
 * The search's query builder: filters → SQL over the directory (PostgreSQL or PGlite, with pg_trgm for names, titles
 * and company names), and the statements that read a page, a count or the ids of a search. The engine (search.ts)
 * decides which to run.
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

/** A search's count: exact, or `capped` at PROSPECT_SEARCH_COUNT_CAP (more match). */
export type TCount = { total: number; capped: boolean };

export const PERSON_COLUMNS = sql.raw(
  `p.id, p.first_name, p.last_name, p.full_name, p.title, p.seniority, p.department, p.country, p.region, p.city, p.company_id, p.company_name,
   p.company_domain, p.industry, p.size_range, p.email, p.email_type, p.email_role, p.phone, p.phone_type, p.linkedin_url`,
);

/** A company search's own filters (alias c): name and domain, place, size, industry, revenue, technologies, founded year. */
function companyOwnWhere(f: TProspectFilters): SQL {
  const conds: SQL[] = [];
  if (f.keywords) {
    const k = likePattern(f.keywords);
    conds.push(sql`(c.name ilike ${k} or c.domain ilike ${k})`);
  }
  if (f.countries?.length) conds.push(inList(sql`c.country`, f.countries));
  if (f.regions?.length) conds.push(inList(sql`lower(c.region)`, f.regions.map((v) => v.toLowerCase())));
  if (f.cities?.length) conds.push(inList(sql`lower(c.city)`, f.cities.map((v) => v.toLowerCase())));
  if (f.company_names?.length) {
    const names = f.company_names.map((n) => sql`c.name ilike ${likePattern(n)}`);
    conds.push(names.length === 1 ? names[0]! : sql`(${sql.join(names, sql` or `)})`);
  }
  if (f.company_domains?.length) conds.push(inList(sql`c.domain`, f.company_domains.map(bareDomain)));
  if (f.size_ranges?.length) conds.push(inList(sql`c.size_range`, f.size_ranges));
  if (f.industries?.length) conds.push(inList(sql`c.industry`, f.industries));
  if (f.revenue_ranges?.length) conds.push(inList(sql`c.revenue_range`, f.revenue_ranges));
  if (f.technologies?.length) {
    conds.push(sql`c.technologies && array[${sql.join(
      f.technologies.map((t) => sql`${t}`),
      sql`, `,
    )}]::text[]`);
  }
  if (f.founded_year_min !== undefined) conds.push(sql`c.founded_year >= ${f.founded_year_min}`);
  if (f.founded_year_max !== undefined) conds.push(sql`c.founded_year <= ${f.founded_year_max}`);
  return conds.length ? sql.join(conds, sql` and `) : sql`true`;
}

/** Company filters that only people carry (title, seniority, department) narrow companies to those employing such people. */
export function companyWhere(f: TProspectFilters): SQL {
  const own = companyOwnWhere(f);
  if (!f.job_titles?.length && !f.seniorities?.length && !f.departments?.length) return own;
  const people = personWhere({ job_titles: f.job_titles, similar_titles: f.similar_titles, seniorities: f.seniorities, departments: f.departments });
  return sql`${own} and exists (select 1 from directory_people p where p.company_id = c.id and ${people})`;
}

/** The columns a sort reads (besides id), for a union of keyword branches. */
function sortColumns(sort: TSort): SQL {
  switch (sort) {
    case 'name':
      return sql`p.last_name, p.first_name`;
    case 'company':
      return sql`p.company_name, p.last_name`;
    case 'recently_updated':
      return sql`p.updated_at`;
    default:
      return sql`p.seniority_rank`;
  }
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

/**
 * The ids of a page of matches, in the sort's order (alias p). Several branches (keyword parts, one title each) are
 * each read up to the page's end in that order, then merged.
 */
function pageIds(f: TProspectFilters, resolved: TResolved, sort: TSort, limit: number, offset: number): SQL {
  const branches = pageBranches(f, resolved);
  // Unordered branches of a selective search are sorted after finding their matches (see `selective`).
  const order = (b: TBranch) => personOrder(sort, !b.ordered && selective(f, resolved));
  if (branches.length === 1) {
    return sql`select p.id from directory_people p where ${branches[0]!.where} order by ${order(branches[0]!)} limit ${limit} offset ${offset}`;
  }
  const union = sql.join(
    branches.map((b) => sql`(select p.id, ${sortColumns(sort)} from directory_people p where ${b.where} order by ${order(b)} limit ${limit + offset})`),
    sql` union all `,
  );
  return sql`select p.id from (${union}) p order by ${personOrder(sort)} limit ${limit} offset ${offset}`;
}

/** Counts matches up to the cap (the count's own plan: often an index-only scan), then says whether it stopped there. */
async function cappedCount(exec: TDb, matches: SQL, cap: number): Promise<TCount> {
  const rows = await selectRows<{ n: number }>(exec, sql`select count(*)::int as n from (${matches} limit ${cap + 1}) t`);
  const n = rows[0]?.n ?? 0;
  return n > cap ? { total: cap, capped: true } : { total: n, capped: false };
}

/** A page of people (their columns), the page's ids found first (from indexes where the filters allow), then only those rows. */
export async function selectPeoplePage(exec: TDb, filters: TProspectFilters, resolved: TResolved, page: { sort: TSort; offset: number; limit: number }): Promise<TPersonRow[]> {
  const { sort, offset, limit } = page;
  return selectRows<TPersonRow>(
    exec,
    sql`select ${PERSON_COLUMNS} from directory_people p
              join (${pageIds(filters, resolved, sort, limit, offset)}) k on k.id = p.id
              order by ${personOrder(sort)}`,
  );
}

/** The people a search matches, counted up to `cap`. */
export function countPeople(exec: TDb, filters: TProspectFilters, resolved: TResolved, cap: number): Promise<TCount> {
  return cappedCount(exec, personMatches(filters, resolved, sql`1`), cap);
}

/** A page of companies. */
export async function selectCompaniesPage(exec: TDb, filters: TProspectFilters, page: { sort: TSort; offset: number; limit: number }): Promise<TCompanyRow[]> {
  const { sort, offset, limit } = page;
  const where = companyWhere(filters);
  const order = sort === 'name' ? sql`c.name, c.id` : sort === 'recently_updated' ? sql`c.updated_at desc, c.id` : sql`c.employees desc, c.id`;
  return selectRows<TCompanyRow>(
    exec,
    sql`select c.id, c.name, c.domain, c.industry, c.industry_code, c.size_range, c.employees, c.revenue_range, c.founded_year, c.technologies,
                     c.country, c.region, c.city, c.linkedin_url
              from directory_companies c where ${where} order by ${order} limit ${limit} offset ${offset}`,
  );
}

/** The companies a search matches, counted up to `cap`. */
export function countCompanies(exec: TDb, filters: TProspectFilters, cap: number): Promise<TCount> {
  return cappedCount(exec, sql`select 1 from directory_companies c where ${companyWhere(filters)}`, cap);
}

/** The ids of the first `limit` people of a search, by relevance. */
export async function selectPersonIds(exec: TDb, filters: TProspectFilters, resolved: TResolved, limit: number): Promise<string[]> {
  const rows = await selectRows<{ id: string }>(exec, pageIds(filters, resolved, 'relevance', limit, 0));
  return rows.map((r) => r.id);
}

/** A search's matches as rows of the given columns of alias p (what the facets' sample reads). */
export function peopleMatchesOf(filters: TProspectFilters, resolved: TResolved): (columns: SQL) => SQL {
  return (columns) => personMatches(filters, resolved, columns);
}
