import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_AUTHORIZATION } from '@verilead/contracts';
import { PEOPLE_DOMAINS } from '@verilead/mailworld';
import type { TGeneratedPerson } from './generator';
import { PROSPECT_EXPORT_COLUMNS } from './export';
import { startProspectWorld, type TProspectUser, type TProspectWorld } from './test-support';
import { prospectCallRows, type TCallFixtures, type TData, type TInput } from './prospect-calls-test-support';

/**
 * Every call of the spec's areas `prospect` and `reverse_lookup`, one row each: a good call by the Owner, bad input
 * (400 naming the field with a message for people, never a 500), and what the others may not reach. Lists, saved
 * searches, enrichment requests and lookups are member objects: another organisation's Owner and the organisation's
 * Executive (who sees only their own) get 404 for the Owner's, and list calls leave them out. The directory itself is
 * installation-wide, so calls on people and companies are checked for what is the organisation's own: its reveals.
 * Every role may use these menus (menus.tsv), so no role is refused with a 403; without a session every call is 401.
 * The rows are in prospect-calls-test-support.ts.
 */

const SEED = 23;

describe('every prospect and reverse-lookup call', () => {
  let w: TProspectWorld;
  /**
   * Fixtures: the Owner's list (R revealed, A's stale address not, B's personal one left out by the options), its
   * finished enrichment, a saved search and a lookup; C (deliverable, in no list) for a row's own enrichment.
   */
  const f = {} as TCallFixtures;
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

  const ROWS = prospectCallRows({ world: () => w, f, listName, savedName, call, ok, newList, ids, expectRevealedOnly });

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