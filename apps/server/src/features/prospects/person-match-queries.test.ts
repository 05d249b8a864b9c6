import { Readable } from 'node:stream';
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROSPECT_SENIORITIES, type TProspectFilters } from '@verilead/contracts';
import { selectRows } from '../../platform/db/database';
import { createTestDb, type TTestDb } from '../../test/test-db';
import { importDirectory, seedDirectory } from './directory-import';
import { FACET_COLUMNS, type TFacets } from './facets';
import { companyDriven, likePattern, pageBranches, personBranches, personMatches, personWhere, resolveFilters } from './person-match-queries';
import { createSqlSearchEngine } from './search';

const SEED = 31;

/**
 * What a search means, on the person's own columns (their copies of the company's fields included), written as
 * plainly as possible: the engine, which goes through companies, resolved lists and disjoint keyword branches so that
 * the covering indexes answer it, must find exactly these people.
 */
function referenceWhere(f: TProspectFilters): SQL {
  const conds: SQL[] = [sql`true`];
  const list = (values: readonly (string | number)[]) =>
    sql.join(
      values.map((v) => sql`${v}`),
      sql`, `,
    );
  if (f.keywords) {
    const k = likePattern(f.keywords);
    conds.push(sql`(p.full_name ilike ${k} or p.title ilike ${k} or p.company_name ilike ${k})`);
  }
  // Job titles keep their meaning from before (titles matched in directory_titles, then people by exact title).
  if (f.job_titles?.length) conds.push(personWhere({ job_titles: f.job_titles, similar_titles: f.similar_titles }));
  if (f.seniorities?.length) conds.push(sql`p.seniority in (${list(f.seniorities)})`);
  if (f.departments?.length) conds.push(sql`p.department in (${list(f.departments)})`);
  if (f.countries?.length) conds.push(sql`p.country in (${list(f.countries)})`);
  if (f.regions?.length) conds.push(sql`lower(p.region) in (${list(f.regions.map((c) => c.toLowerCase()))})`);
  if (f.cities?.length) conds.push(sql`lower(p.city) in (${list(f.cities.map((c) => c.toLowerCase()))})`);
  if (f.company_names?.length) conds.push(sql`(${sql.join(f.company_names.map((n) => sql`p.company_name ilike ${likePattern(n)}`), sql` or `)})`);
  if (f.company_domains?.length) conds.push(sql`p.company_domain in (${list(f.company_domains)})`);
  if (f.size_ranges?.length) conds.push(sql`p.size_range in (${list(f.size_ranges)})`);
  if (f.technologies?.length) conds.push(sql`p.technologies && array[${list(f.technologies)}]::text[]`);
  if (f.founded_year_min !== undefined) conds.push(sql`p.founded_year >= ${f.founded_year_min}`);
  return sql.join(conds, sql` and `);
}

/** The facets of every match, counted on the person's own columns, as the engine reports them (top 25 a facet). */
async function referenceFacets(db: TTestDb, f: TProspectFilters): Promise<TFacets> {
  const where = referenceWhere(f);
  const rows = await selectRows<{ facet: string; value: string; n: number }>(
    db.db,
    sql`select f.facet, f.value, count(*)::int as n from directory_people p,
          lateral (values ${sql.raw(FACET_COLUMNS.map((c) => `('${c}', p.${c})`).join(', '))}) f(facet, value)
        where ${where} and f.value is not null group by 1, 2
        union all
        select 'technologies', t, count(*)::int from directory_people p, unnest(p.technologies) t where ${where} group by 2`,
  );
  const facets: TFacets = {};
  for (const name of [...FACET_COLUMNS, 'technologies']) {
    facets[name] = rows
      .filter((r) => r.facet === name)
      .map((r) => ({ value: r.value, count: r.n }))
      .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0))
      .slice(0, 25);
  }
  return facets;
}

