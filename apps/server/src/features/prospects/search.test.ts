import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROSPECT_SENIORITIES, type TProspectFilters } from '@verilead/contracts';
import { selectRows } from '../../platform/db/database';
import { createTestDb, type TTestDb } from '../../test/test-db';
import { importDirectory, seedDirectory } from './directory-import';
import { facetsFromRollups, facetsOfSample, rollupSlice } from './facets';
import { generateCompanies, generatePeople, type TGeneratedPerson } from './generator';
import { personWhere } from './person-match-queries';
import { createSqlSearchEngine } from './search';

const SEED = 23;
type TRollup = { filter_facet: string; filter_value: string; facet: string; value: string; n: number };

/** The roll-ups counted afresh from directory_people (what the triggers must keep them equal to). */
const RECOUNT = sql`
  with f as (
    select d.seniority, d.department, d.country, x.facet, x.value
    from directory_people d, lateral (values ('_total', ''), ('seniority', d.seniority), ('department', d.department), ('country', d.country),
      ('industry', d.industry), ('size_range', d.size_range), ('revenue_range', d.revenue_range)) x(facet, value)
    where x.value is not null
    union all select d.seniority, d.department, d.country, 'technologies', t from directory_people d, unnest(d.technologies) t
  )
  select * from (
    select '' as filter_facet, '' as filter_value, facet, value, count(*)::int as n from f group by facet, value
    union all select 'seniority', seniority, facet, value, count(*)::int from f group by seniority, facet, value
    union all select 'department', department, facet, value, count(*)::int from f group by department, facet, value
    union all select 'country', country, facet, value, count(*)::int from f group by country, facet, value
  ) r order by 1, 2, 3, 4`;

