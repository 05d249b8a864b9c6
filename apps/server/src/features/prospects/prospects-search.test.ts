import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { describe, expect, it } from 'vitest';
import { PEOPLE_DOMAINS } from '@verilead/mailworld';
import { getOrgBalance } from '../../platform/credits/ledger';
import { selectRows } from '../../platform/db/database';
import { importDirectory } from './directory-import';
import { generateCompanies, generatePeople } from './generator';
import { useProspectApiWorld } from './test-support';

// The demo directory, searching it, saved searches and lists, reverse lookup and the operator's import; revealing and
// enriching are in prospects-reveal.test.ts.

describe('demo directory generator', () => {
  it('is deterministic, with valid phones and addresses on the mail world', () => {
    const a = generateCompanies(30, 5);
    const b = generateCompanies(30, 5);
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    const people = [...generatePeople(300, a, 5)];
    expect(JSON.stringify([...generatePeople(300, b, 5)])).toBe(JSON.stringify(people));
    const domains = new Set([...PEOPLE_DOMAINS.map((d) => d.domain), 'gmail.com']);
    const emails = new Set<string>();
    for (const p of people) {
      expect(domains.has(p.email!.split('@')[1]!)).toBe(true);
      emails.add(p.email!);
      if (p.phone) {
        const parsed = parsePhoneNumberFromString(p.phone);
        expect(parsed?.isValid(), p.phone).toBe(true);
        expect(parsed?.country ?? p.country, p.phone).toBe(p.country);
        const type = parsed!.getType();
        expect(p.phone_type === 'mobile' ? ['MOBILE', 'FIXED_LINE_OR_MOBILE'] : ['FIXED_LINE', 'FIXED_LINE_OR_MOBILE'], `${p.phone} ${type}`).toContain(type);
      }
    }
    expect(emails.size).toBe(people.length);
    for (const c of a) expect(parsePhoneNumberFromString(c.phone!)?.isValid(), c.phone!).toBe(true);
  });
});

