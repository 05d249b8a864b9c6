import { PROSPECT_FACET_SAMPLE, type TProspectFilters } from '@verilead/contracts';
import type { TDb } from '../../platform/db/database';
import {
  FACET_COLUMNS,
  selectCompanyFacetRows,
  selectRollupFacetRows,
  selectRollupTotal,
  selectSampleFacetRows,
  type TFacetRow,
  type TMatchesOf,
  type TRollupSlice,
  type TSqlFragment,
} from './facet-queries';

export { FACET_COLUMNS } from './facet-queries';

/**
 * Facet counts of a people search (GET /prospect/search/meta). Two ways, both exact for what they count:
 * - the roll-ups (`directory_facet_rollups`, kept by statement triggers on directory_people, migration 0020) answer an
 *   unfiltered search and one filtered by one of seniority, department or country only, over every match;
 * - any other search is counted over at most PROSPECT_FACET_SAMPLE matches, read once (`sampled` when more match),
 *   from the covering indexes (migration 0030).
 */

export type TFacets = Record<string, { value: string; count: number }[]>;
export type TFacetCounts = { total: number; sampled: boolean; facets: TFacets };

const ALL_FACETS = [...FACET_COLUMNS, 'technologies'] as const;
const FACET_LIMIT = 25;

/** The filters a roll-up answers: each maps to its roll-up dimension. */
const ROLLUP_FILTERS = { seniorities: 'seniority', departments: 'department', countries: 'country' } as const;

/** The roll-up slice a search reads: ('', ['']) for no filter, (dimension, values) for one roll-up filter; null otherwise. */
export function rollupSlice(filters: TProspectFilters): TRollupSlice | null {
  const used = Object.entries(filters).filter(([key, v]) => key !== 'similar_titles' && v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0));
  if (used.length === 0) return { dimension: '', values: [''] };
  if (used.length > 1) return null;
  const [key, values] = used[0]!;
  const dimension = (ROLLUP_FILTERS as Record<string, string | undefined>)[key];
  return dimension && Array.isArray(values) ? { dimension, values: [...new Set(values.map(String))] } : null;
}

function finish(rows: TFacetRow[]): TFacets {
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
  return selectRollupTotal(exec, slice);
}

/** Facets of every match from the roll-ups, or null when they cannot answer the search. */
export async function facetsFromRollups(exec: TDb, filters: TProspectFilters): Promise<TFacetCounts | null> {
  const slice = rollupSlice(filters);
  if (!slice) return null;
  const rows = await selectRollupFacetRows(exec, slice);
  const total = rows.find((r) => r.facet === '_total')?.n ?? 0;
  return { total: Number(total), sampled: false, facets: finish(rows) };
}

/**
 * Facets over at most PROSPECT_FACET_SAMPLE matches (`matchesOf(columns)`: the search's matches as rows of those
 * columns of alias p, as personMatches makes them), read once for every facet. The sample reads only columns the rank-ordered indexes
 * carry (the rank for the seniority, company_id for the technologies, looked up once per company of the sample in
 * directory_company_technologies; `offset 0` keeps those lookups from becoming a scan of every company's), so it comes
 * from the same index-only scans as the count.
 */
export async function facetsOfSample(exec: TDb, matchesOf: TMatchesOf, sample = PROSPECT_FACET_SAMPLE): Promise<TFacetCounts> {
  const rows = await selectSampleFacetRows(exec, matchesOf, sample);
  const matched = rows.find((r) => r.facet === '_total')?.n ?? 0;
  const sampled = matched > sample;
  return { total: sampled ? sample : matched, sampled, facets: finish(rows) };
}

/**
 * Facets of a company search, counted over companies (never their people): over at most `sample` matching companies
 * (`where` on alias c of directory_companies), `sampled` when more match; technologies from
 * directory_company_technologies.
 */
export async function facetsOfCompanies(exec: TDb, where: TSqlFragment, sample = PROSPECT_FACET_SAMPLE): Promise<TFacetCounts> {
  const rows = await selectCompanyFacetRows(exec, where, sample);
  const matched = rows.find((r) => r.facet === '_total')?.n ?? 0;
  const sampled = matched > sample;
  return { total: sampled ? sample : matched, sampled, facets: finish(rows) };
}
