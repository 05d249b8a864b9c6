import { request } from 'node:http';
import { Readable } from 'node:stream';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { getOrgBalance } from '../../platform/credits/ledger';
import { creditTransactions } from '../../platform/credits/tables';
import { selectRows } from '../../platform/db/database';
import { organisations } from '../../platform/tenancy/tables';
import { importDirectory } from './directory-import';
import { enrichLeads, latestListRequest } from './enrich';
import { GREYLISTED, useProspectApiWorld } from './test-support';

// Revealing contact data and enriching people and lists: what is charged, the checks within the request, the member's
// settings. Searching and reverse lookup are in prospects-search.test.ts.

describe('prospect API', () => {
  const w = useProspectApiWorld();
  const { call, pick, strictDomains } = w;
  const charges = (orgId: string) =>
    w.t.db.db
      .select()
      .from(creditTransactions)
      .where(and(eq(creditTransactions.orgId, orgId), eq(creditTransactions.kind, 'charge')));

  describe('reveal and enrich', () => {
    it('charges only for revealed data, never twice, even concurrently', async () => {
      const live = pick((p) => p.mailbox_exists && strictDomains.has(p.email!.split('@')[1]!) && !!p.phone, 2);
      const stale = pick((p) => !p.mailbox_exists && strictDomains.has(p.email!.split('@')[1]!) && !p.phone, 1);
      const ids = [...live, ...stale].map((p) => w.idOf.get(p.external_id)!);
      const before = await getOrgBalance(w.t.db.db, w.owner.orgId);
      const res = await call(w.owner, 'POST', '/prospect/enrich', { person_ids: ids, options: { emails: 'all', phones: 'all' } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const r = res.body.data.request;
      expect(r).toMatchObject({ state: 'completed', emails_revealed: 2, phones_revealed: 2, credits_charged: 2 * 1 + 2 * 2 });
      expect(before - (await getOrgBalance(w.t.db.db, w.owner.orgId))).toBe(6);
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
      const freshId = w.idOf.get(fresh.external_id)!;
      const mid = await getOrgBalance(w.t.db.db, w.owner.orgId);
      const [a, b, c] = await Promise.all([
        call(w.owner, 'POST', '/prospect/enrich', { person_ids: ids, options: { emails: 'all', phones: 'all' } }),
        call(w.owner, 'POST', '/prospect/enrich', { person_ids: [freshId], options: { emails: 'all', phones: 'no_phones' } }),
        call(w.owner, 'POST', '/prospect/enrich', { person_ids: [freshId], options: { emails: 'all', phones: 'no_phones' } }),
      ]);
      expect([a.status, b.status, c.status]).toEqual([200, 200, 200]);
      expect(a.body.data.request.credits_charged).toBe(0);
      expect(b.body.data.request.credits_charged + c.body.data.request.credits_charged).toBe(1);
      expect(mid - (await getOrgBalance(w.t.db.db, w.owner.orgId))).toBe(1);
      const emailCharges = (await charges(w.owner.orgId)).filter((x) => x.objectType === 'prospect_email' && x.objectId?.endsWith(freshId));
      expect(emailCharges).toHaveLength(1);
      // The other organisation reveals (and pays) on its own; the owner's reveal does not show there.
      const theirs = await call(w.stranger, 'POST', '/prospect/search', { filters: { keywords: fresh.last_name } });
      expect(theirs.body.data.people.find((p: { id: string }) => p.id === freshId)?.email_revealed ?? false).toBe(false);
    });

    it('follows the enrich options and answers 402 without credits', async () => {
      const personal = pick((p) => p.mailbox_exists && p.email!.endsWith('@gmail.com') && p.phone_type === 'fixed_line', 1)[0]!;
      const id = w.idOf.get(personal.external_id)!;
      const res = await call(w.owner, 'POST', '/prospect/enrich', { person_ids: [id], options: { emails: 'business_only', phones: 'mobile_only' } });
      expect(res.body.data.request).toMatchObject({ emails_revealed: 0, phones_revealed: 0, credits_charged: 0 });
      expect(res.body.data.results).toEqual([
        {
          person_id: id,
          email: { code: 'excluded', credits: 0, reason: 'A personal address: your enrich options reveal business addresses only.' },
          phone: { code: 'excluded', credits: 0, reason: 'A fixed line: your enrich options reveal mobile numbers only.' },
        },
      ]);
      const poor = await call(w.stranger, 'GET', '/user/credits_and_limits');
      const balance = poor.body.data.credits ?? poor.body.data.balance ?? (await getOrgBalance(w.t.db.db, w.stranger.orgId));
      await w.t.db.db.execute(sql`update organisations set credits_balance = 0 where id = ${w.stranger.orgId}`);
      const broke = await call(w.stranger, 'POST', '/prospect/enrich', { person_ids: [id], options: { emails: 'all', phones: 'all' } });
      expect(broke.status).toBe(402);
      expect(typeof balance).toBe('number');
      expect((await call(w.owner, 'POST', '/prospect/enrich', { person_ids: [] })).status).toBe(400);
    });

    it('enriches a whole list in chunks with progress, cancel and no double charge', async () => {
      const members = pick((p) => p.email!.split('@')[1] !== 'greylist.test', 40).map((p) => w.idOf.get(p.external_id)!);
      const add = await call(w.owner, 'POST', '/prospect/search/add_profiles', { list_name: 'Forty', person_ids: members });
      const listId = add.body.data.list.id;
      // Cancelled before it runs: nothing is charged.
      const started = await call(w.owner, 'POST', '/prospect/list/enrich', { list_id: listId, options: { emails: 'all', phones: 'all' } });
      expect(started.status, JSON.stringify(started.body)).toBe(200);
      expect((await call(w.owner, 'POST', '/prospect/list/enrich', { list_id: listId })).status).toBe(409);
      const cancelled = await call(w.owner, 'POST', '/prospect/list/enrich', { list_id: listId, cancel: true });
      expect(cancelled.body.data.state).toBe('cancelled');
      await w.t.deps.queue.runUntilIdle();
      expect((await call(w.owner, 'GET', `/prospect/lead/enrich/status?request_id=${started.body.data.request_id}`)).body.data.processed).toBe(0);

      const before = await getOrgBalance(w.t.db.db, w.owner.orgId);
      const run = await call(w.owner, 'POST', '/prospect/list/enrich', { list_id: listId, options: { emails: 'all', phones: 'all' } });
      expect((await call(w.owner, 'GET', '/prospect/inprogress_requests')).body.data.items.map((r: { request_id: string }) => r.request_id)).toContain(run.body.data.request_id);
      await w.t.deps.queue.runUntilIdle();
      const done = await call(w.owner, 'GET', `/prospect/lead/enrich/status?request_id=${run.body.data.request_id}`);
      expect(done.body.data).toMatchObject({ state: 'completed', processed: 40, total: 40, progress: 100 });
      const spent = before - (await getOrgBalance(w.t.db.db, w.owner.orgId));
      const details = await call(w.owner, 'GET', `/prospect/list/details?list_id=${listId}`);
      expect(details.body.data.list.state).toBe('processed');
      expect(details.body.data.revealed_emails).toBeGreaterThan(0);
      // Everything charged in this run is what the request says it charged (earlier reveals were free).
      expect(spent).toBe(done.body.data.credits_charged);
      // A second run reveals nothing new and charges nothing.
      const rerun = await call(w.owner, 'POST', '/prospect/list/enrich', { list_id: listId, options: { emails: 'all', phones: 'all' } });
      await w.t.deps.queue.runUntilIdle();
      expect((await call(w.owner, 'GET', `/prospect/lead/enrich/status?request_id=${rerun.body.data.request_id}`)).body.data.credits_charged).toBe(0);
      expect((await call(w.stranger, 'GET', `/prospect/lead/enrich/status?request_id=${rerun.body.data.request_id}`)).status).toBe(404);
      expect((await call(w.stranger, 'POST', '/prospect/list/enrich', { list_id: listId })).status).toBe(404);
      expect((await call(w.owner, 'GET', '/prospect/requests')).body.data.total).toBeGreaterThanOrEqual(3);
      expect((await call(w.stranger, 'POST', '/prospect/remove', { request_id: rerun.body.data.request_id })).status).toBe(404);
      expect((await call(w.owner, 'POST', '/prospect/remove', { request_id: rerun.body.data.request_id })).status).toBe(200);

      // The export holds the revealed data only, through the downloads job and its link.
      const ex = await call(w.owner, 'POST', '/prospect/list/export', { list_id: listId, file_type: 'csv' });
      expect(ex.status, JSON.stringify(ex.body)).toBe(200);
      await w.t.deps.queue.runUntilIdle();
      const st = await call(w.owner, 'GET', `/download/result/status?queue_id=${ex.body.data.queue_id}`);
      expect(st.body.data.state, st.body.data.error ?? '').toBe('success');
      const file = await w.t.app.inject({ method: 'GET', url: `/api/v1/public/download_prospects?download_token=${encodeURIComponent(st.body.data.download_token)}` });
      expect(file.statusCode).toBe(200);
      const lines = file.body.trim().split('\n');
      expect(lines[0]).toContain('full_name');
      expect(lines).toHaveLength(41);
      const leads = await call(w.owner, 'GET', `/prospect/list/search/leads?list_id=${listId}&limit=50`);
      const revealed = leads.body.data.items.filter((p: { email_revealed: boolean }) => p.email_revealed);
      expect(revealed.length).toBe(details.body.data.revealed_emails);
      expect(file.body).toContain(revealed[0].email);
      expect(file.body).not.toContain('•••');
      expect((await call(w.stranger, 'POST', '/prospect/list/export', { list_id: listId })).status).toBe(404);
      const dl = await call(w.owner, 'POST', '/prospect/download', { person_ids: members.slice(0, 3), file_type: 'xlsx' });
      expect(dl.status).toBe(200);
      expect((await call(w.owner, 'GET', '/prospect/recent_activities')).body.data.items.length).toBeGreaterThan(0);
    });

    it("a list's enrichment waiting for its suspended organisation says why on the list's details, and no longer once restored", async () => {
      const members = pick((p) => p.email!.split('@')[1] !== 'greylist.test', 2).map((p) => w.idOf.get(p.external_id)!);
      const listId = (await call(w.owner, 'POST', '/prospect/search/add_profiles', { list_name: 'Paused', person_ids: members })).body.data.list.id as string;
      const run = await call(w.owner, 'POST', '/prospect/list/enrich', { list_id: listId, options: { emails: 'all', phones: 'all' } });
      expect(run.body.data.state).toBe('queued');
      await w.t.db.db.update(organisations).set({ suspendedAt: new Date() }).where(eq(organisations.id, w.owner.orgId));
      try {
        // (the owner's own session is refused while suspended: the view the details answer, read directly)
        expect(await latestListRequest(w.t.db.db, listId)).toMatchObject({ request_id: run.body.data.request_id, paused_reason: expect.stringContaining('the organisation is suspended') });
      } finally {
        await w.t.db.db.update(organisations).set({ suspendedAt: null }).where(eq(organisations.id, w.owner.orgId));
      }
      const details = await call(w.owner, 'GET', `/prospect/list/details?list_id=${listId}`);
      expect(details.body.data.enrichment).toMatchObject({ request_id: run.body.data.request_id, paused_reason: null });
      expect((await call(w.owner, 'POST', '/prospect/list/enrich', { list_id: listId, cancel: true })).body.data.state).toBe('cancelled');
      await w.t.deps.queue.runUntilIdle();
    });

    it('checks addresses within the request: a greylisting host is not waited for, nothing unconfirmed is charged, a list waits', async () => {
      const ndjson = [
        ['gina', 'Gina', 'Now', GREYLISTED[0]],
        ['greg', 'Greg', 'Later', GREYLISTED[1]],
      ].map(([key, first, last, email]) => JSON.stringify({ record: 'person', external_id: `grey-${key}`, first_name: first, last_name: last, title: 'CTO', seniority: 'c_suite', department: 'engineering', country: 'US', email }));
      await importDirectory(w.t.deps.database, Readable.from([ndjson.join('\n')]), 'ndjson');
      const rows = await selectRows<{ id: string; external_id: string }>(w.t.db.db, sql`select id, external_id from directory_people where external_id like 'grey-%'`);
      const gina = rows.find((r) => r.external_id === 'grey-gina')!.id;
      const greg = rows.find((r) => r.external_id === 'grey-greg')!.id;
      const before = await getOrgBalance(w.t.db.db, w.owner.orgId);
      // In the request: the host's "try again later" is the answer (a thorough check would wait 400 ms and reveal it).
      const now = await call(w.owner, 'POST', '/prospect/enrich', { person_ids: [gina], options: { emails: 'all', phones: 'all' } });
      expect(now.status, JSON.stringify(now.body)).toBe(200);
      expect(now.body.data.results[0].email).toEqual({
        code: 'unverified',
        credits: 0,
        reason: 'The mail server asked to be checked again later (greylisting). Try again in a few minutes, or enrich the person in a list, which waits for it.',
      });
      expect(now.body.data.people[0]).toMatchObject({ email_revealed: false, email: expect.stringContaining('•••') });
      expect(now.body.data.request).toMatchObject({ state: 'completed', emails_revealed: 0, credits_charged: 0 });
      expect(await getOrgBalance(w.t.db.db, w.owner.orgId)).toBe(before);
      // A list's job waits greylisting out: revealed, and charged once.
      const list = await call(w.owner, 'POST', '/prospect/search/add_profiles', { list_name: 'Greylisted', person_ids: [greg] });
      const run = await call(w.owner, 'POST', '/prospect/list/enrich', { list_id: list.body.data.list.id, options: { emails: 'all', phones: 'all' } });
      await w.t.deps.queue.runUntilIdle();
      const done = await call(w.owner, 'GET', `/prospect/lead/enrich/status?request_id=${run.body.data.request_id}`);
      expect(done.body.data).toMatchObject({ state: 'completed', emails_revealed: 1, credits_charged: 1 });
      expect(before - (await getOrgBalance(w.t.db.db, w.owner.orgId))).toBe(1);
    });

    it('leaves an address unconfirmed within the time budget hidden and free, and stops when the request closes', async () => {
      await importDirectory(
        w.t.deps.database,
        Readable.from([JSON.stringify({ record: 'person', external_id: 'slow-1', first_name: 'Sam', last_name: 'Slow', title: 'CFO', seniority: 'c_suite', department: 'finance', country: 'US', email: 'sam@slowpoke.test', phone: '+14155550123', phone_type: 'mobile' })]),
        'ndjson',
      );
      const slow = (await selectRows<{ id: string }>(w.t.db.db, sql`select id from directory_people where external_id = 'slow-1'`))[0]!.id;
      // slowpoke.test waits 700 ms before each reply: its check (greeting, EHLO, MAIL, RCPT…) cannot finish within 200 ms.
      const ctx = { orgId: w.owner.orgId, userId: w.owner.userId, role: 'owner' as const, sessionId: null, via: 'session' as const };
      const verifier = w.t.deps.verifier;
      const before = await getOrgBalance(w.t.db.db, w.owner.orgId);
      const out = await enrichLeads(w.t.deps, verifier, ctx, [slow], { emails: 'all', phones: 'all' }, { budgetMs: 200 });
      expect(out.results[0]).toMatchObject({ email: { code: 'out_of_time', credits: 0 }, phone: { code: 'revealed', credits: 2 } });
      expect(out.results[0]!.email.reason).toMatch(/did not finish in the time this request allows/);
      expect(out.request).toMatchObject({ state: 'completed', emails_revealed: 0, phones_revealed: 1, credits_charged: 2 });
      expect(before - (await getOrgBalance(w.t.db.db, w.owner.orgId))).toBe(2);

      // The client goes away while the address is being checked: the request stops, cancelled, and charges nothing.
      const closed = new AbortController();
      const pending = enrichLeads(w.t.deps, verifier, ctx, [slow], { emails: 'all', phones: 'all' }, { closed: closed.signal });
      setTimeout(() => closed.abort(new Error('The client went away')), 100);
      await expect(pending).rejects.toThrow('The client went away');
      const last = await selectRows<{ state: string; error: string; credits_charged: number }>(
        w.t.db.db,
        sql`select state, error, credits_charged from prospect_enrich_requests where org_id = ${w.owner.orgId} and kind = 'lead' order by created_at desc limit 1`,
      );
      expect(last[0]).toMatchObject({ state: 'cancelled', credits_charged: 0 });
      expect(last[0]!.error).toMatch(/closed before it finished/);
      expect(before - (await getOrgBalance(w.t.db.db, w.owner.orgId))).toBe(2);
    });

    it('stops checking when the client closes POST /prospect/enrich', async () => {
      const slow = (await selectRows<{ id: string }>(w.t.db.db, sql`select id from directory_people where external_id = 'slow-1'`))[0]!.id;
      const address = await w.t.app.listen({ port: 0, host: '127.0.0.1' });
      const before = await getOrgBalance(w.t.db.db, w.owner.orgId);
      // slowpoke.test's check is still running when the client hangs up.
      await new Promise<void>((resolve) => {
        const req = request(`${address}/api/v1/prospect/enrich`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${w.owner.token}` } });
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
          const row = (await selectRows<{ state: string; error: string | null }>(w.t.db.db, sql`select state, error from prospect_enrich_requests where org_id = ${w.owner.orgId} and kind = 'lead' order by created_at desc limit 1`))[0];
          if (!row || row.state === 'in_progress') throw new Error(`the enrichment request is still ${row?.state ?? 'unrecorded'}`);
          return row;
        },
        { timeout: 20_000, interval: 50 },
      );
      expect(last).toMatchObject({ state: 'cancelled', error: expect.stringMatching(/closed before it finished/) });
      expect(await getOrgBalance(w.t.db.db, w.owner.orgId)).toBe(before);
    });

    it("uses the member's settings: the admin's prospect defaults, the member's own choice over them, and the block list", async () => {
      // People no earlier test revealed (the list test enriches the first 40).
      const late = w.people.slice(200);
      const personal = late.find((p) => p.mailbox_exists && p.email!.endsWith('@gmail.com') && !!p.phone)!;
      const id = w.idOf.get(personal.external_id)!;
      const admin = await call(w.owner, 'PUT', '/admin/settings/prospect', { person_enrich_settings: { emails: 'business_only', phones: 'no_phones' } });
      expect(admin.status, JSON.stringify(admin.body)).toBe(200);
      const before = await getOrgBalance(w.t.db.db, w.owner.orgId);
      // The Executive chose nothing: the organisation's defaults apply, and a personal address and a phone are left out.
      const inherited = await call(w.analyst, 'POST', '/prospect/enrich', { person_ids: [id] });
      expect(inherited.status, JSON.stringify(inherited.body)).toBe(200);
      expect(inherited.body.data.request).toMatchObject({ options: { emails: 'business_only', phones: 'no_phones' }, emails_revealed: 0, phones_revealed: 0, credits_charged: 0 });
      expect(inherited.body.data.results[0]).toMatchObject({ email: { code: 'excluded' }, phone: { code: 'excluded', reason: 'Your enrich options reveal no phone numbers.' } });
      expect(await getOrgBalance(w.t.db.db, w.owner.orgId)).toBe(before);
      // The same for a list the Executive enriches.
      const list = await call(w.analyst, 'POST', '/prospect/search/add_profiles', { list_name: 'Exec list', person_ids: [id] });
      const run = await call(w.analyst, 'POST', '/prospect/list/enrich', { list_id: list.body.data.list.id });
      expect(run.body.data.options).toEqual({ emails: 'business_only', phones: 'no_phones' });
      await w.t.deps.queue.runUntilIdle();
      expect((await call(w.analyst, 'GET', `/prospect/lead/enrich/status?request_id=${run.body.data.request_id}`)).body.data).toMatchObject({ state: 'completed', credits_charged: 0 });
      expect(await getOrgBalance(w.t.db.db, w.owner.orgId)).toBe(before);

      // The member's own choice wins over the default.
      const own = await call(w.analyst, 'PUT', '/user_preferences/prospect_settings/enrich', { person_enrich_settings: { emails: 'all', phones: 'no_phones' } });
      expect(own.status, JSON.stringify(own.body)).toBe(200);
      const mine = await call(w.analyst, 'POST', '/prospect/enrich', { person_ids: [id] });
      expect(mine.body.data.results[0]).toMatchObject({ email: { code: 'revealed', credits: 1 }, phone: { code: 'excluded' } });
      expect(before - (await getOrgBalance(w.t.db.db, w.owner.orgId))).toBe(1);
      await call(w.owner, 'PUT', '/admin/settings/prospect', { person_enrich_settings: { emails: 'all', phones: 'all' } });

      // The member's block list (e-mail verifier settings) keeps an address hidden and free.
      const blocked = late.find((p) => p.mailbox_exists && strictDomains.has(p.email!.split('@')[1]!))!;
      const block = await call(w.owner, 'PUT', '/user_preferences/email_verification_settings/wb_list', { action: 'add', list_type: 'block', entries: [blocked.email] });
      expect(block.status, JSON.stringify(block.body)).toBe(200);
      const refused = await call(w.owner, 'POST', '/prospect/enrich', { person_ids: [w.idOf.get(blocked.external_id)], options: { emails: 'all', phones: 'no_phones' } });
      expect(refused.body.data.results[0].email).toEqual({ code: 'undeliverable', credits: 0, reason: 'The address or its domain is on your block list.' });
      await call(w.owner, 'PUT', '/user_preferences/email_verification_settings/wb_list', { action: 'remove', list_type: 'block', entries: [blocked.email] });
    });
  });

});
