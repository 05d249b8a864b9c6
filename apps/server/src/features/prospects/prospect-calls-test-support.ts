import { expect } from 'vitest';
import type { TGeneratedPerson } from './generator';
import { fetchProspectCsv, type TProspectUser, type TProspectWorld } from './test-support';

/**
 * The rows of prospect-calls.test.ts: every call of the spec's areas `prospect` and `reverse_lookup`, one row each (what
 * a row holds, and how the test runs it, is described there).
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read as JSON
export type TData = any;
export type TInput = Record<string, unknown>;
export type TRow = {
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

export const NIL = 'not-an-id';

/** The Owner's fixtures (built before the rows run): see prospect-calls.test.ts. */
export type TCallFixtures = {
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

/** What the rows use of the test: its world (once started), fixtures and calls. */
export type TRowContext = {
  world: () => TProspectWorld;
  f: TCallFixtures;
  listName: string;
  savedName: string;
  call: (user: TProspectUser | null, spec: string, input?: TInput) => ReturnType<TProspectWorld['call']>;
  ok: (user: TProspectUser, spec: string, input?: TInput) => Promise<TData>;
  newList: (name: string, ids: string[]) => Promise<string>;
  ids: (items: { id?: string; request_id?: string; lookup_id?: string }[]) => (string | undefined)[];
  expectRevealedOnly: (rows: string[][], revealed: TGeneratedPerson[]) => void;
};

export function prospectCallRows({ world, f, listName, savedName, call, ok, newList, ids, expectRevealedOnly }: TRowContext): TRow[] {
  return [
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
        const done = await ok(world().owner, 'POST /prospect/enrich', { person_ids: [f.rId], options: { emails: 'all', phones: 'no_phones' } });
        return {
          input: { request_id: done.request.request_id },
          check: async (d) => {
            expect(d.message).toBe('The request was removed');
            expect((await call(world().owner, 'GET /prospect/lead/enrich/status', { request_id: done.request.request_id })).status).toBe(404);
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
          const rows = await fetchProspectCsv(world(), world().owner, d.queue_id);
          expect(rows).toHaveLength(4);
          expectRevealedOnly(rows, [f.r]);
          expect((await call(world().stranger, 'GET /download/result/status', { queue_id: d.queue_id })).status).toBe(404);
        },
      }),
      bad: { input: () => ({ person_ids: [] }), field: 'person_ids', message: /Please choose at least one person/ },
      scope: {
        who: ['stranger'],
        others: async (u) => {
          const d = await ok(u, 'POST /prospect/download', { person_ids: [f.rId, f.aId, f.bId] });
          const rows = await fetchProspectCsv(world(), u, d.queue_id);
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
        const saved = await ok(world().owner, 'POST /prospect/search/save_filter', { name: 'Short-lived', filters: {} });
        return {
          input: { filter_id: saved.id },
          check: async (d) => {
            expect(d.message).toBe('The saved search "Short-lived" was removed');
            expect(ids((await ok(world().owner, 'GET /prospect/search/filters')).items)).not.toContain(saved.id);
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
            await world().t.deps.queue.runUntilIdle();
            expect(await ok(world().owner, 'GET /prospect/lead/enrich/status', { request_id: d.request_id })).toMatchObject({ state: 'completed', processed: 1, emails_revealed: 1 });
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
          const rows = await fetchProspectCsv(world(), world().owner, d.queue_id);
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
            expect((await call(world().owner, 'GET /prospect/list/details', { list_id: listId })).status).toBe(404);
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
        check: (d) => expect(d).toMatchObject({ total: world().people.filter((p) => p.country === 'US').length, sampled: false }),
      }),
      bad: { input: () => ({ filters: '{nope' }), field: 'filters', message: /The filters are not valid JSON/ },
      scope: {
        who: ['stranger'],
        // The directory is the installation's: the same counts for everyone.
        others: async (u) => expect((await ok(u, 'GET /prospect/search/meta', { filters: JSON.stringify({ countries: ['US'] }) })).total).toBe(world().people.filter((p) => p.country === 'US').length),
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
        f.runningId = (await ok(world().owner, 'POST /prospect/list/enrich', { list_id: await newList('Running', [f.aId]) })).request_id;
        return {
          check: (d) => expect(d.items.find((r: { request_id: string }) => r.request_id === f.runningId)).toMatchObject({ list_name: 'Running', state: 'queued' }),
        };
      },
      bad: { input: () => ({ limit: 1000 }), field: 'limit', message: /Please choose a page size of/ },
      scope: { who: ['stranger', 'analyst'], others: async (u) => expect(ids((await ok(u, 'GET /prospect/inprogress_requests')).items)).not.toContain(f.runningId) },
      after: async () => {
        await ok(world().owner, 'POST /prospect/remove', { request_id: f.runningId });
        await world().t.deps.queue.runUntilIdle();
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
        const company = (await ok(world().owner, 'POST /prospect/view', { company_id: f.companyId })).company;
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
}
