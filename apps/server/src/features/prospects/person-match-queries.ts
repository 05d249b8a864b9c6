import { sql, type SQL } from 'drizzle-orm';
import { PROSPECT_SENIORITIES, type TProspectFilters } from '@verilead/contracts';
import { selectRows, type TDb } from '../../platform/db/database';
import { TITLE_SYNONYMS } from './directory-data';

/**
 * Which people a search's filters match, as SQL over directory_people (alias p), written so the covering indexes
 * answer it without reading the table: every filter is on a column the rank-ordered indexes carry (their keys, their
 * INCLUDE columns and company_id; region and city have their own, migration 0030), except a keyword's name part.
 * - Job titles and a keyword's titles are resolved against directory_titles first (the planner then sees the list).
 * - Company filters (name, domain, technologies) match the person's company: by company_id, through
 *   directory_companies and directory_company_technologies. A person's company fields are copies of their company's
 *   (and empty without one: migration 0030), so this matches exactly the people whose copies match.
 * - A keyword matches a title, the company name or the person's name: three disjoint branches (company; title and not
 *   that company; name and neither), each served by its own index, counted and sorted as one union.
 */

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

function allOf(parts: SQL[]): SQL {
  return parts.length ? sql.join(parts, sql` and `) : sql`true`;
}