describe('prospect API', () => {
  const w = useProspectApiWorld();
  const { call, pick, strictDomains } = w;

  describe('search', () => {
    it('filters people, masks contact data and counts facets', async () => {
      const filters = { seniorities: ['entry', 'senior'], countries: ['US', 'DE', 'GB'], departments: ['engineering', 'sales', 'data', 'marketing'] };
      const res = await call(w.owner, 'POST', '/prospect/search', { filters, limit: 100 });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const d = res.body.data;
      const expected = w.people.filter((p) => ['entry', 'senior'].includes(p.seniority) && ['US', 'DE', 'GB'].includes(p.country) && ['engineering', 'sales', 'data', 'marketing'].includes(p.department));
      expect(d.total).toBe(expected.length);
      expect(d.total).toBeGreaterThan(0);
      expect(d.total_capped).toBe(false);
      for (const p of d.people) {
        expect(['entry', 'senior']).toContain(p.seniority);
        expect(p.email_revealed).toBe(false);
        expect(p.email).toContain('•••');
      }
      const meta = await call(w.owner, 'GET', `/prospect/search/meta?filters=${encodeURIComponent(JSON.stringify(filters))}`);
      expect(meta.status).toBe(200);
      expect(meta.body.data.total).toBe(expected.length);
      expect(meta.body.data.sampled).toBe(false);
      // Unfiltered and single-filter searches are counted from the roll-ups: exact, and the same as counting.
      const all = await call(w.owner, 'POST', '/prospect/search', { filters: {} });
      expect(all.body.data).toMatchObject({ total: w.people.length, total_capped: false });
      const us = await call(w.owner, 'GET', `/prospect/search/meta?filters=${encodeURIComponent(JSON.stringify({ countries: ['US'] }))}`);
      expect(us.body.data).toMatchObject({ total: w.people.filter((p) => p.country === 'US').length, sampled: false });
      const usBucket = meta.body.data.facets.country.find((b: { value: string }) => b.value === 'US')?.count ?? 0;
      expect(usBucket).toBe(expected.filter((p) => p.country === 'US').length);
      expect(meta.body.data.facets.technologies.length).toBeGreaterThan(0);
    });

    it('matches similar titles and searches companies', async () => {
      const exact = await call(w.owner, 'POST', '/prospect/search', { filters: { job_titles: ['CEO'] }, limit: 100 });
      const similar = await call(w.owner, 'POST', '/prospect/search', { filters: { job_titles: ['CEO'], similar_titles: true }, limit: 100 });
      expect(similar.body.data.total).toBeGreaterThan(exact.body.data.total);
      expect(exact.body.data.people.every((p: { title: string }) => /\bCEO\b/.test(p.title))).toBe(true);
      expect(similar.body.data.people.some((p: { title: string }) => /Chief Executive Officer|Co-Founder/.test(p.title))).toBe(true);
      // A close spelling, through pg_trgm's word similarity.
      const typo = await call(w.owner, 'POST', '/prospect/search', { filters: { job_titles: ['Acount Executive'], similar_titles: true } });
      expect(typo.body.data.people.some((p: { title: string }) => p.title.includes('Account Executive'))).toBe(true);
      expect((await call(w.owner, 'POST', '/prospect/search', { filters: { job_titles: ['Acount Executive'] } })).body.data.total).toBe(0);
      const companies = await call(w.owner, 'POST', '/prospect/search', { type: 'companies', filters: { size_ranges: ['1-10', '11-50', '51-200'] }, limit: 50 });
      expect(companies.status).toBe(200);
      for (const c of companies.body.data.companies) expect(['1-10', '11-50', '51-200']).toContain(c.size_range);
      const view = await call(w.owner, 'POST', '/prospect/view', { company_id: companies.body.data.companies[0].id });
      expect(view.body.data.company.name).toBe(companies.body.data.companies[0].name);
      const staff = await call(w.owner, 'GET', `/prospect/search/profiles?company_id=${companies.body.data.companies[0].id}`);
      expect(staff.body.data.total).toBe(view.body.data.company.people_count);
    });

    it('answers bad input with readable 400s and unknown ids with 404', async () => {
      const bad = await call(w.owner, 'POST', '/prospect/search', { filters: { seniorities: ['emperor'] } });
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toMatch(/seniority/i);
      expect(bad.body.error.message).not.toMatch(/filters\.|invalid_enum/);
      expect((await call(w.owner, 'POST', '/prospect/search', { filters: { founded_year_min: 2020, founded_year_max: 1990 } })).status).toBe(400);
      expect((await call(w.owner, 'GET', '/prospect/search/meta?filters=%7Bnope')).status).toBe(400);
      expect((await call(w.owner, 'POST', '/prospect/view', { person_id: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
      expect((await call(null, 'POST', '/prospect/search', {})).status).toBe(401);
    });
  });

  describe('saved searches and lists', () => {
    it('saves, lists and removes searches, scoped to the organisation and role', async () => {
      const saved = await call(w.owner, 'POST', '/prospect/search/save_filter', { name: 'US engineers', filters: { countries: ['US'], departments: ['engineering'] } });
      expect(saved.status).toBe(200);
      expect((await call(w.owner, 'GET', '/prospect/search/filters')).body.data.items.map((s: { name: string }) => s.name)).toContain('US engineers');
      expect((await call(w.stranger, 'GET', '/prospect/search/filters')).body.data.items).toHaveLength(0);
      expect((await call(w.analyst, 'GET', '/prospect/search/filters')).body.data.items).toHaveLength(0);
      expect((await call(w.stranger, 'POST', '/prospect/search/remove_filter', { filter_id: saved.body.data.id })).status).toBe(404);
      expect((await call(w.analyst, 'POST', '/prospect/search/remove_filter', { filter_id: saved.body.data.id })).status).toBe(404);
      expect((await call(w.owner, 'POST', '/prospect/search/save_filter', { name: ' ', filters: {} })).body.error.message).toMatch(/^Please name the search/);
      expect((await call(w.owner, 'POST', '/prospect/search/remove_filter', { filter_id: saved.body.data.id })).status).toBe(200);
    });

    it('adds people (chosen or from a search), finds, renames and removes leads', async () => {
      const chosen = pick(() => true, 5).map((p) => w.idOf.get(p.external_id)!);
      const add = await call(w.owner, 'POST', '/prospect/search/add_profiles', { list_name: 'Five people', person_ids: chosen });
      expect(add.status, JSON.stringify(add.body)).toBe(200);
      expect(add.body.data).toMatchObject({ added: 5, already_in_list: 0 });
      const listId = add.body.data.list.id;
      const again = await call(w.owner, 'POST', '/prospect/search/add_profiles', { list_id: listId, person_ids: chosen.slice(0, 2) });
      expect(again.body.data).toMatchObject({ added: 0, already_in_list: 2 });
      const fromSearch = await call(w.owner, 'POST', '/prospect/search/add_profiles', { list_id: listId, filters: { countries: ['US'] }, count: 3 });
      expect(fromSearch.body.data.list.lead_count).toBeGreaterThanOrEqual(5);
      const inList = await call(w.owner, 'GET', `/prospect/list/lead_in_list?person_ids=${chosen[0]}`);
      expect(inList.body.data.items[0].lists.map((l: { id: string }) => l.id)).toContain(listId);
      const leads = await call(w.owner, 'GET', `/prospect/list/search/leads?list_id=${listId}&limit=25`);
      expect(leads.body.data.total).toBe(fromSearch.body.data.list.lead_count);
      expect((await call(w.owner, 'POST', '/prospect/list/update', { list_id: listId, name: 'Renamed' })).body.data.name).toBe('Renamed');
      const removed = await call(w.owner, 'POST', '/prospect/list/remove_lead', { list_id: listId, person_ids: [chosen[0]] });
      expect(removed.body.data.removed).toBe(1);
      expect((await call(w.owner, 'GET', '/prospect/recent_added')).body.data.items.length).toBeGreaterThan(0);
      // Another organisation, and an Executive for the owner's list, see nothing.
      for (const who of [w.stranger, w.analyst]) {
        expect((await call(who, 'GET', `/prospect/list/details?list_id=${listId}`)).status).toBe(404);
        expect((await call(who, 'POST', '/prospect/list/update', { list_id: listId, name: 'x' })).status).toBe(404);
        expect((await call(who, 'POST', '/prospect/list/remove', { list_id: listId })).status).toBe(404);
        expect((await call(who, 'GET', `/prospect/list/search/leads?list_id=${listId}`)).status).toBe(404);
        expect((await call(who, 'POST', '/prospect/search/add_profiles', { list_id: listId, person_ids: chosen })).status).toBe(404);
        expect((await call(who, 'GET', '/prospect/list')).body.data.items.find((l: { id: string }) => l.id === listId)).toBeUndefined();
      }
      expect((await call(w.owner, 'POST', '/prospect/search/add_profiles', { person_ids: chosen })).status).toBe(400);
      expect((await call(w.owner, 'POST', '/prospect/list/remove', { list_id: listId })).status).toBe(200);
      expect((await call(w.owner, 'GET', `/prospect/list/details?list_id=${listId}`)).status).toBe(404);
    });
  });

  describe('reverse lookup', () => {
    it('finds people by e-mail and LinkedIn URL, charges once, keeps a history', async () => {
      // Someone no earlier test revealed: data the organisation paid for already is looked up for free (below).
      const target = w.people.slice(200).find((p) => p.email && p.linkedin_url)!;
      const before = await getOrgBalance(w.t.db.db, w.owner.orgId);
      const byEmail = await call(w.owner, 'POST', '/reverse_lookup/person', { email: target.email!.toUpperCase() });
      expect(byEmail.status, JSON.stringify(byEmail.body)).toBe(200);
      expect(byEmail.body.data).toMatchObject({ found: true, credits_charged: 1 });
      expect(byEmail.body.data.person.full_name).toBe(`${target.first_name} ${target.last_name}`);
      const byUrl = await call(w.owner, 'POST', '/reverse_lookup/person', { linkedin_url: `${target.linkedin_url!.replace('https://www.', 'http://')}/?trk=x` });
      expect(byUrl.body.data).toMatchObject({ found: true, credits_charged: 0 });
      const missing = await call(w.owner, 'POST', '/reverse_lookup/person', { email: 'nobody@nowhere.test' });
      expect(missing.body.data).toMatchObject({ found: false, credits_charged: 0 });
      expect(before - (await getOrgBalance(w.t.db.db, w.owner.orgId))).toBe(1);
      expect((await call(w.owner, 'POST', '/reverse_lookup/person', { linkedin_url: 'https://example.com/jane' })).body.error.message).toMatch(/LinkedIn profile URL/);
      expect((await call(w.owner, 'POST', '/reverse_lookup/person', {})).status).toBe(400);
      const history = await call(w.owner, 'GET', '/reverse_lookup/history?kind=email');
      expect(history.body.data.total).toBe(2);
      expect((await call(w.stranger, 'GET', '/reverse_lookup/history')).body.data.total).toBe(0);
      expect((await call(w.analyst, 'GET', '/reverse_lookup/history')).body.data.total).toBe(0);
    });

    it('charges once per person across enrichment and lookup, and nothing for a LinkedIn match with nothing to reveal', async () => {
      const enriched = w.people.slice(120, 200).find((p) => p.mailbox_exists && !strictDomains.has(p.email!.split('@')[1]!))!;
      const id = w.idOf.get(enriched.external_id)!;
      const reveal = await call(w.owner, 'POST', '/prospect/enrich', { person_ids: [id], options: { emails: 'all', phones: 'no_phones' } });
      expect(reveal.body.data.results[0].email).toMatchObject({ code: 'revealed', credits: 1 });
      const before = await getOrgBalance(w.t.db.db, w.owner.orgId);
      const byEmail = await call(w.owner, 'POST', '/reverse_lookup/person', { email: enriched.email });
      expect(byEmail.body.data).toMatchObject({ found: true, credits_charged: 0 });
      const byUrl = await call(w.owner, 'POST', '/reverse_lookup/person', { linkedin_url: enriched.linkedin_url });
      expect(byUrl.body.data).toMatchObject({ found: true, credits_charged: 0 });
      expect(await getOrgBalance(w.t.db.db, w.owner.orgId)).toBe(before);

      // A profile the directory knows with no e-mail and no phone: found, nothing to reveal, free.
      const bare = w.people.slice(120, 200).find((p) => p.linkedin_url && p.external_id !== enriched.external_id)!;
      await w.t.db.db.execute(sql`update directory_people set email = null, phone = null where id = ${w.idOf.get(bare.external_id)!}`);
      const nothing = await call(w.owner, 'POST', '/reverse_lookup/person', { linkedin_url: bare.linkedin_url });
      expect(nothing.body.data).toMatchObject({ found: true, credits_charged: 0, person: { has_email: false, has_phone: false } });
      expect(await getOrgBalance(w.t.db.db, w.owner.orgId)).toBe(before);
    });

    it('the public lookup counts only the inputs it answered against its 5 a day', async () => {
      const target = w.people[11]!;
      const from = (payload: Record<string, string>, path = '/api/v1/public/person/search_by_email') => w.t.call({ method: 'POST', url: path, payload, remoteAddress: '10.9.8.7' });
      for (const bad of [{ email: 'not an address' }, { email: '' }, {}] as Record<string, string>[]) expect((await from(bad)).status).toBe(400);
      expect((await from({ linkedin_url: 'https://example.com/jane' }, '/api/v1/public/person/search_by_linkedin')).status).toBe(400);
      const statuses: number[] = [];
      for (let i = 0; i < 6; i += 1) statuses.push((await from({ email: target.email! })).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    });

    it('the public lookup shows who it is, no contact data, and limits each IP', async () => {
      const target = w.people[9]!;
      const first = await call(null, 'POST', '/public/person/search_by_email', { email: target.email });
      expect(first.status).toBe(200);
      expect(first.body.data.person.full_name).toBe(`${target.first_name} ${target.last_name}`);
      expect(JSON.stringify(first.body)).not.toContain(target.email!);
      const statuses: number[] = [];
      for (let i = 0; i < 5; i += 1) statuses.push((await call(null, 'POST', '/public/person/search_by_email', { email: target.email })).status);
      expect(statuses.slice(0, 4)).toEqual([200, 200, 200, 200]);
      expect(statuses[4]).toBe(429);
      const auto = await call(null, 'GET', `/public/companies/autocomplete?query=${encodeURIComponent(w.people[0]!.company_external_id ? 'a' : 'a')}`);
      expect(auto.status).toBe(200);
    });
  });

  describe('operator import', () => {
    it('streams NDJSON and CSV, upserts idempotently and reports bad rows by line', async () => {
      const ndjson = [
        JSON.stringify({ record: 'company', external_id: 'op-c1', name: 'Op Co', domain: 'opco.example', industry: 'Software Publishers', industry_code: '511210', employees: 40, country: 'us', technologies: ['AWS'] }),
        JSON.stringify({ record: 'person', external_id: 'op-p1', first_name: 'Ada', last_name: 'Import', title: 'CTO', seniority: 'c_suite', department: 'engineering', country: 'US', company_external_id: 'op-c1', email: 'ada@opco.example', linkedin_url: 'https://linkedin.com/in/Ada-Import/' }),
        '{not json',
        JSON.stringify({ record: 'person', external_id: 'op-p2', first_name: 'Bob', last_name: 'Bad', title: 'x', seniority: 'king', department: 'engineering', country: 'US' }),
        JSON.stringify({ record: 'robot' }),
      ].join('\n');
      const first = await importDirectory(w.t.deps.database, Readable.from([ndjson]), 'ndjson');
      expect(first).toMatchObject({ companies: 1, people: 1 });
      expect(first.bad.map((b) => b.line)).toEqual([3, 4, 5]);
      expect(first.bad[1]!.message).toMatch(/seniority must be one of/);
      const again = await importDirectory(w.t.deps.database, Readable.from([ndjson]), 'ndjson');
      expect(again.people).toBe(1);
      const rows = await selectRows<{ n: number; company_name: string; linkedin_url: string }>(
        w.t.db.db,
        sql`select count(*) over ()::int as n, company_name, linkedin_url from directory_people where external_id = 'op-p1'`,
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ company_name: 'Op Co', linkedin_url: 'https://www.linkedin.com/in/ada-import' });
      const csv = 'record,external_id,name,domain,industry,industry_code,employees,country,technologies\ncompany,op-c1,Op Co Renamed,opco.example,Software Publishers,511210,45,US,AWS;Stripe\ncompany,op-c2,,bad,x,1,0,USA,\n';
      const third = await importDirectory(w.t.deps.database, Readable.from([csv]), 'csv');
      expect(third.companies).toBe(1);
      expect(third.bad).toHaveLength(1);
      expect(third.bad[0]!.line).toBe(3);
      const moved = await selectRows<{ company_name: string; technologies: string[] }>(w.t.db.db, sql`select company_name, technologies from directory_people where external_id = 'op-p1'`);
      expect(moved[0]).toMatchObject({ company_name: 'Op Co Renamed', technologies: ['AWS', 'Stripe'] });
      const found = await call(w.owner, 'POST', '/reverse_lookup/person', { linkedin_url: 'https://www.linkedin.com/in/ada-import' });
      expect(found.body.data.found).toBe(true);
    });
  });
});
