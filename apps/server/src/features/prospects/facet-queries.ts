import { sql, type SQL } from 'drizzle-orm';
import { PROSPECT_SENIORITIES } from '@verilead/contracts';
import { selectRows, type TDb } from '../../platform/db/database';

// The facets' statements (facets.ts decides which to run and shapes their rows).

export const FACET_COLUMNS = ['seniority', 'department', 'country', 'industry', 'size_range', 'revenue_range'] as const;

/** One counted value of one facet; facet `_total` (value '') carries how many matched. */
export type TFacetRow = { facet: string; value: string; n: number };

/** A piece of a search's SQL, handed from one query builder to another. */
export type TSqlFragment = SQL;

/** A search's matches as rows of `columns` of alias p (as personMatches makes them). */
export type TMatchesOf = (columns: SQL) => SQL;

/** A roll-up slice: ('', ['']) for no filter, (dimension, values) for one roll-up filter. */
export type TRollupSlice = { dimension: string; values: string[] };

function inValues(values: readonly string[]): SQL {
  return sql`(${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )})`;
}

/** The number of matches of a roll-up slice. */
export async function selectRollupTotal(exec: TDb, slice: TRollupSlice): Promise<number> {
  const rows = await selectRows<{ n: number | null }>(
    exec,
    sql`select sum(n)::int as n from directory_facet_rollups
        where filter_facet = ${slice.dimension} and filter_value in ${inValues(slice.values)} and facet = '_total' and value = ''`,
  );
  return rows[0]?.n ?? 0;
}

/** Every facet value's count of a roll-up slice (with its `_total`). */
export function selectRollupFacetRows(exec: TDb, slice: TRollupSlice): Promise<TFacetRow[]> {
  return selectRows<TFacetRow>(
    exec,
    sql`select facet, value, sum(n)::int as n from directory_facet_rollups
        where filter_facet = ${slice.dimension} and filter_value in ${inValues(slice.values)}
        group by facet, value`,
  );
}

/** The seniority of a stored rank (1 = owner … 11 = intern; the import accepts only these). */
const SENIORITY_BY_RANK = `{${PROSPECT_SENIORITIES.join(',')}}`;

/**
 * Facet counts over at most `sample` matches, read once for every facet, with `_total` counting up to `sample + 1`.
 * The sample reads only columns the rank-ordered indexes carry (the rank for the seniority, company_id for the
 * technologies, looked up once per company of the sample in directory_company_technologies; `offset 0` keeps those
 * lookups from becoming a scan of every company's), so it comes from the same index-only scans as the count.
 */
export function selectSampleFacetRows(exec: TDb, matchesOf: TMatchesOf, sample: number): Promise<TFacetRow[]> {
  const columns = sql.raw(`p.seniority_rank, ${FACET_COLUMNS.filter((c) => c !== 'seniority').map((c) => `p.${c}`).join(', ')}, p.company_id`);
  const values = sql.raw(FACET_COLUMNS.filter((c) => c !== 'seniority').map((c) => `('${c}', t.${c})`).join(', '));
  const matches = matchesOf(columns);
  return selectRows<TFacetRow>(
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
}

/** Facet counts over at most `sample` companies matching `where` (alias c), `_total` counting up to `sample + 1`. */
export function selectCompanyFacetRows(exec: TDb, where: SQL, sample: number): Promise<TFacetRow[]> {
  return selectRows<TFacetRow>(
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
}
