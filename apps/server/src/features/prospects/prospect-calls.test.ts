import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_AUTHORIZATION } from '@verilead/contracts';
import { PEOPLE_DOMAINS } from '@verilead/mailworld';
import type { TGeneratedPerson } from './generator';
import { PROSPECT_EXPORT_COLUMNS } from './export';
import { fetchProspectCsv, startProspectWorld, type TProspectUser, type TProspectWorld } from './test-support';

/**
 * Every call of the spec's areas `prospect` and `reverse_lookup`, one row each: a good call by the Owner, bad input
 * (400 naming the field with a message for people, never a 500), and what the others may not reach. Lists, saved
 * searches, enrichment requests and lookups are member objects: another organisation's Owner and the organisation's
 * Executive (who sees only their own) get 404 for the Owner's, and list calls leave them out. The directory itself is
 * installation-wide, so calls on people and companies are checked for what is the organisation's own: its reveals.
 * Every role may use these menus (menus.tsv), so no role is refused with a 403; without a session every call is 401.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read as JSON
type TData = any;
type TInput = Record<string, unknown>;
type TRow = {
  call: string;
  /** The Owner's good call: its input and what the answer must show. */
  good: () => Promise<{ input?: TInput; check: (data: TData) => void | Promise<void> }>;
  /** Input that is refused with 400 on `field`; 'none' when the call takes no input. */
  bad: { input: () => TInput; field: string; message: RegExp } | 'none';
  /**
   * What others get: `notFound`: the Owner's object by id is 404 for `who`; `others`: a check run for each of `who`
   * (another organisation's data is absent, or the organisation's reveals are its own).
   */
  scope: { who: ('stranger' | 'analyst')[] } & ({ notFound: () => TInput } | { others: (user: TProspectUser, who: 'stranger' | 'analyst') => Promise<void> });
  after?: () => Promise<void>;
};

const SEED = 23;
const NIL = 'not-an-id';