describe('person matching through companies, resolved lists and keyword branches', () => {
  let db: TTestDb;
  let searches: TProspectFilters[];

  beforeAll(async () => {
    db = await createTestDb();
    await seedDirectory(db, { companies: 30, people: 600, seed: SEED });
    // Values that exist in this directory: a word of a company name, a piece of a last name, a company domain.
    const company = (await selectRows<{ name: string; domain: string }>(db.db, sql`select name, domain from directory_companies order by external_id limit 1`))[0]!;
    const companyWord = company.name.split(/\W+/).find((w) => w.length >= 4) ?? company.name;
    const person = (await selectRows<{ last_name: string; title: string }>(db.db, sql`select last_name, title from directory_people order by external_id limit 1`))[0]!;
    const namePiece = person.last_name.slice(0, 4);
    searches = [
      { technologies: ['Salesforce'], departments: ['marketing', 'sales'] },
      { technologies: ['AWS', 'Kubernetes'], founded_year_min: 1990 },
      { company_names: [companyWord], seniorities: ['manager', 'senior', 'entry'] },
      { company_names: [companyWord.toUpperCase(), 'no such company'] },
      { company_domains: [company.domain], technologies: ['HubSpot', 'Slack', 'Jira'] },
      { keywords: 'engineer' },
      { keywords: companyWord },
      { keywords: namePiece, countries: ['US', 'GB', 'DE', 'IN', 'AU'] },
      { keywords: 'a' },
      { keywords: 'zzqx-nothing' },
      { keywords: 'data', technologies: ['AWS'], size_ranges: ['11-50', '51-200', '201-500', '1001-5000'] },
      { cities: ['London', 'Berlin'], technologies: ['Google Workspace', 'Microsoft 365'] },
      { company_names: [companyWord], keywords: 'e' },
      { job_titles: ['Engineer'], similar_titles: true },
      { cities: ['london'], departments: ['engineering', 'sales', 'marketing'] },
      { regions: ['England', 'California'], seniorities: ['senior', 'manager'] },
      { job_titles: ['Manager'], countries: ['US', 'GB', 'DE', 'IN'], keywords: 'a' },
      { job_titles: ['CTO'], similar_titles: true, technologies: ['AWS', 'Slack', 'Jira'] },
    ];
  }, 120_000);
  afterAll(async () => {
    await db?.dispose();
  });

  it('finds exactly the people whose own columns match, page after page, with their count and facets', async () => {
    const engine = createSqlSearchEngine(db.db);
    const rank = (s: string) => PROSPECT_SENIORITIES.indexOf(s as (typeof PROSPECT_SENIORITIES)[number]);
    let nonEmpty = 0;
    for (const filters of searches) {
      const label = JSON.stringify(filters);
      const expected = (await selectRows<{ id: string; seniority: string }>(db.db, sql`select p.id::text as id, p.seniority from directory_people p where ${referenceWhere(filters)}`))
        .sort((a, b) => rank(a.seniority) - rank(b.seniority) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .map((r) => r.id);
      if (expected.length > 0) nonEmpty += 1;
      const got: string[] = [];
      let total = -1;
      for (let offset = 0; offset === 0 || offset < expected.length; offset += 25) {
        const page = await engine.searchPeople(filters, { sort: 'relevance', offset, limit: 25 });
        got.push(...page.rows.map((r) => r.id));
        expect(page.capped, label).toBe(false);
        total = page.total;
      }
      expect(got, label).toEqual(expected);
      expect(total, label).toBe(expected.length);
      expect(await engine.personIds(filters, 10), label).toEqual(expected.slice(0, 10));
      // Sorted by name: the same people (the union of keyword branches sorts on their own columns).
      const byName = await engine.searchPeople(filters, { sort: 'name', offset: 0, limit: 1_000 });
      expect(byName.rows.map((r) => r.id).sort(), label).toEqual([...expected].sort());
      const facets = await engine.facets(filters);
      expect(facets.sampled, label).toBe(false);
      expect(facets.total, label).toBe(expected.length);
      expect(facets.facets, label).toEqual(await referenceFacets(db, filters));
    }
    expect(nonEmpty).toBeGreaterThanOrEqual(10);
  });

  it('means the same with resolved lists as with the subqueries used when a list would be too long', async () => {
    for (const filters of searches) {
      const count = async (where: SQL) => (await selectRows<{ n: number }>(db.db, sql`select count(*)::int as n from directory_people p where ${where}`))[0]!.n;
      const resolved = await resolveFilters(db.db, filters);
      const reference = await count(referenceWhere(filters));
      expect(await count(personWhere(filters, resolved)), JSON.stringify(filters)).toBe(reference);
      expect(await count(personWhere(filters)), JSON.stringify(filters)).toBe(reference);
      // The keyword branches never overlap: their counts add up to the matches.
      let sum = 0;
      for (const branch of personBranches(filters, resolved)) sum += await count(branch);
      expect(sum, JSON.stringify(filters)).toBe(reference);
      // The rows counts and facets read: company by company or branch by branch, the same people.
      for (const r of [resolved, {}]) {
        const rows = await selectRows<{ n: number }>(db.db, sql`select count(*)::int as n from (${personMatches(filters, r, sql`p.id`)}) m`);
        expect(rows[0]!.n, JSON.stringify(filters)).toBe(reference);
      }
    }
    // Both ways are exercised: technologies and unresolved company names go company by company, titles and keywords do not.
    expect(searches.filter((f) => companyDriven(f, {})).length).toBeGreaterThanOrEqual(4);
    expect(searches.filter((f) => !companyDriven(f, {})).length).toBeGreaterThanOrEqual(4);
    expect(companyDriven({ company_names: ['x'] }, {})).toBe(true);
    expect(companyDriven({ company_names: ['x'] }, { companies: ['00000000-0000-0000-0000-000000000000'] })).toBe(false);
  });

  it('reads a page of a few titles as one rank-ordered walk per title, and of many titles as one sorted branch', async () => {
    const engineers: TProspectFilters = { job_titles: ['Engineer'], similar_titles: true };
    const titles = (await resolveFilters(db.db, engineers)).jobTitles!;
    expect(titles.length).toBeGreaterThan(1);
    expect(titles.length).toBeLessThanOrEqual(40);
    const walks = pageBranches(engineers, await resolveFilters(db.db, engineers));
    expect(walks).toHaveLength(titles.length);
    expect(walks.every((b) => b.ordered)).toBe(true);
    expect(personBranches(engineers, await resolveFilters(db.db, engineers))).toHaveLength(1);

    const keyword: TProspectFilters = { keywords: 'engineer' };
    const resolved = await resolveFilters(db.db, keyword);
    const keywordTitles = resolved.keywordTitles!;
    expect(keywordTitles.length).toBeGreaterThan(1);
    const parts = (resolved.keywordCompanies!.length > 0 ? 1 : 0) + (resolved.keywordPeople!.length > 0 ? 1 : 0);
    expect(pageBranches(keyword, resolved)).toHaveLength(parts + keywordTitles.length);
    expect(pageBranches(keyword, resolved).filter((b) => b.ordered)).toHaveLength(keywordTitles.length);
    expect(personBranches(keyword, resolved)).toHaveLength(parts + 1);

    // More titles than a page walks: one branch, sorted.
    const many: TProspectFilters = { keywords: 'e' };
    const manyResolved = await resolveFilters(db.db, many);
    expect(manyResolved.keywordTitles!.length).toBeGreaterThan(40);
    expect(pageBranches(many, manyResolved).filter((b) => b.ordered)).toHaveLength(0);
  });

  it('keeps each company technologies row set equal to its technologies, and people of a deleted company without its fields', async () => {
    const pairs = () =>
      selectRows<{ company_id: string; technology: string }>(db.db, sql`select company_id::text as company_id, technology from directory_company_technologies order by 1, 2`);
    const fromCompanies = () =>
      selectRows<{ company_id: string; technology: string }>(db.db, sql`select distinct c.id::text as company_id, t as technology from directory_companies c, unnest(c.technologies) t order by 1, 2`);
    expect((await pairs()).length).toBeGreaterThan(30);
    expect(await pairs()).toEqual(await fromCompanies());

    // A new company (a technology repeated), a company whose technologies change, one whose other fields change.
    const [first, second] = await selectRows<{ external_id: string; id: string }>(db.db, sql`select external_id, id::text as id from directory_companies order by external_id limit 2`);
    const ndjson = [
      JSON.stringify({ record: 'company', external_id: 'new-co', name: 'Newco Data Group', domain: 'newco.example', industry: 'Software Publishers', industry_code: '513210', employees: 40, country: 'GB', technologies: ['Stripe', 'AWS', 'Stripe'] }),
      JSON.stringify({ record: 'company', external_id: first!.external_id, name: 'Moved Data Co', domain: 'moved.example', industry: 'Commercial Banking', industry_code: '522110', employees: 7000, country: 'DE', technologies: ['SAP', 'AWS'] }),
      JSON.stringify({ record: 'person', external_id: 'new-p', first_name: 'Dana', last_name: 'Newman', title: 'Data Engineer', seniority: 'senior', department: 'data', country: 'GB', company_external_id: 'new-co' }),
    ].join('\n');
    expect((await importDirectory(db, Readable.from([ndjson]), 'ndjson')).bad).toEqual([]);
    expect(await pairs()).toEqual(await fromCompanies());
    const newco = await selectRows<{ technologies: string[] }>(db.db, sql`select technologies from directory_companies where external_id = 'new-co'`);
    expect(newco[0]!.technologies).toEqual(['Stripe', 'AWS']);
    const engine = createSqlSearchEngine(db.db);
    const sap = await engine.searchPeople({ technologies: ['SAP'] }, { sort: 'relevance', offset: 0, limit: 100 });
    const atFirst = await selectRows<{ n: number }>(db.db, sql`select count(*)::int as n from directory_people where company_id = ${first!.id}`);
    expect(sap.total).toBe(atFirst[0]!.n);
    expect(sap.total).toBeGreaterThan(0);

    // Deleting a company: its rows go, and its people keep none of its fields (so no company filter matches them).
    const people = await selectRows<{ id: string }>(db.db, sql`select id::text as id from directory_people where company_id = ${second!.id}`);
    expect(people.length).toBeGreaterThan(0);
    await db.db.execute(sql`delete from directory_companies where id = ${second!.id}`);
    expect(await pairs()).toEqual(await fromCompanies());
    const left = await selectRows<{ n: number }>(
      db.db,
      sql`select count(*)::int as n from directory_people where id in (${sql.join(
        people.map((p) => sql`${p.id}`),
        sql`, `,
      )}) and company_id is null and company_name is null and company_domain is null and industry is null and size_range is null
          and revenue_range is null and founded_year is null and technologies = '{}'`,
    );
    expect(left[0]!.n).toBe(people.length);
    for (const filters of searches) {
      const reference = (await selectRows<{ n: number }>(db.db, sql`select count(*)::int as n from directory_people p where ${referenceWhere(filters)}`))[0]!.n;
      expect((await engine.searchPeople(filters, { sort: 'relevance', offset: 0, limit: 1 })).total, JSON.stringify(filters)).toBe(reference);
    }
  });
});
