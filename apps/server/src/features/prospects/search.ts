import { sql, type SQL } from 'drizzle-orm';
import type { TProspectFilters } from '@verilead/contracts';
import { selectRows, type TDb } from '../../platform/db/database';
import { TITLE_SYNONYMS } from './directory-data';

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
export type TFacets = Record<string, { value: string; count: number }[]>;

export type TProspectSearchEngine = {
  searchPeople(filters: TProspectFilters, opts: { sort: TSort; offset: number; limit: number }): Promise<{ rows: TPersonRow[]; total: number }>;
  searchCompanies(filters: TProspectFilters, opts: { sort: TSort; offset: number; limit: number }): Promise<{ rows: TCompanyRow[]; total: number }>;
  /** The ids of the first `limit` people of a search (adding a search to a list). */
  personIds(filters: TProspectFilters, limit: number): Promise<string[]>;
  facets(filters: TProspectFilters): Promise<{ total: number; facets: TFacets }>;
};

/** Counting stops here: totals above it show as this many (as Apollo caps results). */
export const SEARCH_TOTAL_CAP = 50_000;

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

/** Facets are counted over at most this many matching people (exact below it; a sample of the first ones above). */
export const FACET_SAMPLE = 20_000;

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

/** The WHERE clause of a search over people (alias p); companies' own searches use the same fields. */
export function personWhere(f: TProspectFilters, alias: 'p' | 'c' = 'p'): SQL {
  const col = (name: string) => sql.raw(`${alias}.${name}`);
  const isPeople = alias === 'p';
  const conds: SQL[] = [];
  if (f.keywords) {
    const k = likePattern(f.keywords);
    conds.push(isPeople ? sql`(p.full_name ilike ${k} or p.title ilike ${k} or p.company_name ilike ${k})` : sql`(c.name ilike ${k} or c.domain ilike ${k})`);
  }
  if (isPeople && f.job_titles?.length) {
    const titles = expandTitles(f.job_titles, f.similar_titles ?? false);
    // Resolved against the directory's few thousand distinct titles (trigram-indexed), then people by exact title:
    // whole words ("CTO" is not "Director"), and with similar titles also close spellings (pg_trgm word similarity).
    const parts = [sql`t.title ~* ${`(${titles.map(wordPattern).join('|')})`}`];
    if (f.similar_titles) for (const t of f.job_titles) parts.push(sql`${t} <% t.title`);
    conds.push(sql`p.title in (select t.title from directory_titles t where ${anyOf(parts)})`);
  }
  if (isPeople && f.seniorities?.length) conds.push(inList(sql`p.seniority`, f.seniorities));
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

function personOrder(sort: TSort): SQL {
  switch (sort) {
    case 'name':
      return sql`p.last_name, p.first_name, p.id`;
    case 'company':
      return sql`p.company_name nulls last, p.last_name, p.id`;
    case 'recently_updated':
      return sql`p.updated_at desc, p.id`;
    default:
      // Relevance: senior people first, then by name (stable).
      return sql`array_position(array['owner','founder','c_suite','partner','vp','head','director','manager','senior','entry','intern']::text[], p.seniority), p.id`;
  }
}

async function cappedCount(exec: TDb, from: SQL): Promise<number> {
  const rows = await selectRows<{ n: number }>(exec, sql`select count(*)::int as n from (select 1 ${from} limit ${SEARCH_TOTAL_CAP}) t`);
  return rows[0]?.n ?? 0;
}

const FACET_COLUMNS = ['seniority', 'department', 'country', 'industry', 'size_range', 'revenue_range'] as const;
const FACET_LIMIT = 25;

/** The PostgreSQL search engine. */
export function createSqlSearchEngine(exec: TDb): TProspectSearchEngine {
  return {
    async searchPeople(filters, { sort, offset, limit }) {
      const where = personWhere(filters);
      const [rows, total] = await Promise.all([
        selectRows<TPersonRow>(exec, sql`select ${PERSON_COLUMNS} from directory_people p where ${where} order by ${personOrder(sort)} limit ${limit} offset ${offset}`),
        cappedCount(exec, sql`from directory_people p where ${where}`),
      ]);
      return { rows, total };
    },
    async searchCompanies(filters, { sort, offset, limit }) {
      const where = companyWhere(filters);
      const order = sort === 'name' ? sql`c.name, c.id` : sort === 'recently_updated' ? sql`c.updated_at desc, c.id` : sql`c.employees desc, c.id`;
      const [rows, total] = await Promise.all([
        selectRows<TCompanyRow>(
          exec,
          sql`select c.id, c.name, c.domain, c.industry, c.industry_code, c.size_range, c.employees, c.revenue_range, c.founded_year, c.technologies,
                     c.country, c.region, c.city, c.linkedin_url
              from directory_companies c where ${where} order by ${order} limit ${limit} offset ${offset}`,
        ),
        cappedCount(exec, sql`from directory_companies c where ${where}`),
      ]);
      return { rows, total };
    },
    async personIds(filters, limit) {
      const rows = await selectRows<{ id: string }>(exec, sql`select p.id from directory_people p where ${personWhere(filters)} order by ${personOrder('relevance')} limit ${limit}`);
      return rows.map((r) => r.id);
    },
    async facets(filters) {
      const where = personWhere(filters);
      const grouped = await selectRows<Record<string, string | number | null>>(
        exec,
        sql`select ${sql.raw(FACET_COLUMNS.map((c) => `p.${c}`).join(', '))}, count(*)::int as n
            from (select * from directory_people p where ${where} limit ${FACET_SAMPLE}) p
            group by grouping sets (${sql.raw(FACET_COLUMNS.map((c) => `(p.${c})`).join(', '))})`,
      );
      const facets: TFacets = {};
      let total = 0;
      for (const c of FACET_COLUMNS) facets[c] = [];
      for (const row of grouped) {
        const column = FACET_COLUMNS.find((c) => row[c] !== null);
        if (!column) continue;
        facets[column]!.push({ value: String(row[column]), count: Number(row.n) });
        if (column === 'seniority') total += Number(row.n);
      }
      for (const c of FACET_COLUMNS) facets[c] = facets[c]!.sort((a, b) => b.count - a.count || a.value.localeCompare(b.value)).slice(0, FACET_LIMIT);
      facets.technologies = await selectRows<{ value: string; count: number }>(
        exec,
        sql`select t as value, count(*)::int as count from (select p.technologies from directory_people p where ${where} limit ${FACET_SAMPLE}) p, unnest(p.technologies) t
            group by t order by count desc, t limit ${FACET_LIMIT}`,
      );
      return { total, facets };
    },
  };
}
