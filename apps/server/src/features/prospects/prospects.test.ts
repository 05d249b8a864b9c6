import { request } from 'node:http';
import { Readable } from 'node:stream';
import { and, eq, sql } from 'drizzle-orm';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PEOPLE_DOMAINS } from '@verilead/mailworld';
import { getOrgBalance } from '../../platform/credits/ledger';
import { creditTransactions } from '../../platform/credits/tables';
import { selectRows } from '../../platform/db/database';
import type { TTestApp } from '../../test/test-app';
import { importDirectory } from './directory-import';
import { enrichLeads } from './enrich';
import { generateCompanies, generatePeople, type TGeneratedPerson } from './generator';
import { startProspectWorld, type TProspectUser, type TProspectWorld } from './test-support';

const SEED = 11;
/** Mailboxes on a greylisting host (the operator's data can hold such addresses; the demo generator's never does). */
const GREYLISTED = ['gina.now@greylist.test', 'greg.later@greylist.test'];

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
  let w: TProspectWorld;
  let t: TTestApp;
  let owner: TProspectUser;
  let analyst: TProspectUser;
  let stranger: TProspectUser;
  let people: TGeneratedPerson[];
  let idOf: Map<string, string>;

  const call = (user: TProspectUser | null, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) => w.call(user, method, url, payload);
  const charges = (orgId: string) =>
    t.db.db
      .select()
      .from(creditTransactions)
      .where(and(eq(creditTransactions.orgId, orgId), eq(creditTransactions.kind, 'charge')));
  const pick = (pred: (p: TGeneratedPerson) => boolean, n: number) => people.filter(pred).slice(0, n);
  const strictDomains = new Set(PEOPLE_DOMAINS.filter((d) => d.scenario === 'strict').map((d) => d.domain));

  beforeAll(async () => {
    w = await startProspectWorld({
      companies: 25,
      people: 240,
      seed: SEED,
      extraCorpus: GREYLISTED.map((email) => ({ email, expected: { status: 'valid', reason: 'valid_mailbox' }, tags: ['person'] })),
      // greylist.test lets a (client, sender, recipient) triplet through 100 ms after first seeing it: a thorough check
      // waits 400 ms and asks again.
      config: { verifierGreylistScheduleMs: [400] },
    });
    ({ t, owner, stranger, analyst, people, idOf } = w);
  }, 60_000);
  afterAll(async () => {
    await w?.close();
  });

  describe('search', () => {
    it('filters people, masks contact data and counts facets', async () => {
      const filters = { seniorities: ['entry', 'senior'], countries: ['US', 'DE', 'GB'], departments: ['engineering', 'sales', 'data', 'marketing'] };
      const res = await call(owner, 'POST', '/prospect/search', { filters, limit: 100 });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const d = res.body.data;
      const expected = people.filter((p) => ['entry', 'senior'].includes(p.seniority) && ['US', 'DE', 'GB'].includes(p.country) && ['engineering', 'sales', 'data', 'marketing'].includes(p.department));
      expect(d.total).toBe(expected.length);
      expect(d.total).toBeGreaterThan(0);
      expect(d.total_capped).toBe(false);
      for (const p of d.people) {
        expect(['entry', 'senior']).toContain(p.seniority);
        expect(p.email_revealed).toBe(false);
        expect(p.email).toContain('•••');
      }
      const meta = await call(owner, 'GET', `/prospect/search/meta?filters=${encodeURIComponent(JSON.stringify(filters))}`);
      expect(meta.status).toBe(200);
      expect(meta.body.data.total).toBe(expected.length);
      expect(meta.body.data.sampled).toBe(false);
      // Unfiltered and single-filter searches are counted from the roll-ups: exact, and the same as counting.
      const all = await call(owner, 'POST', '/prospect/search', { filters: {} });
      expect(all.body.data).toMatchObject({ total: people.length, total_capped: false });
      const us = await call(owner, 'GET', `/prospect/search/meta?filters=${encodeURIComponent(JSON.stringify({ countries: ['US'] }))}`);
      expect(us.body.data).toMatchObject({ total: people.filter((p) => p.country === 'US').length, sampled: false });
      const usBucket = meta.body.data.facets.country.find((b: { value: string }) => b.value === 'US')?.count ?? 0;
      expect(usBucket).toBe(expected.filter((p) => p.country === 'US').length);
      expect(meta.body.data.facets.technologies.length).toBeGreaterThan(0);
    });

    it('matches similar titles and searches companies', async () => {
      const exact = await call(owner, 'POST', '/prospect/search', { filters: { job_titles: ['CEO'] }, limit: 100 });
      const similar = await call(owner, 'POST', '/prospect/search', { filters: { job_titles: ['CEO'], similar_titles: true }, limit: 100 });
      expect(similar.body.data.total).toBeGreaterThan(exact.body.data.total);
      expect(exact.body.data.people.every((p: { title: string }) => /\bCEO\b/.test(p.title))).toBe(true);
      expect(similar.body.data.people.some((p: { title: string }) => /Chief Executive Officer|Co-Founder/.test(p.title))).toBe(true);
      // A close spelling, through pg_trgm's word similarity.
      const typo = await call(owner, 'POST', '/prospect/search', { filters: { job_titles: ['Acount Executive'], similar_titles: true } });
      expect(typo.body.data.people.some((p: { title: string }) => p.title.includes('Account Executive'))).toBe(true);
      expect((await call(owner, 'POST', '/prospect/search', { filters: { job_titles: ['Acount Executive'] } })).body.data.total).toBe(0);
      const companies = await call(owner, 'POST', '/prospect/search', { type: 'companies', filters: { size_ranges: ['1-10', '11-50', '51-200'] }, limit: 50 });
      expect(companies.status).toBe(200);
      for (const c of companies.body.data.companies) expect(['1-10', '11-50', '51-200']).toContain(c.size_range);
      const view = await call(owner, 'POST', '/prospect/view', { company_id: companies.body.data.companies[0].id });
      expect(view.body.data.company.name).toBe(companies.body.data.companies[0].name);
      const staff = await call(owner, 'GET', `/prospect/search/profiles?company_id=${companies.body.data.companies[0].id}`);
      expect(staff.body.data.total).toBe(view.body.data.company.people_count);
    });

    it('answers bad input with readable 400s and unknown ids with 404', async () => {
      const bad = await call(owner, 'POST', '/prospect/search', { filters: { seniorities: ['emperor'] } });
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toMatch(/seniority/i);
      expect(bad.body.error.message).not.toMatch(/filters\.|invalid_enum/);
      expect((await call(owner, 'POST', '/prospect/search', { filters: { founded_year_min: 2020, founded_year_max: 1990 } })).status).toBe(400);
      expect((await call(owner, 'GET', '/prospect/search/meta?filters=%7Bnope')).status).toBe(400);
      expect((await call(owner, 'POST', '/prospect/view', { person_id: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
      expect((await call(null, 'POST', '/prospect/search', {})).status).toBe(401);
    });
  });

  describe('saved searches and lists', () => {
    it('saves, lists and removes searches, scoped to the organisation and role', async () => {
      const saved = await call(owner, 'POST', '/prospect/search/save_filter', { name: 'US engineers', filters: { countries: ['US'], departments: ['engineering'] } });
      expect(saved.status).toBe(200);
      expect((await call(owner, 'GET', '/prospect/search/filters')).body.data.items.map((s: { name: string }) => s.name)).toContain('US engineers');
      expect((await call(stranger, 'GET', '/prospect/search/filters')).body.data.items).toHaveLength(0);
      expect((await call(analyst, 'GET', '/prospect/search/filters')).body.data.items).toHaveLength(0);
      expect((await call(stranger, 'POST', '/prospect/search/remove_filter', { filter_id: saved.body.data.id })).status).toBe(404);
      expect((await call(analyst, 'POST', '/prospect/search/remove_filter', { filter_id: saved.body.data.id })).status).toBe(404);
      expect((await call(owner, 'POST', '/prospect/search/save_filter', { name: ' ', filters: {} })).body.error.message).toMatch(/^Please name the search/);
      expect((await call(owner, 'POST', '/prospect/search/remove_filter', { filter_id: saved.body.data.id })).status).toBe(200);
    });

    it('adds people (chosen or from a search), finds, renames and removes leads', async () => {
      const chosen = pick(() => true, 5).map((p) => idOf.get(p.external_id)!);
      const add = await call(owner, 'POST', '/prospect/search/add_profiles', { list_name: 'Five people', person_ids: chosen });
      expect(add.status, JSON.stringify(add.body)).toBe(200);
      expect(add.body.data).toMatchObject({ added: 5, already_in_list: 0 });
      const listId = add.body.data.list.id;
      const again = await call(owner, 'POST', '/prospect/search/add_profiles', { list_id: listId, person_ids: chosen.slice(0, 2) });
      expect(again.body.data).toMatchObject({ added: 0, already_in_list: 2 });
      const fromSearch = await call(owner, 'POST', '/prospect/search/add_profiles', { list_id: listId, filters: { countries: ['US'] }, count: 3 });
      expect(fromSearch.body.data.list.lead_count).toBeGreaterThanOrEqual(5);
      const inList = await call(owner, 'GET', `/prospect/list/lead_in_list?person_ids=${chosen[0]}`);
      expect(inList.body.data.items[0].lists.map((l: { id: string }) => l.id)).toContain(listId);
      const leads = await call(owner, 'GET', `/prospect/list/search/leads?list_id=${listId}&limit=25`);
      expect(leads.body.data.total).toBe(fromSearch.body.data.list.lead_count);
      expect((await call(owner, 'POST', '/prospect/list/update', { list_id: listId, name: 'Renamed' })).body.data.name).toBe('Renamed');
      const removed = await call(owner, 'POST', '/prospect/list/remove_lead', { list_id: listId, person_ids: [chosen[0]] });
      expect(removed.body.data.removed).toBe(1);
      expect((await call(owner, 'GET', '/prospect/recent_added')).body.data.items.length).toBeGreaterThan(0);
      // Another organisation, and an Executive for the owner's list, see nothing.
      for (const who of [stranger, analyst]) {
        expect((await call(who, 'GET', `/prospect/list/details?list_id=${listId}`)).status).toBe(404);
        expect((await call(who, 'POST', '/prospect/list/update', { list_id: listId, name: 'x' })).status).toBe(404);
        expect((await call(who, 'POST', '/prospect/list/remove', { list_id: listId })).status).toBe(404);
        expect((await call(who, 'GET', `/prospect/list/search/leads?list_id=${listId}`)).status).toBe(404);
        expect((await call(who, 'POST', '/prospect/search/add_profiles', { list_id: listId, person_ids: chosen })).status).toBe(404);
        expect((await call(who, 'GET', '/prospect/list')).body.data.items.find((l: { id: string }) => l.id === listId)).toBeUndefined();
      }
      expect((await call(owner, 'POST', '/prospect/search/add_profiles', { person_ids: chosen })).status).toBe(400);
      expect((await call(owner, 'POST', '/prospect/list/remove', { list_id: listId })).status).toBe(200);
      expect((await call(owner, 'GET', `/prospect/list/details?list_id=${listId}`)).status).toBe(404);
    });
  });

  describe('reveal and enrich', () => {
    it('charges only for revealed data, never twice, even concurrently', async () => {
      const live = pick((p) => p.mailbox_exists && strictDomains.has(p.email!.split('@')[1]!) && !!p.phone, 2);
      const stale = pick((p) => !p.mailbox_exists && strictDomains.has(p.email!.split('@')[1]!) && !p.phone, 1);
      const ids = [...live, ...stale].map((p) => idOf.get(p.external_id)!);
      const before = await getOrgBalance(t.db.db, owner.orgId);
      const res = await call(owner, 'POST', '/prospect/enrich', { person_ids: ids, options: { emails: 'all', phones: 'all' } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const r = res.body.data.request;
      expect(r).toMatchObject({ state: 'completed', emails_revealed: 2, phones_revealed: 2, credits_charged: 2 * 1 + 2 * 2 });
      expect(before - (await getOrgBalance(t.db.db, owner.orgId))).toBe(6);
      const stalePerson = res.body.data.people.find((p: { id: string }) => p.id === ids[2]);
      expect(stalePerson.email_revealed).toBe(false);
      const results = new Map(res.body.data.results.map((x: { person_id: string }) => [x.person_id, x]));
      expect(results.get(ids[0])).toMatchObject({ email: { code: 'revealed', credits: 1, reason: null }, phone: { code: 'revealed', credits: 2, reason: null } });
      expect(results.get(ids[2])).toMatchObject({
        email: { code: 'undeliverable', credits: 0, reason: 'The mail server says this mailbox does not exist.' },
        phone: { code: 'none', credits: 0 },
      });
      expect(res.body.data.people.find((p: { id: string }) => p.id === ids[0]).email).toBe(live[0]!.email);
      // Again, and twice at once for someone new: each field is charged once.
      const fresh = pick((p) => p.mailbox_exists && strictDomains.has(p.email!.split('@')[1]!), 5)[4]!;
      const freshId = idOf.get(fresh.external_id)!;
      const mid = await getOrgBalance(t.db.db, owner.orgId);
      const [a, b, c] = await Promise.all([
        call(owner, 'POST', '/prospect/enrich', { person_ids: ids, options: { emails: 'all', phones: 'all' } }),
        call(owner, 'POST', '/prospect/enrich', { person_ids: [freshId], options: { emails: 'all', phones: 'no_phones' } }),
        call(owner, 'POST', '/prospect/enrich', { person_ids: [freshId], options: { emails: 'all', phones: 'no_phones' } }),
      ]);
      expect([a.status, b.status, c.status]).toEqual([200, 200, 200]);
      expect(a.body.data.request.credits_charged).toBe(0);
      expect(b.body.data.request.credits_charged + c.body.data.request.credits_charged).toBe(1);
      expect(mid - (await getOrgBalance(t.db.db, owner.orgId))).toBe(1);
      const emailCharges = (await charges(owner.orgId)).filter((x) => x.objectType === 'prospect_email' && x.objectId?.endsWith(freshId));
      expect(emailCharges).toHaveLength(1);
      // The other organisation reveals (and pays) on its own; the owner's reveal does not show there.
      const theirs = await call(stranger, 'POST', '/prospect/search', { filters: { keywords: fresh.last_name } });
      expect(theirs.body.data.people.find((p: { id: string }) => p.id === freshId)?.email_revealed ?? false).toBe(false);
    });

    it('follows the enrich options and answers 402 without credits', async () => {
      const personal = pick((p) => p.mailbox_exists && p.email!.endsWith('@gmail.com') && p.phone_type === 'fixed_line', 1)[0]!;
      const id = idOf.get(personal.external_id)!;
      const res = await call(owner, 'POST', '/prospect/enrich', { person_ids: [id], options: { emails: 'business_only', phones: 'mobile_only' } });
      expect(res.body.data.request).toMatchObject({ emails_revealed: 0, phones_revealed: 0, credits_charged: 0 });
      expect(res.body.data.results).toEqual([
        {
          person_id: id,
          email: { code: 'excluded', credits: 0, reason: 'A personal address: your enrich options reveal business addresses only.' },
          phone: { code: 'excluded', credits: 0, reason: 'A fixed line: your enrich options reveal mobile numbers only.' },
        },
      ]);
      const poor = await call(stranger, 'GET', '/user/credits_and_limits');
      const balance = poor.body.data.credits ?? poor.body.data.balance ?? (await getOrgBalance(t.db.db, stranger.orgId));
      await t.db.db.execute(sql`update organisations set credits_balance = 0 where id = ${stranger.orgId}`);
      const broke = await call(stranger, 'POST', '/prospect/enrich', { person_ids: [id], options: { emails: 'all', phones: 'all' } });
      expect(broke.status).toBe(402);
      expect(typeof balance).toBe('number');
      expect((await call(owner, 'POST', '/prospect/enrich', { person_ids: [] })).status).toBe(400);
    });

    it('enriches a whole list in chunks with progress, cancel and no double charge', async () => {
      const members = pick((p) => p.email!.split('@')[1] !== 'greylist.test', 40).map((p) => idOf.get(p.external_id)!);
      const add = await call(owner, 'POST', '/prospect/search/add_profiles', { list_name: 'Forty', person_ids: members });
      const listId = add.body.data.list.id;
      // Cancelled before it runs: nothing is charged.
      const started = await call(owner, 'POST', '/prospect/list/enrich', { list_id: listId, options: { emails: 'all', phones: 'all' } });
      expect(started.status, JSON.stringify(started.body)).toBe(200);
      expect((await call(owner, 'POST', '/prospect/list/enrich', { list_id: listId })).status).toBe(409);
      const cancelled = await call(owner, 'POST', '/prospect/list/enrich', { list_id: listId, cancel: true });
      expect(cancelled.body.data.state).toBe('cancelled');
      await t.deps.queue.runUntilIdle();
      expect((await call(owner, 'GET', `/prospect/lead/enrich/status?request_id=${started.body.data.request_id}`)).body.data.processed).toBe(0);

      const before = await getOrgBalance(t.db.db, owner.orgId);
      const run = await call(owner, 'POST', '/prospect/list/enrich', { list_id: listId, options: { emails: 'all', phones: 'all' } });
      expect((await call(owner, 'GET', '/prospect/inprogress_requests')).body.data.items.map((r: { request_id: string }) => r.request_id)).toContain(run.body.data.request_id);
      await t.deps.queue.runUntilIdle();
      const done = await call(owner, 'GET', `/prospect/lead/enrich/status?request_id=${run.body.data.request_id}`);
      expect(done.body.data).toMatchObject({ state: 'completed', processed: 40, total: 40, progress: 100 });
      const spent = before - (await getOrgBalance(t.db.db, owner.orgId));
      const details = await call(owner, 'GET', `/prospect/list/details?list_id=${listId}`);
      expect(details.body.data.list.state).toBe('processed');
      expect(details.body.data.revealed_emails).toBeGreaterThan(0);
      // Everything charged in this run is what the request says it charged (earlier reveals were free).
      expect(spent).toBe(done.body.data.credits_charged);
      // A second run reveals nothing new and charges nothing.
      const rerun = await call(owner, 'POST', '/prospect/list/enrich', { list_id: listId, options: { emails: 'all', phones: 'all' } });
      await t.deps.queue.runUntilIdle();
      expect((await call(owner, 'GET', `/prospect/lead/enrich/status?request_id=${rerun.body.data.request_id}`)).body.data.credits_charged).toBe(0);
      expect((await call(stranger, 'GET', `/prospect/lead/enrich/status?request_id=${rerun.body.data.request_id}`)).status).toBe(404);
      expect((await call(stranger, 'POST', '/prospect/list/enrich', { list_id: listId })).status).toBe(404);
      expect((await call(owner, 'GET', '/prospect/requests')).body.data.total).toBeGreaterThanOrEqual(3);
      expect((await call(stranger, 'POST', '/prospect/remove', { request_id: rerun.body.data.request_id })).status).toBe(404);
      expect((await call(owner, 'POST', '/prospect/remove', { request_id: rerun.body.data.request_id })).status).toBe(200);

      // The export holds the revealed data only, through the downloads job and its link.
      const ex = await call(owner, 'POST', '/prospect/list/export', { list_id: listId, file_type: 'csv' });
      expect(ex.status, JSON.stringify(ex.body)).toBe(200);
      await t.deps.queue.runUntilIdle();
      const st = await call(owner, 'GET', `/download/result/status?queue_id=${ex.body.data.queue_id}`);
      expect(st.body.data.state, st.body.data.error ?? '').toBe('success');
      const file = await t.app.inject({ method: 'GET', url: `/api/v1/public/download_prospects?download_token=${encodeURIComponent(st.body.data.download_token)}` });
      expect(file.statusCode).toBe(200);
      const lines = file.body.trim().split('\n');
      expect(lines[0]).toContain('full_name');
      expect(lines).toHaveLength(41);
      const leads = await call(owner, 'GET', `/prospect/list/search/leads?list_id=${listId}&limit=50`);
      const revealed = leads.body.data.items.filter((p: { email_revealed: boolean }) => p.email_revealed);
      expect(revealed.length).toBe(details.body.data.revealed_emails);
      expect(file.body).toContain(revealed[0].email);
      expect(file.body).not.toContain('•••');
      expect((await call(stranger, 'POST', '/prospect/list/export', { list_id: listId })).status).toBe(404);
      const dl = await call(owner, 'POST', '/prospect/download', { person_ids: members.slice(0, 3), file_type: 'xlsx' });
      expect(dl.status).toBe(200);
      expect((await call(owner, 'GET', '/prospect/recent_activities')).body.data.items.length).toBeGreaterThan(0);
    });

    it('checks addresses within the request: a greylisting host is not waited for, nothing unconfirmed is charged, a list waits', async () => {
      const ndjson = [
        ['gina', 'Gina', 'Now', GREYLISTED[0]],
        ['greg', 'Greg', 'Later', GREYLISTED[1]],
      ].map(([key, first, last, email]) => JSON.stringify({ record: 'person', external_id: `grey-${key}`, first_name: first, last_name: last, title: 'CTO', seniority: 'c_suite', department: 'engineering', country: 'US', email }));
      await importDirectory(t.deps.database, Readable.from([ndjson.join('\n')]), 'ndjson');
      const rows = await selectRows<{ id: string; external_id: string }>(t.db.db, sql`select id, external_id from directory_people where external_id like 'grey-%'`);
      const gina = rows.find((r) => r.external_id === 'grey-gina')!.id;
      const greg = rows.find((r) => r.external_id === 'grey-greg')!.id;
      const before = await getOrgBalance(t.db.db, owner.orgId);
      // In the request: the host's "try again later" is the answer (a thorough check would wait 400 ms and reveal it).
      const now = await call(owner, 'POST', '/prospect/enrich', { person_ids: [gina], options: { emails: 'all', phones: 'all' } });
      expect(now.status, JSON.stringify(now.body)).toBe(200);
      expect(now.body.data.results[0].email).toEqual({
        code: 'unverified',
        credits: 0,
        reason: 'The mail server asked to be checked again later (greylisting). Try again in a few minutes, or enrich the person in a list, which waits for it.',
      });
      expect(now.body.data.people[0]).toMatchObject({ email_revealed: false, email: expect.stringContaining('•••') });
      expect(now.body.data.request).toMatchObject({ state: 'completed', emails_revealed: 0, credits_charged: 0 });
      expect(await getOrgBalance(t.db.db, owner.orgId)).toBe(before);
      // A list's job waits greylisting out: revealed, and charged once.
      const list = await call(owner, 'POST', '/prospect/search/add_profiles', { list_name: 'Greylisted', person_ids: [greg] });
      const run = await call(owner, 'POST', '/prospect/list/enrich', { list_id: list.body.data.list.id, options: { emails: 'all', phones: 'all' } });
      await t.deps.queue.runUntilIdle();
      const done = await call(owner, 'GET', `/prospect/lead/enrich/status?request_id=${run.body.data.request_id}`);
      expect(done.body.data).toMatchObject({ state: 'completed', emails_revealed: 1, credits_charged: 1 });
      expect(before - (await getOrgBalance(t.db.db, owner.orgId))).toBe(1);
    });

    it('leaves an address unconfirmed within the time budget hidden and free, and stops when the request closes', async () => {
      await importDirectory(
        t.deps.database,
        Readable.from([JSON.stringify({ record: 'person', external_id: 'slow-1', first_name: 'Sam', last_name: 'Slow', title: 'CFO', seniority: 'c_suite', department: 'finance', country: 'US', email: 'sam@slowpoke.test', phone: '+14155550123', phone_type: 'mobile' })]),
        'ndjson',
      );
      const slow = (await selectRows<{ id: string }>(t.db.db, sql`select id from directory_people where external_id = 'slow-1'`))[0]!.id;
      // slowpoke.test waits 700 ms before each reply: its check (greeting, EHLO, MAIL, RCPT…) cannot finish within 200 ms.
      const ctx = { orgId: owner.orgId, userId: owner.userId, role: 'owner' as const, sessionId: null, via: 'session' as const };
      const verifier = t.deps.verifier;
      const before = await getOrgBalance(t.db.db, owner.orgId);
      const out = await enrichLeads(t.deps, verifier, ctx, [slow], { emails: 'all', phones: 'all' }, { budgetMs: 200 });
      expect(out.results[0]).toMatchObject({ email: { code: 'out_of_time', credits: 0 }, phone: { code: 'revealed', credits: 2 } });
      expect(out.results[0]!.email.reason).toMatch(/did not finish in the time this request allows/);
      expect(out.request).toMatchObject({ state: 'completed', emails_revealed: 0, phones_revealed: 1, credits_charged: 2 });
      expect(before - (await getOrgBalance(t.db.db, owner.orgId))).toBe(2);

      // The client goes away while the address is being checked: the request stops, cancelled, and charges nothing.
      const closed = new AbortController();
      const pending = enrichLeads(t.deps, verifier, ctx, [slow], { emails: 'all', phones: 'all' }, { closed: closed.signal });
      setTimeout(() => closed.abort(new Error('The client went away')), 100);
      await expect(pending).rejects.toThrow('The client went away');
      const last = await selectRows<{ state: string; error: string; credits_charged: number }>(
        t.db.db,
        sql`select state, error, credits_charged from prospect_enrich_requests where org_id = ${owner.orgId} and kind = 'lead' order by created_at desc limit 1`,
      );
      expect(last[0]).toMatchObject({ state: 'cancelled', credits_charged: 0 });
      expect(last[0]!.error).toMatch(/closed before it finished/);
      expect(before - (await getOrgBalance(t.db.db, owner.orgId))).toBe(2);
    });

    it('stops checking when the client closes POST /prospect/enrich', async () => {
      const slow = (await selectRows<{ id: string }>(t.db.db, sql`select id from directory_people where external_id = 'slow-1'`))[0]!.id;
      const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
      const before = await getOrgBalance(t.db.db, owner.orgId);
      // slowpoke.test's check is still running when the client hangs up.
      await new Promise<void>((resolve) => {
        const req = request(`${address}/api/v1/prospect/enrich`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${owner.token}` } });
        req.on('error', () => resolve());
        req.end(JSON.stringify({ person_ids: [slow], options: { emails: 'all', phones: 'all' } }));
        setTimeout(() => {
          req.destroy();
          resolve();
        }, 300);
      });
      // The request ends once the server has seen the client go: wait for that, not for a fixed time.
      const last = await vi.waitFor(
        async () => {
          const row = (await selectRows<{ state: string; error: string | null }>(t.db.db, sql`select state, error from prospect_enrich_requests where org_id = ${owner.orgId} and kind = 'lead' order by created_at desc limit 1`))[0];
          if (!row || row.state === 'in_progress') throw new Error(`the enrichment request is still ${row?.state ?? 'unrecorded'}`);
          return row;
        },
        { timeout: 20_000, interval: 50 },
      );
      expect(last).toMatchObject({ state: 'cancelled', error: expect.stringMatching(/closed before it finished/) });
      expect(await getOrgBalance(t.db.db, owner.orgId)).toBe(before);
    });

    it("uses the member's settings: the admin's prospect defaults, the member's own choice over them, and the block list", async () => {
      // People no earlier test revealed (the list test enriches the first 40).
      const late = people.slice(200);
      const personal = late.find((p) => p.mailbox_exists && p.email!.endsWith('@gmail.com') && !!p.phone)!;
      const id = idOf.get(personal.external_id)!;
      const admin = await call(owner, 'PUT', '/admin/settings/prospect', { person_enrich_settings: { emails: 'business_only', phones: 'no_phones' } });
      expect(admin.status, JSON.stringify(admin.body)).toBe(200);
      const before = await getOrgBalance(t.db.db, owner.orgId);
      // The Executive chose nothing: the organisation's defaults apply, and a personal address and a phone are left out.
      const inherited = await call(analyst, 'POST', '/prospect/enrich', { person_ids: [id] });
      expect(inherited.status, JSON.stringify(inherited.body)).toBe(200);
      expect(inherited.body.data.request).toMatchObject({ options: { emails: 'business_only', phones: 'no_phones' }, emails_revealed: 0, phones_revealed: 0, credits_charged: 0 });
      expect(inherited.body.data.results[0]).toMatchObject({ email: { code: 'excluded' }, phone: { code: 'excluded', reason: 'Your enrich options reveal no phone numbers.' } });
      expect(await getOrgBalance(t.db.db, owner.orgId)).toBe(before);
      // The same for a list the Executive enriches.
      const list = await call(analyst, 'POST', '/prospect/search/add_profiles', { list_name: 'Exec list', person_ids: [id] });
      const run = await call(analyst, 'POST', '/prospect/list/enrich', { list_id: list.body.data.list.id });
      expect(run.body.data.options).toEqual({ emails: 'business_only', phones: 'no_phones' });
      await t.deps.queue.runUntilIdle();
      expect((await call(analyst, 'GET', `/prospect/lead/enrich/status?request_id=${run.body.data.request_id}`)).body.data).toMatchObject({ state: 'completed', credits_charged: 0 });
      expect(await getOrgBalance(t.db.db, owner.orgId)).toBe(before);

      // The member's own choice wins over the default.
      const own = await call(analyst, 'PUT', '/user_preferences/prospect_settings/enrich', { person_enrich_settings: { emails: 'all', phones: 'no_phones' } });
      expect(own.status, JSON.stringify(own.body)).toBe(200);
      const mine = await call(analyst, 'POST', '/prospect/enrich', { person_ids: [id] });
      expect(mine.body.data.results[0]).toMatchObject({ email: { code: 'revealed', credits: 1 }, phone: { code: 'excluded' } });
      expect(before - (await getOrgBalance(t.db.db, owner.orgId))).toBe(1);
      await call(owner, 'PUT', '/admin/settings/prospect', { person_enrich_settings: { emails: 'all', phones: 'all' } });

      // The member's block list (e-mail verifier settings) keeps an address hidden and free.
      const blocked = late.find((p) => p.mailbox_exists && strictDomains.has(p.email!.split('@')[1]!))!;
      const block = await call(owner, 'PUT', '/user_preferences/email_verification_settings/wb_list', { action: 'add', list_type: 'block', entries: [blocked.email] });
      expect(block.status, JSON.stringify(block.body)).toBe(200);
      const refused = await call(owner, 'POST', '/prospect/enrich', { person_ids: [idOf.get(blocked.external_id)], options: { emails: 'all', phones: 'no_phones' } });
      expect(refused.body.data.results[0].email).toEqual({ code: 'undeliverable', credits: 0, reason: 'The address or its domain is on your block list.' });
      await call(owner, 'PUT', '/user_preferences/email_verification_settings/wb_list', { action: 'remove', list_type: 'block', entries: [blocked.email] });
    });
  });

  describe('reverse lookup', () => {
    it('finds people by e-mail and LinkedIn URL, charges once, keeps a history', async () => {
      // Someone no earlier test revealed: data the organisation paid for already is looked up for free (below).
      const target = people.slice(200).find((p) => p.email && p.linkedin_url)!;
      const before = await getOrgBalance(t.db.db, owner.orgId);
      const byEmail = await call(owner, 'POST', '/reverse_lookup/person', { email: target.email!.toUpperCase() });
      expect(byEmail.status, JSON.stringify(byEmail.body)).toBe(200);
      expect(byEmail.body.data).toMatchObject({ found: true, credits_charged: 1 });
      expect(byEmail.body.data.person.full_name).toBe(`${target.first_name} ${target.last_name}`);
      const byUrl = await call(owner, 'POST', '/reverse_lookup/person', { linkedin_url: `${target.linkedin_url!.replace('https://www.', 'http://')}/?trk=x` });
      expect(byUrl.body.data).toMatchObject({ found: true, credits_charged: 0 });
      const missing = await call(owner, 'POST', '/reverse_lookup/person', { email: 'nobody@nowhere.test' });
      expect(missing.body.data).toMatchObject({ found: false, credits_charged: 0 });
      expect(before - (await getOrgBalance(t.db.db, owner.orgId))).toBe(1);
      expect((await call(owner, 'POST', '/reverse_lookup/person', { linkedin_url: 'https://example.com/jane' })).body.error.message).toMatch(/LinkedIn profile URL/);
      expect((await call(owner, 'POST', '/reverse_lookup/person', {})).status).toBe(400);
      const history = await call(owner, 'GET', '/reverse_lookup/history?kind=email');
      expect(history.body.data.total).toBe(2);
      expect((await call(stranger, 'GET', '/reverse_lookup/history')).body.data.total).toBe(0);
      expect((await call(analyst, 'GET', '/reverse_lookup/history')).body.data.total).toBe(0);
    });

    it('charges once per person across enrichment and lookup, and nothing for a LinkedIn match with nothing to reveal', async () => {
      const enriched = people.slice(120, 200).find((p) => p.mailbox_exists && !strictDomains.has(p.email!.split('@')[1]!))!;
      const id = idOf.get(enriched.external_id)!;
      const reveal = await call(owner, 'POST', '/prospect/enrich', { person_ids: [id], options: { emails: 'all', phones: 'no_phones' } });
      expect(reveal.body.data.results[0].email).toMatchObject({ code: 'revealed', credits: 1 });
      const before = await getOrgBalance(t.db.db, owner.orgId);
      const byEmail = await call(owner, 'POST', '/reverse_lookup/person', { email: enriched.email });
      expect(byEmail.body.data).toMatchObject({ found: true, credits_charged: 0 });
      const byUrl = await call(owner, 'POST', '/reverse_lookup/person', { linkedin_url: enriched.linkedin_url });
      expect(byUrl.body.data).toMatchObject({ found: true, credits_charged: 0 });
      expect(await getOrgBalance(t.db.db, owner.orgId)).toBe(before);

      // A profile the directory knows with no e-mail and no phone: found, nothing to reveal, free.
      const bare = people.slice(120, 200).find((p) => p.linkedin_url && p.external_id !== enriched.external_id)!;
      await t.db.db.execute(sql`update directory_people set email = null, phone = null where id = ${idOf.get(bare.external_id)!}`);
      const nothing = await call(owner, 'POST', '/reverse_lookup/person', { linkedin_url: bare.linkedin_url });
      expect(nothing.body.data).toMatchObject({ found: true, credits_charged: 0, person: { has_email: false, has_phone: false } });
      expect(await getOrgBalance(t.db.db, owner.orgId)).toBe(before);
    });

    it('the public lookup counts only the inputs it answered against its 5 a day', async () => {
      const target = people[11]!;
      const from = (payload: Record<string, string>, path = '/api/v1/public/person/search_by_email') => t.call({ method: 'POST', url: path, payload, remoteAddress: '10.9.8.7' });
      for (const bad of [{ email: 'not an address' }, { email: '' }, {}] as Record<string, string>[]) expect((await from(bad)).status).toBe(400);
      expect((await from({ linkedin_url: 'https://example.com/jane' }, '/api/v1/public/person/search_by_linkedin')).status).toBe(400);
      const statuses: number[] = [];
      for (let i = 0; i < 6; i += 1) statuses.push((await from({ email: target.email! })).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    });

    it('the public lookup shows who it is, no contact data, and limits each IP', async () => {
      const target = people[9]!;
      const first = await call(null, 'POST', '/public/person/search_by_email', { email: target.email });
      expect(first.status).toBe(200);
      expect(first.body.data.person.full_name).toBe(`${target.first_name} ${target.last_name}`);
      expect(JSON.stringify(first.body)).not.toContain(target.email!);
      const statuses: number[] = [];
      for (let i = 0; i < 5; i += 1) statuses.push((await call(null, 'POST', '/public/person/search_by_email', { email: target.email })).status);
      expect(statuses.slice(0, 4)).toEqual([200, 200, 200, 200]);
      expect(statuses[4]).toBe(429);
      const auto = await call(null, 'GET', `/public/companies/autocomplete?query=${encodeURIComponent(people[0]!.company_external_id ? 'a' : 'a')}`);
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
      const first = await importDirectory(t.deps.database, Readable.from([ndjson]), 'ndjson');
      expect(first).toMatchObject({ companies: 1, people: 1 });
      expect(first.bad.map((b) => b.line)).toEqual([3, 4, 5]);
      expect(first.bad[1]!.message).toMatch(/seniority must be one of/);
      const again = await importDirectory(t.deps.database, Readable.from([ndjson]), 'ndjson');
      expect(again.people).toBe(1);
      const rows = await selectRows<{ n: number; company_name: string; linkedin_url: string }>(
        t.db.db,
        sql`select count(*) over ()::int as n, company_name, linkedin_url from directory_people where external_id = 'op-p1'`,
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ company_name: 'Op Co', linkedin_url: 'https://www.linkedin.com/in/ada-import' });
      const csv = 'record,external_id,name,domain,industry,industry_code,employees,country,technologies\ncompany,op-c1,Op Co Renamed,opco.example,Software Publishers,511210,45,US,AWS;Stripe\ncompany,op-c2,,bad,x,1,0,USA,\n';
      const third = await importDirectory(t.deps.database, Readable.from([csv]), 'csv');
      expect(third.companies).toBe(1);
      expect(third.bad).toHaveLength(1);
      expect(third.bad[0]!.line).toBe(3);
      const moved = await selectRows<{ company_name: string; technologies: string[] }>(t.db.db, sql`select company_name, technologies from directory_people where external_id = 'op-p1'`);
      expect(moved[0]).toMatchObject({ company_name: 'Op Co Renamed', technologies: ['AWS', 'Stripe'] });
      const found = await call(owner, 'POST', '/reverse_lookup/person', { linkedin_url: 'https://www.linkedin.com/in/ada-import' });
      expect(found.body.data.found).toBe(true);
    });
  });
});
