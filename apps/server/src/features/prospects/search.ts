import { PROSPECT_FACET_SAMPLE, PROSPECT_SEARCH_COUNT_CAP, type TProspectFilters } from '@verilead/contracts';
import type { TDb } from '../../platform/db/database';
import { countFromRollups, facetsFromRollups, facetsOfCompanies, facetsOfSample, type TFacetCounts } from './facets';
import { resolveFilters } from './person-match-queries';
import {
  companyWhere,
  countCompanies,
  countPeople,
  peopleMatchesOf,
  selectCompaniesPage,
  selectPeoplePage,
  selectPersonIds,
  type TCompanyRow,
  type TCount,
  type TPersonRow,
  type TSort,
} from './search-queries';

export type { TFacets } from './facets';
export { PERSON_COLUMNS, type TCompanyRow, type TCount, type TPersonRow, type TSort } from './search-queries';
export { likePattern } from './person-match-queries';

/**
 * The search module: filters → SQL over the directory (PostgreSQL or PGlite, with pg_trgm for names, titles and
 * company names), built by search-queries.ts. Everything else goes through `TProspectSearchEngine`, so another
 * engine could replace this one.
 */

export type TProspectSearchEngine = {
  searchPeople(filters: TProspectFilters, opts: { sort: TSort; offset: number; limit: number }): Promise<{ rows: TPersonRow[] } & TCount>;
  searchCompanies(filters: TProspectFilters, opts: { sort: TSort; offset: number; limit: number }): Promise<{ rows: TCompanyRow[] } & TCount>;
  /** The ids of the first `limit` people of a search (adding a search to a list). */
  personIds(filters: TProspectFilters, limit: number): Promise<string[]>;
  facets(filters: TProspectFilters): Promise<TFacetCounts>;
  /** Facets of a company search, counting companies. */
  companyFacets(filters: TProspectFilters): Promise<TFacetCounts>;
};

/** The PostgreSQL search engine (tests may lower the count cap and the facet sample to see them at work on a small directory). */
export function createSqlSearchEngine(exec: TDb, limits: { countCap?: number; facetSample?: number } = {}): TProspectSearchEngine {
  const countCap = limits.countCap ?? PROSPECT_SEARCH_COUNT_CAP;
  const facetSample = limits.facetSample ?? PROSPECT_FACET_SAMPLE;
  return {
    async searchPeople(filters, { sort, offset, limit }) {
      const resolved = await resolveFilters(exec, filters);
      // The page's ids first (from indexes where the filters allow), then only those rows from the table.
      const [rows, count] = await Promise.all([
        selectPeoplePage(exec, filters, resolved, { sort, offset, limit }),
        countFromRollups(exec, filters).then((exact) => (exact === null ? countPeople(exec, filters, resolved, countCap) : { total: exact, capped: false })),
      ]);
      return { rows, ...count };
    },
    async searchCompanies(filters, { sort, offset, limit }) {
      const [rows, count] = await Promise.all([selectCompaniesPage(exec, filters, { sort, offset, limit }), countCompanies(exec, filters, countCap)]);
      return { rows, ...count };
    },
    async personIds(filters, limit) {
      return selectPersonIds(exec, filters, await resolveFilters(exec, filters), limit);
    },
    async facets(filters) {
      const fromRollups = await facetsFromRollups(exec, filters);
      if (fromRollups) return fromRollups;
      const resolved = await resolveFilters(exec, filters);
      return facetsOfSample(exec, peopleMatchesOf(filters, resolved), facetSample);
    },
    companyFacets: (filters) => facetsOfCompanies(exec, companyWhere(filters), facetSample),
  };
}