describe('every prospect and reverse-lookup call', () => {
  let w: TProspectWorld;
  /**
   * Fixtures: the Owner's list (R revealed, A's stale address not, B's personal one left out by the options), its
   * finished enrichment, a saved search and a lookup; C (deliverable, in no list) for a row's own enrichment.
   */
  const f = {} as {
    r: TGeneratedPerson;
    a: TGeneratedPerson;
    b: TGeneratedPerson;
    c: TGeneratedPerson;
    rId: string;
    aId: string;
    bId: string;
    cId: string;
    listId: string;
    requestId: string;
    savedId: string;
    lookupId: string;
    lookupEmail: string;
    companyId: string;
    runningId: string;
  };
  const listName = 'Fixture list of the owner';
  const savedName = 'Fixture search of the owner';

  const call = (user: TProspectUser | null, spec: string, input: TInput = {}) => {
    const [method, path] = spec.split(' ') as ['GET' | 'POST', string];
    if (method === 'POST') return w.call(user, method, path, input);
    const qs = new URLSearchParams(Object.entries(input).map(([k, v]): [string, string] => [k, String(v)])).toString();
    return w.call(user, method, qs ? `${path}?${qs}` : path);
  };
  const ok = async (user: TProspectUser, spec: string, input: TInput = {}) => {
    const res = await call(user, spec, input);
    expect(res.status, `${spec} ${JSON.stringify(res.body)}`).toBe(200);
    return res.body.data as TData;
  };
  const newList = async (name: string, ids: string[]) => (await ok(w.owner, 'POST /prospect/search/add_profiles', { list_name: name, person_ids: ids })).list.id as string;
  const user = (who: 'stranger' | 'analyst') => (who === 'stranger' ? w.stranger : w.analyst);
  const ids = (items: { id?: string; request_id?: string; lookup_id?: string }[]) => items.map((i) => i.id ?? i.request_id ?? i.lookup_id);

  beforeAll(async () => {
    w = await startProspectWorld({ companies: 20, people: 160, seed: SEED });
    const strict = new Set(PEOPLE_DOMAINS.filter((d) => d.scenario === 'strict').map((d) => d.domain));
    const domain = (p: TGeneratedPerson) => p.email!.split('@')[1]!;
    f.r = w.people.find((p) => p.mailbox_exists && strict.has(domain(p)) && p.phone)!;
    f.a = w.people.find((p) => !p.mailbox_exists && strict.has(domain(p)) && p.phone)!;
    f.b = w.people.find((p) => p.mailbox_exists && domain(p) === 'gmail.com' && p.phone)!;
    f.c = w.people.find((p) => p !== f.r && p.mailbox_exists && strict.has(domain(p)))!;
    const idOf = (p: TGeneratedPerson) => w.idOf.get(p.external_id)!;
    [f.rId, f.aId, f.bId, f.cId] = [idOf(f.r), idOf(f.a), idOf(f.b), idOf(f.c)];
    // The stranger's organisation has no credits: whatever it asks to reveal must be paid, and it cannot pay.
    await w.t.db.db.execute(sql`update organisations set credits_balance = 0 where id = ${w.stranger.orgId}`);

    f.listId = await newList(listName, [f.rId, f.aId, f.bId]);
    const run = await ok(w.owner, 'POST /prospect/list/enrich', { list_id: f.listId, options: { emails: 'business_only', phones: 'no_phones' } });
    f.requestId = run.request_id;
    await w.t.deps.queue.runUntilIdle();
    f.savedId = (await ok(w.owner, 'POST /prospect/search/save_filter', { name: savedName, filters: { countries: ['US'] } })).id;
    f.lookupEmail = w.people[3]!.email!;
    f.lookupId = (await ok(w.owner, 'POST /reverse_lookup/person', { email: f.lookupEmail })).lookup_id;
    f.companyId = (await ok(w.owner, 'POST /prospect/view', { person_id: f.rId })).company.id;
  }, 120_000);
  afterAll(async () => {
    await w?.close();
  });

  /** The Owner's fixtures survive whatever the others tried. */
  async function expectFixturesIntact() {
    const details = await ok(w.owner, 'GET /prospect/list/details', { list_id: f.listId });
    expect(details.list).toMatchObject({ name: listName, lead_count: 3, state: 'processed' });
    expect(details.revealed_emails).toBe(1);
    expect((await ok(w.owner, 'GET /prospect/search/filters')).items.map((s: { id: string }) => s.id)).toContain(f.savedId);
    expect((await ok(w.owner, 'GET /prospect/lead/enrich/status', { request_id: f.requestId })).state).toBe('completed');
  }

  /** A file's rows by full name; only the revealed person's e-mail shows, nobody's phone (not asked), nothing masked. */
  function expectRevealedOnly(rows: string[][], revealed: TGeneratedPerson[]) {
    expect(rows[0]).toEqual(PROSPECT_EXPORT_COLUMNS);
    const col = (name: string) => PROSPECT_EXPORT_COLUMNS.indexOf(name);
    const text = JSON.stringify(rows);
    expect(text).not.toContain('•••');
    for (const p of [f.r, f.a, f.b]) {
      const row = rows.find((r) => r[col('full_name')] === `${p.first_name} ${p.last_name}`);
      if (!row) continue;
      const shown = revealed.includes(p);
      expect(row[col('email')], p.email!).toBe(shown ? p.email : '');
      expect(row[col('email_status')]).toBe(shown ? 'valid' : '');
      expect(row[col('phone')]).toBe('');
      if (!shown) expect(text).not.toContain(p.email);
      expect(text).not.toContain(p.phone);
    }
  }

  const ROWS: TRow[] = [
    {
      call: 'POST /prospect/search',
      good: async () => ({
        input: { filters: { keywords: f.r.last_name }, limit: 100 },
        check: (d) => expect(d.people.find((p: { id: string }) => p.id === f.rId)).toMatchObject({ email: f.r.email, email_revealed: true }),
      }),
      bad: { input: () => ({ filters: { seniorities: ['emperor'] } }), field: 'filters.seniorities.0', message: /Please choose a seniority from the list/ },
      scope: {
        who: ['stranger'],
        others: async (u) => {
          const d = await ok(u, 'POST /prospect/search', { filters: { keywords: f.r.last_name }, limit: 100 });
          expect(d.people.find((p: { id: string }) => p.id === f.rId)).toMatchObject({ email_revealed: false, email: expect.stringContaining('•••') });
        },
      },
    },
    {
      call: 'POST /prospect/view',
      good: async () => ({
        input: { person_id: f.rId },
        check: (d) => {
          expect(d.person).toMatchObject({ id: f.rId, full_name: `${f.r.first_name} ${f.r.last_name}`, email: f.r.email, email_revealed: true, email_status: 'valid' });
          expect(d.person.phone).toContain('•••');
          expect(d.company.id).toBe(f.companyId);
          expect(d.lists).toEqual([{ id: f.listId, name: listName }]);
        },
      }),
      bad: { input: () => ({ person_id: NIL }), field: 'person_id', message: /Please choose a person/ },
      scope: {
        who: ['stranger', 'analyst'],
        others: async (u, who) => {
          const d = await ok(u, 'POST /prospect/view', { person_id: f.rId });
          expect(d.lists).toEqual([]);
          // Reveals are the organisation's: the Executive sees them, another organisation does not.
          expect(d.person.email_revealed).toBe(who === 'analyst');
        },
      },
    },
    {
      call: 'POST /prospect/remove',
      good: async () => {
        const done = await ok(w.owner, 'POST /prospect/enrich', { person_ids: [f.rId], options: { emails: 'all', phones: 'no_phones' } });
        return {
          input: { request_id: done.request.request_id },
          check: async (d) => {
            expect(d.message).toBe('The request was removed');
            expect((await call(w.owner, 'GET /prospect/lead/enrich/status', { request_id: done.request.request_id })).status).toBe(404);
          },
        };
      },
      bad: { input: () => ({ request_id: NIL }), field: 'request_id', message: /Please choose a request/ },
      scope: { who: ['stranger', 'analyst'], notFound: () => ({ request_id: f.requestId }) },
    },
    {
      call: 'POST /prospect/download',
      good: async () => ({
        input: { person_ids: [f.rId, f.aId, f.bId], file_type: 'csv' },
        check: async (d) => {
          const rows = await fetchProspectCsv(w, w.owner, d.queue_id);
          expect(rows).toHaveLength(4);
          expectRevealedOnly(rows, [f.r]);
          expect((await call(w.stranger, 'GET /download/result/status', { queue_id: d.queue_id })).status).toBe(404);
        },
      }),
      bad: { input: () => ({ person_ids: [] }), field: 'person_ids', message: /Please choose at least one person/ },
      scope: {
        who: ['stranger'],
        others: async (u) => {
          const d = await ok(u, 'POST /prospect/download', { person_ids: [f.rId, f.aId, f.bId] });
          const rows = await fetchProspectCsv(w, u, d.queue_id);
          expect(rows).toHaveLength(4);
          expectRevealedOnly(rows, []);
        },
      },
    },
    {
      call: 'POST /prospect/search/save_filter',
      good: async () => ({ input: { name: 'German people', filters: { countries: ['DE'] } }, check: (d) => expect(d).toMatchObject({ name: 'German people', filters: { countries: ['DE'] } }) }),
      bad: { input: () => ({ name: ' ', filters: {} }), field: 'name', message: /Please name the search/ },
      scope: {
        who: ['stranger', 'analyst'],
        // What they save is theirs (and the Owner's search stays the Owner's: checked after every row).
        others: async (u) => {
          const d = await ok(u, 'POST /prospect/search/save_filter', { name: 'Theirs', filters: {} });
          expect(d.user_id).toBe(u.userId);
          expect(ids((await ok(u, 'GET /prospect/search/filters')).items)).toEqual([d.id]);
          await ok(u, 'POST /prospect/search/remove_filter', { filter_id: d.id });
        },
      },
    },
    {
      call: 'POST /prospect/search/remove_filter',
      good: async () => {
        const saved = await ok(w.owner, 'POST /prospect/search/save_filter', { name: 'Short-lived', filters: {} });
        return {
          input: { filter_id: saved.id },
          check: async (d) => {
            expect(d.message).toBe('The saved search "Short-lived" was removed');
            expect(ids((await ok(w.owner, 'GET /prospect/search/filters')).items)).not.toContain(saved.id);
          },
        };
      },
      bad: { input: () => ({ filter_id: NIL }), field: 'filter_id', message: /Please choose a saved search/ },
      scope: { who: ['stranger', 'analyst'], notFound: () => ({ filter_id: f.savedId }) },
    },
    {
      call: 'POST /prospect/search/add_profiles',
      good: async () => ({ input: { list_name: 'Added', person_ids: [f.aId, f.bId] }, check: (d) => expect(d).toMatchObject({ added: 2, already_in_list: 0, list: { name: 'Added', lead_count: 2 } }) }),
      bad: { input: () => ({ person_ids: [f.aId] }), field: 'list_id', message: /Please choose a list or name a new one/ },
      scope: { who: ['stranger', 'analyst'], notFound: () => ({ list_id: f.listId, person_ids: [f.rId] }) },
    },
    {
      call: 'POST /prospect/enrich',
      good: async () => ({
        input: { person_ids: [f.rId], options: { emails: 'all', phones: 'no_phones' } },
        check: (d) => {
          // Revealed before (the list): shown again, not charged again.
          expect(d.request).toMatchObject({ state: 'completed', processed: 1, credits_charged: 0 });
          expect(d.people[0]).toMatchObject({ id: f.rId, email: f.r.email, email_revealed: true });
        },
      }),
      bad: { input: () => ({ person_ids: [] }), field: 'person_ids', message: /Please choose at least one person/ },
      scope: {
        who: ['stranger'],
        others: async (u) => {
          // The Owner's reveal is not the other organisation's: it would have to pay, and has no credits.
          const res = await call(u, 'POST /prospect/enrich', { person_ids: [f.rId], options: { emails: 'all', phones: 'no_phones' } });
          expect(res.status).toBe(402);
        },
      },
    },
    {
      call: 'POST /prospect/list/enrich',
      good: async () => {
        const listId = await newList('To enrich', [f.cId]);
        return {
          input: { list_id: listId, options: { emails: 'all', phones: 'no_phones' } },
          check: async (d) => {
            expect(d).toMatchObject({ kind: 'list', list_id: listId, state: 'queued', total: 1 });
            await w.t.deps.queue.runUntilIdle();
            expect(await ok(w.owner, 'GET /prospect/lead/enrich/status', { request_id: d.request_id })).toMatchObject({ state: 'completed', processed: 1, emails_revealed: 1 });
          },
        };
      },
      bad: { input: () => ({ list_id: NIL }), field: 'list_id', message: /Please choose a list/ },
      scope: { who: ['stranger', 'analyst'], notFound: () => ({ list_id: f.listId }) },
    },
    {
      call: 'POST /prospect/list/export',
      good: async () => ({
        input: { list_id: f.listId, file_type: 'csv' },
        check: async (d) => {
          const rows = await fetchProspectCsv(w, w.owner, d.queue_id);
          expect(rows).toHaveLength(4);
          expectRevealedOnly(rows, [f.r]);
        },
      }),
      bad: { input: () => ({ list_id: f.listId, file_type: 'pdf' }), field: 'file_type', message: /Please choose a valid file type/ },
      scope: { who: ['stranger', 'analyst'], notFound: () => ({ list_id: f.listId }) },
    },
    {
      call: 'POST /prospect/list/update',
      good: async () => ({ input: { list_id: await newList('Old name', [f.aId]), name: 'New name' }, check: (d) => expect(d).toMatchObject({ name: 'New name', lead_count: 1 }) }),
      bad: { input: () => ({ list_id: f.listId, name: '  ' }), field: 'name', message: /Please name the list/ },
      scope: { who: ['stranger', 'analyst'], notFound: () => ({ list_id: f.listId, name: 'Taken over' }) },
    },
    {
      call: 'POST /prospect/list/remove',
      good: async () => {
        const listId = await newList('To remove', [f.aId]);
        return {
          input: { list_id: listId },
          check: async (d) => {
            expect(d.message).toBe('The list "To remove" was removed');
            expect((await call(w.owner, 'GET /prospect/list/details', { list_id: listId })).status).toBe(404);
          },
        };
      },
      bad: { input: () => ({ list_id: NIL }), field: 'list_id', message: /Please choose a list/ },
      scope: { who: ['stranger', 'analyst'], notFound: () => ({ list_id: f.listId }) },
    },
    {
      call: 'POST /prospect/list/remove_lead',
      good: async () => ({
        input: { list_id: await newList('Two leads', [f.aId, f.bId]), person_ids: [f.aId] },
        check: (d) => expect(d).toMatchObject({ removed: 1, list: { name: 'Two leads', lead_count: 1 } }),
      }),
      bad: { input: () => ({ list_id: f.listId, person_ids: [NIL] }), field: 'person_ids.0', message: /Please choose people from the results/ },
      scope: { who: ['stranger', 'analyst'], notFound: () => ({ list_id: f.listId, person_ids: [f.aId] }) },
    },
    {
      call: 'GET /prospect/search/meta',
      good: async () => ({
        input: { filters: JSON.stringify({ countries: ['US'] }) },
        check: (d) => expect(d).toMatchObject({ total: w.people.filter((p) => p.country === 'US').length, sampled: false }),
      }),
      bad: { input: () => ({ filters: '{nope' }), field: 'filters', message: /The filters are not valid JSON/ },
      scope: {
        who: ['stranger'],
        // The directory is the installation's: the same counts for everyone.
        others: async (u) => expect((await ok(u, 'GET /prospect/search/meta', { filters: JSON.stringify({ countries: ['US'] }) })).total).toBe(w.people.filter((p) => p.country === 'US').length),
      },
    },
    {
      call: 'GET /prospect/list',
      good: async () => ({ input: { q: 'Fixture' }, check: (d) => expect(d.items.map((l: { name: string }) => l.name)).toEqual([listName]) }),
      bad: { input: () => ({ limit: 7 }), field: 'limit', message: /Please choose a page size of/ },
      scope: { who: ['stranger', 'analyst'], others: async (u) => expect(ids((await ok(u, 'GET /prospect/list', { limit: 100 })).items)).not.toContain(f.listId) },
    },
    {
      call: 'GET /prospect/search/filters',
      good: async () => ({ check: (d) => expect(d.items.find((s: { id: string }) => s.id === f.savedId)).toMatchObject({ name: savedName, filters: { countries: ['US'] } }) }),
      bad: 'none',
      scope: { who: ['stranger', 'analyst'], others: async (u) => expect(ids((await ok(u, 'GET /prospect/search/filters')).items)).not.toContain(f.savedId) },
    },
    {
      call: 'GET /prospect/requests',
      good: async () => ({ input: { limit: 100 }, check: (d) => expect(d.items.find((r: { request_id: string }) => r.request_id === f.requestId)).toMatchObject({ list_name: listName, emails_revealed: 1 }) }),
      bad: { input: () => ({ page: 0 }), field: 'page', message: /Page must be at least 1/ },
      scope: { who: ['stranger', 'analyst'], others: async (u) => expect(ids((await ok(u, 'GET /prospect/requests', { limit: 100 })).items)).not.toContain(f.requestId) },
    },
    {
      call: 'GET /prospect/inprogress_requests',
      good: async () => {
        // Queued and not run: in progress until cancelled (after the row).
        f.runningId = (await ok(w.owner, 'POST /prospect/list/enrich', { list_id: await newList('Running', [f.aId]) })).request_id;
        return {
          check: (d) => expect(d.items.find((r: { request_id: string }) => r.request_id === f.runningId)).toMatchObject({ list_name: 'Running', state: 'queued' }),
        };
      },
      bad: { input: () => ({ limit: 1000 }), field: 'limit', message: /Please choose a page size of/ },
      scope: { who: ['stranger', 'analyst'], others: async (u) => expect(ids((await ok(u, 'GET /prospect/inprogress_requests')).items)).not.toContain(f.runningId) },
      after: async () => {
        await ok(w.owner, 'POST /prospect/remove', { request_id: f.runningId });
        await w.t.deps.queue.runUntilIdle();
      },
    },
    {
      call: 'GET /prospect/recent_added',
      good: async () => ({ check: (d) => expect(d.items.some((i: { list_id: string; person: { id: string } }) => i.list_id === f.listId && i.person.id === f.rId)).toBe(true) }),
      bad: 'none',
      scope: {
        who: ['stranger', 'analyst'],
        others: async (u) => expect((await ok(u, 'GET /prospect/recent_added')).items.map((i: { list_id: string }) => i.list_id)).not.toContain(f.listId),
      },
    },
    {
      call: 'GET /prospect/list/details',
      good: async () => ({
        input: { list_id: f.listId },
        check: (d) => {
          expect(d).toMatchObject({ list: { id: f.listId, lead_count: 3, state: 'processed' }, revealed_emails: 1, revealed_phones: 0 });
          expect(d.enrichment).toMatchObject({ request_id: f.requestId, state: 'completed' });
        },
      }),
      bad: { input: () => ({ list_id: NIL }), field: 'list_id', message: /Please choose a list/ },
      scope: { who: ['stranger', 'analyst'], notFound: () => ({ list_id: f.listId }) },
    },
    {
      call: 'GET /prospect/search/profiles',
      good: async () => {
        const company = (await ok(w.owner, 'POST /prospect/view', { company_id: f.companyId })).company;
        return {
          input: { company_id: f.companyId, limit: 100 },
          check: (d) => {
            expect(d.total).toBe(company.people_count);
            expect(d.items.find((p: { id: string }) => p.id === f.rId)).toMatchObject({ email: f.r.email, email_revealed: true });
          },
        };
      },
      bad: { input: () => ({ company_id: NIL }), field: 'company_id', message: /Please choose a company/ },
      scope: {
        who: ['stranger'],
        others: async (u) => expect((await ok(u, 'GET /prospect/search/profiles', { company_id: f.companyId, limit: 100 })).items.find((p: { id: string }) => p.id === f.rId).email_revealed).toBe(false),
      },
    },
    {
      call: 'GET /prospect/list/lead_in_list',
      good: async () => ({ input: { person_ids: `${f.rId},${f.aId}` }, check: (d) => {
          expect(d.items.map((i: { person_id: string }) => i.person_id)).toEqual([f.rId, f.aId]);
          for (const i of d.items) expect(ids(i.lists)).toContain(f.listId);
        },
      }),
      bad: { input: () => ({ person_ids: NIL }), field: 'person_ids.0', message: /Please choose people from the results/ },
      scope: {
        who: ['stranger', 'analyst'],
        others: async (u) => expect((await ok(u, 'GET /prospect/list/lead_in_list', { person_ids: f.rId })).items).toEqual([{ person_id: f.rId, lists: [] }]),
      },
    },
    {
      call: 'GET /prospect/list/search/leads',
      good: async () => ({
        input: { list_id: f.listId, q: f.r.last_name },
        check: (d) => expect(d.items.find((p: { id: string }) => p.id === f.rId)).toMatchObject({ email: f.r.email, email_revealed: true }),
      }),
      bad: { input: () => ({ list_id: NIL }), field: 'list_id', message: /Please choose a list/ },
      scope: { who: ['stranger', 'analyst'], notFound: () => ({ list_id: f.listId }) },
    },
    {
      call: 'GET /prospect/recent_activities',
      good: async () => ({ check: (d) => expect(d.items.map((a: { description: string }) => a.description)).toContain(`Enriched the list "${listName}"`) }),
      bad: 'none',
      scope: {
        who: ['stranger', 'analyst'],
        others: async (u) => expect(JSON.stringify((await ok(u, 'GET /prospect/recent_activities')).items)).not.toContain(listName),
      },
    },
    {
      call: 'GET /prospect/lead/enrich/status',
      good: async () => ({
        input: { request_id: f.requestId },
        check: (d) => expect(d).toMatchObject({ request_id: f.requestId, state: 'completed', total: 3, processed: 3, progress: 100, emails_revealed: 1, credits_charged: 1 }),
      }),
      bad: { input: () => ({ request_id: NIL }), field: 'request_id', message: /Please choose a request/ },
      scope: { who: ['stranger', 'analyst'], notFound: () => ({ request_id: f.requestId }) },
    },
    {
      call: 'POST /reverse_lookup/person',
      good: async () => ({
        input: { email: f.r.email!.toUpperCase() },
        check: (d) => expect(d).toMatchObject({ found: true, kind: 'email', person: { id: f.rId, email: f.r.email, email_revealed: true } }),
      }),
      bad: { input: () => ({ email: 'not-an-address' }), field: 'email', message: /Please enter a valid email address/ },
      scope: {
        who: ['stranger'],
        // The Owner's lookup of this person is not the other organisation's: it would pay, and has no credits.
        others: async (u) => expect((await call(u, 'POST /reverse_lookup/person', { email: f.lookupEmail })).status).toBe(402),
      },
    },
    {
      call: 'GET /reverse_lookup/history',
      good: async () => ({ input: { kind: 'email' }, check: (d) => expect(d.items.find((h: { lookup_id: string }) => h.lookup_id === f.lookupId)).toMatchObject({ found: true, query: f.lookupEmail }) }),
      bad: { input: () => ({ kind: 'phone' }), field: 'kind', message: /Please choose email or linkedin/ },
      scope: { who: ['stranger', 'analyst'], others: async (u) => expect(ids((await ok(u, 'GET /reverse_lookup/history', { limit: 100 })).items)).not.toContain(f.lookupId) },
    },
  ];

  it('has one row for each of the 27 calls', () => {
    const spec = Object.keys(API_AUTHORIZATION).filter((k) => /^(GET|POST) \/(prospect|reverse_lookup)\//.test(k));
    expect(spec).toHaveLength(27);
    expect(ROWS.map((r) => r.call).sort()).toEqual(spec.sort());
  });

  it.each(ROWS.map((row) => [row.call, row] as const))('%s', async (_name, row) => {
    expect((await call(null, row.call)).status).toBe(401);

    const good = await row.good();
    await good.check(await ok(w.owner, row.call, good.input));

    if (row.bad !== 'none') {
      const bad = await call(w.owner, row.call, row.bad.input());
      expect(bad.status, JSON.stringify(bad.body)).toBe(400);
      const reason = bad.body.error.reasons?.find((r: { field: string }) => row.bad !== 'none' && r.field === row.bad.field);
      expect(reason, JSON.stringify(bad.body.error)).toBeDefined();
      expect(reason.messages.join(' ')).toMatch(row.bad.message);
      expect(bad.body.error.message).toMatch(row.bad.message);
      expect(bad.body.error.message).not.toMatch(/invalid_|Invalid input|expected /);
    }

    for (const who of row.scope.who) {
      if ('notFound' in row.scope) {
        const res = await call(user(who), row.call, row.scope.notFound());
        expect(res.status, `${who}: ${JSON.stringify(res.body)}`).toBe(404);
        expect(res.body.error.code).toBe('not_found');
      } else await row.scope.others(user(who), who);
    }
    await row.after?.();
    await expectFixturesIntact();
  });
});