export function inList(column: SQL, values: readonly (string | number)[]): SQL {
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

function titleMatch(f: TProspectFilters): SQL {
  const titles = expandTitles(f.job_titles ?? [], f.similar_titles ?? false);
  // Whole words ("CTO" is not "Director"), and with similar titles also close spellings (pg_trgm word similarity).
  const parts = [sql`t.title ~* ${`(${titles.map(wordPattern).join('|')})`}`];
  if (f.similar_titles) for (const t of f.job_titles ?? []) parts.push(sql`${t} <% t.title`);
  return anyOf(parts);
}

/** A company domain as stored (no scheme, no www., no path). */
export function bareDomain(domain: string): string {
  return domain.replace(/^https?:\/\/(www\.)?/, '').replace(/\/.*$/, '');
}

/** The company name and domain filters over directory_companies (alias c). */
function companyMatch(f: TProspectFilters): SQL {
  const conds: SQL[] = [];
  if (f.company_names?.length) conds.push(anyOf(f.company_names.map((n) => sql`c.name ilike ${likePattern(n)}`)));
  if (f.company_domains?.length) conds.push(inList(sql`c.domain`, f.company_domains.map(bareDomain)));
  return allOf(conds);
}

/**
 * The lookups a search resolves before its main statements, as lists the planner can see through; undefined when
 * there are too many (the search then keeps the subquery, with the same meaning).
 */
export type TResolved = {
  jobTitles?: string[];
  keywordTitles?: string[];
  /** Companies whose name contains the keywords. */
  keywordCompanies?: string[];
  /** People whose name contains the keywords. */
  keywordPeople?: string[];
  /** Companies matching the company name and domain filters. */
  companies?: string[];
};
const MAX_RESOLVED_TITLES = 500;
const MAX_RESOLVED_IDS = 1_000;

export async function resolveFilters(exec: TDb, f: TProspectFilters): Promise<TResolved> {
  const titles = async (where: SQL) => {
    const rows = await selectRows<{ title: string }>(exec, sql`select t.title from directory_titles t where ${where} order by t.title limit ${MAX_RESOLVED_TITLES + 1}`);
    return rows.length > MAX_RESOLVED_TITLES ? undefined : rows.map((r) => r.title);
  };
  const ids = async (query: SQL) => {
    const rows = await selectRows<{ id: string }>(exec, sql`${query} limit ${MAX_RESOLVED_IDS + 1}`);
    return rows.length > MAX_RESOLVED_IDS ? undefined : rows.map((r) => r.id).sort();
  };
  const k = f.keywords ? likePattern(f.keywords) : undefined;
  const [jobTitles, keywordTitles, keywordCompanies, keywordPeople, companies] = await Promise.all([
    f.job_titles?.length ? titles(titleMatch(f)) : undefined,
    k ? titles(sql`t.title ilike ${k}`) : undefined,
    k ? ids(sql`select c.id::text as id from directory_companies c where c.name ilike ${k}`) : undefined,
    k ? ids(sql`select n.id::text as id from directory_people n where n.full_name ilike ${k}`) : undefined,
    f.company_names?.length || f.company_domains?.length ? ids(sql`select c.id::text as id from directory_companies c where ${companyMatch(f)}`) : undefined,
  ]);
  return { jobTitles, keywordTitles, keywordCompanies, keywordPeople, companies };
}

/** The stored `seniority_rank` of a seniority (migration 0020): relevance sorts by it, most senior first. */
export function seniorityRank(seniority: string): number {
  const i = (PROSPECT_SENIORITIES as readonly string[]).indexOf(seniority);
  return i < 0 ? 12 : i + 1;
}

/** A set as a condition on `column`: the resolved list (empty: nothing), or else the subquery. */
function member(column: SQL, list: string[] | undefined, subquery: SQL): SQL {
  if (!list) return sql`${column} in (${subquery})`;
  return list.length ? inList(column, list) : sql`false`;
}

/**
 * The filters on a person's company (name, domain, size, industry, revenue, technologies, founded year) as conditions
 * over directory_companies (alias c): each holds for every person of a company or for none.
 */
function companyTraitConditions(f: TProspectFilters): SQL[] {
  const conds: SQL[] = [];
  if (f.company_names?.length || f.company_domains?.length) conds.push(companyMatch(f));
  if (f.size_ranges?.length) conds.push(inList(sql`c.size_range`, f.size_ranges));
  if (f.industries?.length) conds.push(inList(sql`c.industry`, f.industries));
  if (f.revenue_ranges?.length) conds.push(inList(sql`c.revenue_range`, f.revenue_ranges));
  if (f.technologies?.length) {
    conds.push(sql`c.id in (select ct.company_id from directory_company_technologies ct where ${inList(sql`ct.technology`, f.technologies)})`);
  }
  if (f.founded_year_min !== undefined) conds.push(sql`c.founded_year >= ${f.founded_year_min}`);
  if (f.founded_year_max !== undefined) conds.push(sql`c.founded_year <= ${f.founded_year_max}`);
  return conds;
}

/**
 * Whether a search's matches are best found company by company: the companies first (through their own indexes),
 * then each one's people from the company index (index-only, ~8 µs a company). The other way, PostgreSQL reads the
 * people the person filters allow from one index range (~0.5 µs a person) and keeps those of the companies, until the
 * count's cap; with no person filter that is a scan of the whole table. So, company by company:
 * - technologies (no index on people) with nothing but company filters (no seniority, department or country);
 * - company names or domains matching more companies than a resolved list holds, with at most seniorities,
 *   departments or countries: a name's companies are a small share of all, so reading the people those allow
 *   (all the managers, say) costs more than a few thousand company lookups.
 * Never when a filter picks few people on its own (titles, keywords, a city or region): those are read from their
 * own indexes. A technology with a seniority, department or country stays people first: a technology is common (one
 * company in ten or more), so the cap comes soon (Salesforce and marketing on the bench's 1,000,000 people: counted
 * in 28 ms people first, in 94 ms company by company).
 */
export function companyDriven(f: TProspectFilters, resolved: TResolved = {}): boolean {
  if (f.keywords || f.job_titles?.length || f.cities?.length || f.regions?.length) return false;
  if ((f.company_names?.length || f.company_domains?.length) && !resolved.companies) return true;
  return Boolean(f.technologies?.length) && !f.seniorities?.length && !f.departments?.length && !f.countries?.length;
}

/**
 * A search's matches as rows of `columns` (over directory_people, alias p): company by company when `companyDriven`
 * (`offset 0` keeps each company's people a lookup of the company index rather than one join PostgreSQL may hash),
 * else the union of the disjoint branches. A LIMIT over it stops the reading early.
 */
export function personMatches(f: TProspectFilters, resolved: TResolved, columns: SQL): SQL {
  if (companyDriven(f, resolved)) {
    const people = allOf(filterConditions(f, resolved, false));
    return sql`select x.* from directory_companies c
      cross join lateral (select ${columns} from directory_people p where p.company_id = c.id and ${people} offset 0) x
      where ${allOf(companyTraitConditions(f))}`;
  }
  return sql.join(
    personBranches(f, resolved).map((b) => sql`select ${columns} from directory_people p where ${b}`),
    sql` union all `,
  );
}

/** Every filter but the keywords; without the company's own filters when `companyTraits` is false (see personMatches). */
function filterConditions(f: TProspectFilters, resolved: TResolved, companyTraits = true): SQL[] {
  const conds: SQL[] = [];
  if (f.job_titles?.length) {
    // Resolved against the directory's few hundred distinct titles (trigram-indexed), then people by exact title.
    conds.push(member(sql`p.title`, resolved.jobTitles, sql`select t.title from directory_titles t where ${titleMatch(f)}`));
  }
  if (f.seniorities?.length) {
    // By the stored rank (the relevance order), as a range too, so rank-ordered indexes serve it in order.
    const ranks = f.seniorities.map(seniorityRank);
    conds.push(sql`p.seniority_rank between ${Math.min(...ranks)} and ${Math.max(...ranks)}`, inList(sql`p.seniority_rank`, ranks));
  }
  if (f.departments?.length) conds.push(inList(sql`p.department`, f.departments));
  if (f.countries?.length) conds.push(inList(sql`p.country`, f.countries));
  if (f.regions?.length) conds.push(ciInList(sql`p.region`, f.regions));
  if (f.cities?.length) conds.push(ciInList(sql`p.city`, f.cities));
  if (!companyTraits) return conds;
  if (f.company_names?.length || f.company_domains?.length) {
    conds.push(member(sql`p.company_id`, resolved.companies, sql`select c.id from directory_companies c where ${companyMatch(f)}`));
  }
  if (f.size_ranges?.length) conds.push(inList(sql`p.size_range`, f.size_ranges));
  if (f.industries?.length) conds.push(inList(sql`p.industry`, f.industries));
  if (f.revenue_ranges?.length) conds.push(inList(sql`p.revenue_range`, f.revenue_ranges));
  if (f.technologies?.length) {
    conds.push(sql`p.company_id in (select ct.company_id from directory_company_technologies ct where ${inList(sql`ct.technology`, f.technologies)})`);
  }
  if (f.founded_year_min !== undefined) conds.push(sql`p.founded_year >= ${f.founded_year_min}`);
  if (f.founded_year_max !== undefined) conds.push(sql`p.founded_year <= ${f.founded_year_max}`);
  return conds;
}

/** A WHERE clause of a search's matches; `ordered`: it names one title, so the title index reads it in rank order. */
export type TBranch = { where: SQL; ordered: boolean };

/** Beyond this many titles a page is sorted from all the matches rather than merged from one walk per title. */
const MAX_TITLE_WALKS = 40;

/** A keyword's part: people whose `column` is in a set (the resolved list, or else the subquery). */
type TKeywordPart = { column: SQL; list: string[] | undefined; subquery: SQL; nullable: boolean };

function notMember(part: TKeywordPart): SQL {
  const notIn = part.list
    ? sql`${part.column} not in (${sql.join(
        part.list.map((v) => sql`${v}`),
        sql`, `,
      )})`
    : sql`${part.column} not in (${part.subquery})`;
  return part.nullable ? sql`(${part.column} is null or ${notIn})` : notIn;
}

function branchesOf(f: TProspectFilters, resolved: TResolved, splitTitles: boolean): TBranch[] {
  const jobTitles = resolved.jobTitles;
  if (splitTitles && f.job_titles?.length && jobTitles && jobTitles.length > 1 && jobTitles.length <= MAX_TITLE_WALKS) {
    return jobTitles.flatMap((title) => branchesOf(f, { ...resolved, jobTitles: [title] }, false));
  }
  const oneJobTitle = Boolean(f.job_titles?.length && jobTitles?.length === 1);
  const rest = filterConditions(f, resolved);
  if (!f.keywords) return [{ where: allOf(rest), ordered: oneJobTitle }];
  const k = likePattern(f.keywords);
  const company: TKeywordPart = { column: sql`p.company_id`, list: resolved.keywordCompanies, subquery: sql`select c.id from directory_companies c where c.name ilike ${k}`, nullable: true };
  const title: TKeywordPart = { column: sql`p.title`, list: resolved.keywordTitles, subquery: sql`select t.title from directory_titles t where t.title ilike ${k}`, nullable: false };
  const name: TKeywordPart = { column: sql`p.id`, list: resolved.keywordPeople, subquery: sql`select n.id from directory_people n where n.full_name ilike ${k}`, nullable: false };
  const parts = [company, title, name].filter((part) => !part.list || part.list.length > 0);
  if (parts.length === 0) return [{ where: sql`false`, ordered: false }];
  return parts.flatMap((part, i) => {
    const excluded = parts.slice(0, i).map(notMember);
    // A page walks each of a few titles in rank order (titles are disjoint: they need not exclude each other).
    const split = part === title && splitTitles && !f.job_titles?.length && title.list && title.list.length <= MAX_TITLE_WALKS;
    const sets = split ? title.list!.map((t) => ({ ...title, list: [t] })) : [part];
    return sets.map((set) => ({
      where: allOf([member(set.column, set.list, set.subquery), ...excluded, ...rest]),
      ordered: oneJobTitle || (part === title && set.list?.length === 1),
    }));
  });
}

/**
 * A search's matches as disjoint WHERE clauses over directory_people (alias p): one without keywords; with keywords
 * one per part that can match (company, then title, then name), each excluding the parts before it.
 */
export function personBranches(f: TProspectFilters, resolved: TResolved = {}): SQL[] {
  return branchesOf(f, resolved, false).map((b) => b.where);
}

/**
 * The same matches split further for reading a page: one branch per title when the titles are few, each read from
 * the title index in rank order up to the page's end, so a page merges a few rows a title instead of sorting every match.
 */
export function pageBranches(f: TProspectFilters, resolved: TResolved = {}): TBranch[] {
  return branchesOf(f, resolved, true);
}

/** A search's matches as one condition (alias p). */
export function personWhere(f: TProspectFilters, resolved: TResolved = {}): SQL {
  const branches = personBranches(f, resolved);
  return branches.length === 1 ? branches[0]! : sql`(${sql.join(branches.map((b) => sql`(${b})`), sql` or `)})`;
}

/**
 * Filters whose matches are best found through their own indexes and then sorted: walking the rank index instead
 * (which the planner likes when it thinks matches are spread evenly) can read most of the directory when the
 * matches sit at the far end of it (recruiters are seldom owners). Company names and domains matching more companies
 * than a list holds are not: their people are spread through the directory, so the rank walk finds a page soon.
 */
export function selective(f: TProspectFilters, resolved: TResolved = {}): boolean {
  const companies = Boolean((f.company_names?.length || f.company_domains?.length) && resolved.companies);
  // One region or city is read from its own index in rank order; several are not.
  const places = (f.cities?.length ?? 0) > 1 || (f.regions?.length ?? 0) > 1;
  return Boolean(f.job_titles?.length || f.keywords || companies || places);
}