describe('prospect search engine', () => {
  let db: TTestDb;
  let people: TGeneratedPerson[];

  const stored = () =>
    selectRows<TRollup>(db.db, sql`select filter_facet, filter_value, facet, value, n::int as n from directory_facet_rollups where n <> 0 order by 1, 2, 3, 4`);
  const recounted = () => selectRows<TRollup>(db.db, RECOUNT);

  beforeAll(async () => {
    db = await createTestDb();
    people = [...generatePeople(300, generateCompanies(20, SEED), SEED)];
    await seedDirectory(db, { companies: 20, people: 300, seed: SEED });
  }, 60_000);
  afterAll(async () => {
    await db?.dispose();
  });

  it('keeps the facet roll-ups equal to a direct count through inserts, re-imports, company moves and deletes', async () => {
    expect((await stored()).length).toBeGreaterThan(50);
    expect(await stored()).toEqual(await recounted());
    const total = (await stored()).find((r) => r.filter_facet === '' && r.facet === '_total')!;
    expect(total.n).toBe(300);

    // A company changes (its people's copies follow), a person changes seniority and country, one is new.
    const first = people[0]!;
    const ndjson = [
      JSON.stringify({ record: 'company', external_id: first.company_external_id, name: 'Moved Co', domain: 'moved.example', industry: 'Commercial Banking', industry_code: '522110', employees: 7000, country: 'DE', technologies: ['SAP', 'AWS'] }),
      JSON.stringify({ ...first, record: 'person', mailbox_exists: undefined, seniority: 'owner', country: 'JP', region: null, city: null }),
      JSON.stringify({ record: 'person', external_id: 'new-1', first_name: 'Nina', last_name: 'New', title: 'Data Engineer', seniority: 'senior', department: 'data', country: 'BR' }),
    ].join('\n');
    const report = await importDirectory(db, Readable.from([ndjson]), 'ndjson');
    expect(report.bad).toEqual([]);
    expect(await stored()).toEqual(await recounted());
    // The same file again changes nothing.
    await importDirectory(db, Readable.from([ndjson]), 'ndjson');
    expect(await stored()).toEqual(await recounted());

    await db.db.execute(sql`delete from directory_people where external_id in ('new-1', ${people[1]!.external_id}, ${people[2]!.external_id})`);
    expect(await stored()).toEqual(await recounted());
    expect((await stored()).find((r) => r.filter_facet === '' && r.facet === '_total')!.n).toBe(298);
  });

  it('answers the same facets from the roll-ups as from counting the matches', async () => {
    const searches: TProspectFilters[] = [{}, { countries: ['US', 'DE'] }, { seniorities: ['entry', 'senior', 'owner'] }, { departments: ['engineering'] }];
    for (const filters of searches) {
      expect(rollupSlice(filters), JSON.stringify(filters)).not.toBeNull();
      const fromRollups = await facetsFromRollups(db.db, filters);
      const counted = await facetsOfSample(db.db, (columns) => sql`select ${columns} from directory_people p where ${personWhere(filters)}`);
      expect(counted.sampled).toBe(false);
      expect(fromRollups, JSON.stringify(filters)).toEqual(counted);
      const direct = await selectRows<{ n: number }>(db.db, sql`select count(*)::int as n from directory_people p where ${personWhere(filters)}`);
      expect(fromRollups!.total).toBe(direct[0]!.n);
      const seniority = await selectRows<{ value: string; n: number }>(
        db.db,
        sql`select seniority as value, count(*)::int as n from directory_people p where ${personWhere(filters)} group by seniority`,
      );
      for (const s of seniority) expect(fromRollups!.facets.seniority!.find((b) => b.value === s.value)?.count).toBe(s.n);
    }
    // Two filters, or a filter the roll-ups do not hold, are counted over the matches.
    expect(rollupSlice({ countries: ['US'], departments: ['sales'] })).toBeNull();
    expect(rollupSlice({ industries: ['Software Publishers'] })).toBeNull();
    expect(await facetsFromRollups(db.db, { countries: ['US'], seniorities: ['entry'] })).toBeNull();
  });

  it('counts exactly below the cap, says "capped" above it, and samples facets the same way', async () => {
    const engine = createSqlSearchEngine(db.db, { countCap: 30, facetSample: 20 });
    const broad: TProspectFilters = { departments: ['engineering', 'sales', 'data', 'marketing', 'finance', 'operations'], seniorities: [...PROSPECT_SENIORITIES] };
    const direct = async (f: TProspectFilters) => (await selectRows<{ n: number }>(db.db, sql`select count(*)::int as n from directory_people p where ${personWhere(f)}`))[0]!.n;
    expect(await direct(broad)).toBeGreaterThan(30);
    expect(await engine.searchPeople(broad, { sort: 'relevance', offset: 0, limit: 5 })).toMatchObject({ total: 30, capped: true });
    const narrow: TProspectFilters = { departments: ['engineering'], seniorities: ['entry', 'senior'] };
    const n = await direct(narrow);
    expect(n).toBeGreaterThan(0);
    expect(n).toBeLessThanOrEqual(30);
    expect(await engine.searchPeople(narrow, { sort: 'relevance', offset: 0, limit: 5 })).toMatchObject({ total: n, capped: false });
    // The roll-ups count exactly past the cap.
    expect(await engine.searchPeople({}, { sort: 'relevance', offset: 0, limit: 5 })).toMatchObject({ total: 298, capped: false });
    // Companies are capped the same way.
    expect(await engine.searchCompanies({}, { sort: 'relevance', offset: 0, limit: 5 })).toMatchObject({ total: 20, capped: false });

    const sampled = await engine.facets(broad);
    expect(sampled).toMatchObject({ total: 20, sampled: true });
    expect(sampled.facets.seniority!.reduce((s, b) => s + b.count, 0)).toBe(20);
    const exact = await engine.facets(narrow);
    expect(exact).toMatchObject({ total: n, sampled: false });
  });

  it('orders by relevance (most senior first, then id) through the stored rank, page after page', async () => {
    const engine = createSqlSearchEngine(db.db);
    const filters: TProspectFilters = { countries: ['US', 'GB', 'DE', 'FR', 'IN', 'CA', 'AU', 'ES', 'NL', 'BR', 'JP', 'SG'] };
    const all = await selectRows<{ id: string; seniority: string }>(db.db, sql`select p.id::text as id, p.seniority from directory_people p where ${personWhere(filters)}`);
    const rank = (s: string) => PROSPECT_SENIORITIES.indexOf(s as (typeof PROSPECT_SENIORITIES)[number]);
    const expected = all.sort((a, b) => rank(a.seniority) - rank(b.seniority) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).map((r) => r.id);
    const got: string[] = [];
    for (let offset = 0; offset < expected.length; offset += 25) {
      const page = await engine.searchPeople(filters, { sort: 'relevance', offset, limit: 25 });
      got.push(...page.rows.map((r) => r.id));
    }
    expect(got).toEqual(expected);
    expect(await engine.personIds(filters, 10)).toEqual(expected.slice(0, 10));
    // A seniority filter (ranks as a range and a list) finds exactly those people.
    const chosen = await engine.searchPeople({ seniorities: ['vp', 'manager'] }, { sort: 'relevance', offset: 0, limit: 100 });
    const vpOrManager = await selectRows<{ n: number }>(db.db, sql`select count(*)::int as n from directory_people where seniority in ('vp', 'manager')`);
    expect(chosen.rows.length).toBe(vpOrManager[0]!.n);
    expect(chosen.rows.every((r) => ['vp', 'manager'].includes(r.seniority))).toBe(true);
  });

  it('counts the facets of a company search over companies, not their people', async () => {
    const engine = createSqlSearchEngine(db.db);
    const companies = await selectRows<{ n: number }>(db.db, sql`select count(*)::int as n from directory_companies`);
    const byIndustry = await selectRows<{ value: string; n: number }>(
      db.db,
      sql`select industry as value, count(*)::int as n from directory_companies where industry is not null group by industry order by 2 desc, 1`,
    );
    const all = await engine.companyFacets({});
    expect(all).toMatchObject({ total: companies[0]!.n, sampled: false });
    expect(all.facets.industry!.map((b) => [b.value, b.count]).sort()).toEqual(byIndustry.map((r) => [r.value, r.n]).sort());
    // One industry: as many as its companies (the people search's facet counted its people).
    const top = byIndustry[0]!;
    const one = await engine.companyFacets({ industries: [top.value] });
    expect(one.total).toBe(top.n);
    expect(one.facets.industry).toEqual([{ value: top.value, count: top.n }]);
    const people = await engine.facets({ industries: [top.value] });
    expect(people.total).toBeGreaterThan(top.n);
    const tech = await selectRows<{ n: number }>(db.db, sql`select count(*)::int as n from directory_company_technologies`);
    expect(all.facets.technologies!.reduce((a, b) => a + b.count, 0)).toBeLessThanOrEqual(tech[0]!.n);
  });
});
