import { sql, type SQL } from 'drizzle-orm';
import { PROSPECT_FACET_SAMPLE, PROSPECT_SENIORITIES, type TProspectFilters } from '@verilead/contracts';
import { selectRows, type TDb } from '../../platform/db/database';

/**
 * Facet counts of a people search (GET /prospect/search/meta). Two ways, both exact for what they count:
 * - the roll-ups (`directory_facet_rollups`, kept by statement triggers on directory_people, migration 0020) answer an
 *   unfiltered search and one filtered by one of seniority, department or country only, over every match;
 * - any other search is counted over at most PROSPECT_FACET_SAMPLE matches, read once (`sampled` when more match),
 *   from the covering indexes (migration 0030).
 */

export type TFacets = Record<string, { value: string; count: number }[]>;
export type TFacetCounts = { total: number; sampled: boolean; facets: TFacets };

export const FACET_COLUMNS = ['seniority', 'department', 'country', 'industry', 'size_range', 'revenue_range'] as const;
const ALL_FACETS = [...FACET_COLUMNS, 'technologies'] as const;
const FACET_LIMIT = 25;

/** The filters a roll-up answers: each maps to its roll-up dimension. */
const ROLLUP_FILTERS = { seniorities: 'seniority', departments: 'department', countries: 'country' } as const;

/** The roll-up slice a search reads: ('', ['']) for no filter, (dimension, values) for one roll-up filter; null otherwise. */
export function rollupSlice(filters: TProspectFilters): { dimension: string; values: string[] } | null {
  const used = Object.entries(filters).filter(([key, v]) => key !== 'similar_titles' && v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0));
  if (used.length === 0) return { dimension: '', values: [''] };
  if (used.length > 1) return null;
  const [key, values] = used[0]!;
  const dimension = (ROLLUP_FILTERS as Record<string, string | undefined>)[key];
  return dimension && Array.isArray(values) ? { dimension, values: [...new Set(values.map(String))] } : null;
}

function inValues(values: readonly string[]): SQL {
  return sql`(${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )})`;
}

function finish(rows: { facet: string; value: string; n: number }[]): TFacets {
  const facets: TFacets = {};
  for (const f of ALL_FACETS) facets[f] = [];
  for (const r of rows) if (r.facet !== '_total' && r.n > 0) facets[r.facet]?.push({ value: r.value, count: Number(r.n) });
  for (const f of ALL_FACETS) facets[f] = facets[f]!.sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0)).slice(0, FACET_LIMIT);
  return facets;
}

/** The exact count of a search from the roll-ups, or null when they cannot answer it. */
export async function countFromRollups(exec: TDb, filters: TProspectFilters): Promise<number | null> {
  const slice = rollupSlice(filters);
  if (!slice) return null;
  const rows = await selectRows<{ n: number | null }>(
    exec,
    sql`select sum(n)::int as n from directory_facet_rollups
        where filter_facet = ${slice.dimension} and filter_value in ${inValues(slice.values)} and facet = '_total' and value = ''`,
  );
  return rows[0]?.n ?? 0;
}

/** Facets of every match from the roll-ups, or null when they cannot answer the search. */
export async function facetsFromRollups(exec: TDb, filters: TProspectFilters): Promise<TFacetCounts | null> {
  const slice = rollupSlice(filters);
  if (!slice) return null;
  const rows = await selectRows<{ facet: string; value: string; n: number }>(
    exec,
    sql`select facet, value, sum(n)::int as n from directory_facet_rollups
        where filter_facet = ${slice.dimension} and filter_value in ${inValues(slice.values)}
        group by facet, value`,
  );
  const total = rows.find((r) => r.facet === '_total')?.n ?? 0;
  return { total: Number(total), sampled: false, facets: finish(rows) };
}

/** The seniority of a stored rank (1 = owner … 11 = intern; the import accepts only these). */
const SENIORITY_BY_RANK = `{${PROSPECT_SENIORITIES.join(',')}}`;

/**
 * Facets over at most PROSPECT_FACET_SAMPLE matches (`matchesOf(columns)`: the search's matches as rows of those
 * columns of alias p, as personMatches makes them), read once for every facet. The sample reads only columns the rank-ordered indexes
 * carry (the rank for the seniority, company_id for the technologies, looked up once per company of the sample in
 * directory_company_technologies; `offset 0` keeps those lookups from becoming a scan of every company's), so it comes
 * from the same index-only scans as the count.
 */
export async function facetsOfSample(exec: TDb, matchesOf: (columns: SQL) => SQL, sample = PROSPECT_FACET_SAMPLE): Promise<TFacetCounts> {
  const columns = sql.raw(`p.seniority_rank, ${FACET_COLUMNS.filter((c) => c !== 'seniority').map((c) => `p.${c}`).join(', ')}, p.company_id`);
  const values = sql.raw(FACET_COLUMNS.filter((c) => c !== 'seniority').map((c) => `('${c}', t.${c})`).join(', '));
  const matches = matchesOf(columns);
  const rows = await selectRows<{ facet: string; value: string; n: number }>(
    exec,
    sql`with s as materialized (${matches} limit ${sample + 1}),
        t as (select * from s limit ${sample})
        select '_total' as facet, '' as value, (select count(*) from s)::int as n
        union all
        select f.facet, f.value, count(*)::int from t, lateral (values ('seniority', (${SENIORITY_BY_RANK}::text[])[t.seniority_rank]), ${values}) f(facet, value)
          where f.value is not null group by f.facet, f.value
        union all
        select 'technologies', ct.technology, sum(c.n)::int
          from (select t.company_id, count(*) as n from t where t.company_id is not null group by t.company_id) c,
            lateral (select ct.technology from directory_company_technologies ct where ct.company_id = c.company_id offset 0) ct
          group by ct.technology`,
  );
  const matched = rows.find((r) => r.facet === '_total')?.n ?? 0;
  const sampled = matched > sample;
  return { total: sampled ? sample : matched, sampled, facets: finish(rows) };
}

/**
 * Facets of a company search, counted over companies (never their people): over at most `sample` matching companies
 * (`where` on alias c of directory_companies), `sampled` when more match; technologies from
 * directory_company_technologies.
 */
export async function facetsOfCompanies(exec: TDb, where: SQL, sample = PROSPECT_FACET_SAMPLE): Promise<TFacetCounts> {
  const rows = await selectRows<{ facet: string; value: string; n: number }>(
    exec,
    sql`with s as materialized (select c.id, c.country, c.industry, c.size_range, c.revenue_range from directory_companies c where ${where} limit ${sample + 1}),
        t as (select * from s limit ${sample})
        select '_total' as facet, '' as value, (select count(*) from s)::int as n
        union all
        select f.facet, f.value, count(*)::int from t,
          lateral (values ('country', t.country), ('industry', t.industry), ('size_range', t.size_range), ('revenue_range', t.revenue_range)) f(facet, value)
          where f.value is not null group by f.facet, f.value
        union all
        select 'technologies', ct.technology, count(*)::int from t join directory_company_technologies ct on ct.company_id = t.id group by ct.technology`,
  );
  const matched = rows.find((r) => r.facet === '_total')?.n ?? 0;
  const sampled = matched > sample;
  return { total: sampled ? sample : matched, sampled, facets: finish(rows) };
}
