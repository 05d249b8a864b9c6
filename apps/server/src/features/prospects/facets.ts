import { sql, type SQL } from 'drizzle-orm';
import { PROSPECT_FACET_SAMPLE, type TProspectFilters } from '@verilead/contracts';
import { selectRows, type TDb } from '../../platform/db/database';

/**
 * Facet counts of a people search (GET /prospect/search/meta). Two ways, both exact for what they count:
 * - the roll-ups (`directory_facet_rollups`, kept by statement triggers on directory_people, migration 0020) answer an
 *   unfiltered search and one filtered by one of seniority, department or country only, over every match;
 * - any other search is counted over at most PROSPECT_FACET_SAMPLE matches, read once (`sampled` when more match).
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

/** Facets over at most PROSPECT_FACET_SAMPLE matches (alias p in `where`), read once for every facet. */
export async function facetsOfSample(exec: TDb, where: SQL, sample = PROSPECT_FACET_SAMPLE): Promise<TFacetCounts> {
  const columns = sql.raw(FACET_COLUMNS.map((c) => `p.${c}`).join(', '));
  const rows = await selectRows<{ facet: string; value: string; n: number }>(
    exec,
    sql`with s as materialized (select ${columns}, p.technologies from directory_people p where ${where} limit ${sample + 1}),
        t as (select * from s limit ${sample})
        select '_total' as facet, '' as value, (select count(*) from s)::int as n
        union all
        select f.facet, f.value, count(*)::int from t, lateral (values ${sql.raw(FACET_COLUMNS.map((c) => `('${c}', t.${c})`).join(', '))}) f(facet, value)
          where f.value is not null group by f.facet, f.value
        union all
        select 'technologies', x, count(*)::int from t, unnest(t.technologies) x group by x`,
  );
  const matched = rows.find((r) => r.facet === '_total')?.n ?? 0;
  const sampled = matched > sample;
  return { total: sampled ? sample : matched, sampled, facets: finish(rows) };
}
