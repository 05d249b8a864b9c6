import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJobActivityStatusLabel, ZActivitiesResponse, type TActivity } from '@verilead/contracts';
import { TEST_PASSWORD } from '../../test/test-app';
import { inviteMember } from '../auth/service';
import { buildMultipart, createWorldApp, type TWorldApp } from '../email-verifier/test-support';
import { startMailchimpFake, type TFakePlatform } from '@verilead/test-doubles/platforms';
import { connectBody, makeSeed } from '../integrations/test-support';
import { seedDirectory } from '../prospects/directory-import';

type TUser = { token: string; userId: string; orgId: string };

describe('activities: every job kind queued, in progress and in history', () => {
  let w: TWorldApp;
  let mailchimp: TFakePlatform;
  let owner: TUser;
  let exec: TUser;
  let stranger: TUser;

  const call = (user: TUser, url: string, payload: Record<string, unknown> = {}) => w.t.call({ method: 'POST', url: `/api/v1${url}`, token: user.token, payload });
  const run = (statement: ReturnType<typeof sql>) => w.t.db.db.execute(statement);

  async function activities(user: TUser, payload: Record<string, unknown> = {}): Promise<TActivity[]> {
    const res = await call(user, '/user/activities', { limit: 100, ...payload });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return ZActivitiesResponse.parse(res.body).data.items;
  }

  /** The activities about one object (a list, download, request or import id in the metadata), newest first. */
  async function about(user: TUser, id: string): Promise<TActivity[]> {
    return (await activities(user)).filter((a) => Object.values(a.metadata).includes(id));
  }

  /** Runs queued jobs one at a time until `done` holds (at most `max` jobs). */
  async function runUntil(done: () => Promise<boolean>, max = 50) {
    for (let i = 0; i < max && !(await done()); i += 1) {
      if (!(await w.t.deps.queue.runOnce({ includeDelayed: true }))) break;
    }
    expect(await done()).toBe(true);
  }

  async function uploadVerifierList(user: TUser, name: string): Promise<string> {
    const mp = buildMultipart(`${name}.csv`, 'email\nalice@strict.test\nbob@strict.test\ncarol@strict.test\n', { list_name: name });
    const res = await w.t.call({ method: 'POST', url: '/api/v1/email_verify/bulk_upload', token: user.token, payload: mp.payload, headers: mp.headers });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.id as string;
  }

  async function uploadFinderList(user: TUser, name: string, content: string): Promise<string> {
    const mp = buildMultipart(`${name}.csv`, content, { first_name_column: '0', last_name_column: '1', domain_column: '2', list_name: name });
    const res = await w.t.call({ method: 'POST', url: '/api/v1/email_finder/bulk_upload', token: user.token, payload: mp.payload, headers: mp.headers });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.id as string;
  }

  beforeAll(async () => {
    // A local Mailchimp (a list of 6 on the mail world's domains) and a small prospect directory, for syncs and enrichments.
    mailchimp = await startMailchimpFake(makeSeed('mailchimp', 6));
    w = await createWorldApp(undefined, { allowPrivateDestinations: true, integrationBaseUrls: { mailchimp: mailchimp.baseUrl } });
    await seedDirectory(w.t.deps.database, { companies: 4, people: 12, seed: 16 });
    owner = await w.t.createOwner('owner@activities.test', 'Olive Owner');
    stranger = await w.t.createOwner('stranger@activities.test');
    await inviteMember(w.t.deps, { ...owner, role: 'owner', sessionId: null, via: 'session' }, { email: 'exec@activities.test', name: 'Ed Exec', role: 'analyst' });
    const setup = await w.t.mailedToken('exec@activities.test', '/setup_password');
    await w.t.call({ method: 'POST', url: '/api/v1/user/password/setup', payload: { token: setup, password: TEST_PASSWORD } });
    const l = await w.t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email: 'exec@activities.test', password: TEST_PASSWORD } });
    exec = { token: l.body.data.token, userId: l.body.data.user.id, orgId: l.body.data.user.org_id };
  }, 60_000);

  afterAll(async () => {
    await w?.close();
    await mailchimp?.close();
  });

  it('a verifier list: analysis queued, analysing, analysed; verification queued, verifying with progress, verified', async () => {
    const listId = await uploadVerifierList(owner, 'activity-verify');
    const [queued] = await about(owner, listId);
    expect(queued).toMatchObject({ type: 'analyse', status: 'queued', progress: null, description: 'The list "activity-verify"' });
    expect(getJobActivityStatusLabel(queued!.type, queued!.status)).toBe('Analysis queued');
    // What the analysis job writes when it starts.
    await run(sql`update verify_lists set analysis_state = 'processing' where id = ${listId}`);
    expect((await about(owner, listId))[0]).toMatchObject({ type: 'analyse', status: 'in_progress' });
    await run(sql`update verify_lists set analysis_state = 'pending' where id = ${listId}`);
    await runUntil(async () => (await about(owner, listId)).some((a) => a.type === 'analyse' && a.status === 'completed'));
    const analysed = await about(owner, listId);
    expect(analysed).toHaveLength(1);
    expect(analysed[0]!.description).toBe('Analysed the list "activity-verify": 3 rows, 3 unique addresses');
    expect(getJobActivityStatusLabel('analyse', analysed[0]!.status)).toBe('Analysed');

    expect((await call(owner, '/email_verify/list/verify', { list_id: listId })).status).toBe(200);
    expect((await about(owner, listId))[0]).toMatchObject({ type: 'verify', status: 'queued', progress: null });
    // The plan job splits it into chunks: now it runs, with its progress.
    await runUntil(async () => (await about(owner, listId))[0]?.status !== 'queued');
    const running = (await about(owner, listId))[0]!;
    expect(running).toMatchObject({ type: 'verify', status: 'in_progress', progress: 0 });
    expect(getJobActivityStatusLabel(running.type, running.status)).toBe('Verifying');
    await w.t.deps.queue.runUntilIdle({ includeDelayed: true });
    const done = await about(owner, listId);
    expect(done.map((a) => [a.type, a.status])).toEqual([
      ['verify', 'completed'],
      ['analyse', 'completed'],
    ]);
    expect(getJobActivityStatusLabel('verify', 'completed')).toBe('Verified');
  }, 60_000);

  it('a cancelled verification is history as cancelled; an export is queued, exporting, then exported', async () => {
    const listId = await uploadVerifierList(owner, 'activity-cancel');
    await w.t.deps.queue.runUntilIdle();
    await call(owner, '/email_verify/list/verify', { list_id: listId });
    expect((await call(owner, '/email_verify/list/cancel', { list_id: listId })).status).toBe(200);
    const [cancelled] = await about(owner, listId);
    expect(cancelled).toMatchObject({ type: 'verify', status: 'cancelled' });
    expect(getJobActivityStatusLabel(cancelled!.type, cancelled!.status)).toBe('Verification cancelled');
    await w.t.deps.queue.runUntilIdle({ includeDelayed: true });

    const ex = await call(owner, '/email_verify/list/export', { list_id: listId });
    expect(ex.status, JSON.stringify(ex.body)).toBe(200);
    const downloadId = ex.body.data.queue_id as string;
    expect((await about(owner, downloadId))[0]).toMatchObject({ type: 'export', status: 'queued' });
    await run(sql`update downloads set state = 'processing', progress = 40 where id = ${downloadId}`);
    expect((await about(owner, downloadId))[0]).toMatchObject({ type: 'export', status: 'in_progress', progress: 40 });
    await run(sql`update downloads set state = 'queued', progress = 0 where id = ${downloadId}`);
    await w.t.deps.queue.runUntilIdle();
    expect((await about(owner, downloadId)).map((a) => [a.type, a.status])).toEqual([['export', 'completed']]);
  }, 60_000);

  it('a finder list: reading queued then read, the search queued, running, cancelled; an unreadable list fails', async () => {
    const listId = await uploadFinderList(owner, 'activity-finder', 'First,Last,Domain\nAnn,Lee,strict.test\nBo,Chan,strict.test\n');
    expect((await about(owner, listId))[0]).toMatchObject({ type: 'analyse', status: 'queued' });
    await runUntil(async () => (await about(owner, listId))[0]?.status === 'completed');
    expect((await about(owner, listId))[0]!.description).toBe('Read the finder list "activity-finder": 2 rows, 2 people to search');

    await call(owner, '/email_finder/list/find_emails', { list_id: listId });
    expect((await about(owner, listId))[0]).toMatchObject({ type: 'find_emails', status: 'queued' });
    expect(getJobActivityStatusLabel('find_emails', 'queued')).toBe('Email search queued');
    await runUntil(async () => (await about(owner, listId))[0]?.status !== 'queued');
    expect((await about(owner, listId))[0]).toMatchObject({ type: 'find_emails', status: 'in_progress', progress: 0 });
    await call(owner, '/email_finder/list/cancel', { list_id: listId });
    await w.t.deps.queue.runUntilIdle({ includeDelayed: true });
    expect((await about(owner, listId))[0]).toMatchObject({ type: 'find_emails', status: 'cancelled' });

    // 80 rows (more than the upload reads) where nobody has a domain: the reading job fails it.
    const bad = await uploadFinderList(owner, 'activity-unreadable', ['First,Last,Domain', ...Array.from({ length: 80 }, (_, i) => `Ann${i},Lee,`)].join('\n'));
    await w.t.deps.queue.runUntilIdle();
    const [failed] = await about(owner, bad);
    expect(failed).toMatchObject({ type: 'failed', status: 'failed', metadata: { job: 'analyse' } });
    expect(getJobActivityStatusLabel(failed!.type, failed!.status)).toBe('Failed');
  }, 60_000);

  it('enrichments and integration syncs show queued and in progress from their rows', async () => {
    const requestId = '00000000-0000-4000-8000-00000000e001';
    await run(sql`insert into prospect_enrich_requests (id, org_id, user_id, kind, state, options, total, processed)
                  values (${requestId}, ${owner.orgId}, ${owner.userId}, 'lead', 'queued', '{"phones":"none","emails":"all"}'::jsonb, 4, 0)`);
    expect((await about(owner, requestId))[0]).toMatchObject({ type: 'enrich', status: 'queued', progress: null });
    await run(sql`update prospect_enrich_requests set state = 'in_progress', processed = 1 where id = ${requestId}`);
    expect((await about(owner, requestId))[0]).toMatchObject({ type: 'enrich', status: 'in_progress', progress: 25 });
    expect(getJobActivityStatusLabel('enrich', 'in_progress')).toBe('Enriching');
    await run(sql`update prospect_enrich_requests set state = 'completed' where id = ${requestId}`);
    expect(await about(owner, requestId)).toEqual([]);

    const importId = '00000000-0000-4000-8000-00000000e002';
    await run(sql`insert into integration_imports (id, org_id, user_id, account_name, platform, remote_list_id, remote_list_name, remote_total, verify_list_id, write_back)
                  values (${importId}, ${owner.orgId}, ${owner.userId}, 'Main', 'mailchimp', 'l1', 'Newsletter', 200, gen_random_uuid(), '{}'::jsonb)`);
    expect((await about(owner, importId))[0]).toMatchObject({ type: 'sync', status: 'queued' });
    expect(getJobActivityStatusLabel('sync', 'queued')).toBe('Sync queued');
    await run(sql`update integration_imports set pages_done = 1, imported = 50 where id = ${importId}`);
    expect((await about(owner, importId))[0]).toMatchObject({ type: 'sync', status: 'in_progress', progress: 25 });
    await run(sql`update integration_imports set state = 'completed' where id = ${importId}`);
    expect(await about(owner, importId)).toEqual([]);
  });

  it('a finished integration sync and finished or cancelled enrichments are history, with their wording', async () => {
    const account = await call(owner, '/integration/account/mailchimp', connectBody('mailchimp', mailchimp, 'Main'));
    expect(account.status, JSON.stringify(account.body)).toBe(200);
    const lists = await w.t.call({ method: 'GET', url: `/api/v1/integration/account/mailchimp/${account.body.data.id}`, token: owner.token });
    const start = await call(owner, '/integration/account/mailchimp/verify_list', {
      account_id: account.body.data.id,
      list_id: lists.body.data.lists[0].id,
      write_back: { unsubscribe: false, append: true },
    });
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    const importId = start.body.data.id as string;
    expect((await about(owner, importId))[0]).toMatchObject({ type: 'sync', status: 'queued' });
    await runUntil(async () => (await about(owner, importId))[0]?.status === 'completed', 200);
    const synced = await about(owner, importId);
    // One row: the running entry made way for the history row.
    expect(synced).toHaveLength(1);
    expect(synced[0]).toMatchObject({ type: 'sync', status: 'completed', description: 'Synced "Newsletter" from Mailchimp: 6 contacts imported, 6 written back' });
    expect(getJobActivityStatusLabel(synced[0]!.type, synced[0]!.status)).toBe('Synced');

    const people = (await w.t.db.db.execute(sql`select id from directory_people order by id limit 5`)) as unknown as { rows: { id: string }[] };
    const ids = people.rows.map((r) => r.id);
    // Enriching chosen leads finishes inside the request.
    const now = await call(owner, '/prospect/enrich', { person_ids: ids.slice(0, 2), options: { emails: 'all', phones: 'no_phones' } });
    expect(now.status, JSON.stringify(now.body)).toBe(200);
    const leads = await about(owner, now.body.data.request.request_id);
    expect(leads).toHaveLength(1);
    expect(leads[0]).toMatchObject({ type: 'enrich', status: 'completed', description: 'Enriched 2 prospect(s)' });
    expect(getJobActivityStatusLabel(leads[0]!.type, leads[0]!.status)).toBe('Enriched');

    // A list enrichment: queued, then history once its job ran.
    const list = await call(owner, '/prospect/search/add_profiles', { list_name: 'Trade fair', person_ids: ids.slice(2, 5) });
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    const listId = list.body.data.list.id as string;
    const started = await call(owner, '/prospect/list/enrich', { list_id: listId, options: { emails: 'all', phones: 'no_phones' } });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const requestId = started.body.data.request_id as string;
    expect((await about(owner, requestId))[0]).toMatchObject({ type: 'enrich', status: 'queued' });
    await runUntil(async () => (await about(owner, requestId))[0]?.status === 'completed');
    const enriched = await about(owner, requestId);
    expect(enriched).toHaveLength(1);
    expect(enriched[0]).toMatchObject({ type: 'enrich', status: 'completed', description: 'Enriched the list "Trade fair"', metadata: { list_id: listId } });

    // Stopped before it ran: history says so.
    const again = await call(owner, '/prospect/list/enrich', { list_id: listId, options: { emails: 'all', phones: 'no_phones' } });
    const stopped = await call(owner, '/prospect/list/enrich', { list_id: listId, cancel: true });
    expect(stopped.status, JSON.stringify(stopped.body)).toBe(200);
    const cancelled = await about(owner, again.body.data.request_id);
    expect(cancelled).toHaveLength(1);
    expect(cancelled[0]).toMatchObject({ type: 'enrich', status: 'cancelled', description: 'Cancelled enriching the list "Trade fair": 0 of 3 leads done' });
    expect(getJobActivityStatusLabel(cancelled[0]!.type, cancelled[0]!.status)).toBe('Enrichment cancelled');
    await w.t.deps.queue.runUntilIdle({ includeDelayed: true });
    // None of it is another member's.
    expect(await about(exec, importId)).toEqual([]);
    expect(await about(exec, requestId)).toEqual([]);
  }, 120_000);

  it('running jobs stay the member’s own: another member and another organisation see none of them, and filters apply', async () => {
    const listId = await uploadVerifierList(owner, 'activity-scope');
    expect((await about(owner, listId))[0]).toMatchObject({ type: 'analyse', status: 'queued' });
    expect(await about(exec, listId)).toEqual([]);
    expect(await about(stranger, listId)).toEqual([]);
    // Running jobs are filtered by type like the history, and counted in the total.
    const onlyVerify = await activities(owner, { type: 'verify' });
    expect(onlyVerify.every((a) => a.type === 'verify')).toBe(true);
    const all = ZActivitiesResponse.parse((await call(owner, '/user/activities', { limit: 25 })).body).data;
    const page2 = ZActivitiesResponse.parse((await call(owner, '/user/activities', { limit: 25, page: 2 })).body).data;
    expect(all.items[0]).toMatchObject({ status: 'queued', metadata: { list_id: listId } });
    expect(all.total).toBe(page2.total);
    const ids = new Set([...all.items, ...page2.items].map((a) => a.id));
    expect(ids.size).toBe(Math.min(all.total, 50));
    await w.t.deps.queue.runUntilIdle();
  }, 60_000);
});

describe('date filters read plain dates as days in the caller’s time zone', () => {
  let w: TWorldApp;
  let user: TUser;
  // Around 10 March 2026: A and B are the 10th in Kolkata (UTC+5:30) but the 9th in New York (UTC-4);
  // C is the 10th in both; D is the 11th in Kolkata and the 10th in New York.
  const A = '2026-03-09T18:40:00.000Z';
  const B = '2026-03-10T03:30:00.000Z';
  const C = '2026-03-10T04:30:00.000Z';
  const D = '2026-03-10T20:00:00.000Z';
  const tenth = { from: '2026-03-10', to: '2026-03-10' };

  const setZone = async (timezone: string) => {
    expect((await w.t.call({ method: 'POST', url: '/api/v1/user/timezone/edit', token: user.token, payload: { timezone } })).status).toBe(200);
  };

  beforeAll(async () => {
    w = await createWorldApp();
    user = await w.t.createOwner('zones@activities.test');
    for (const [i, at] of [A, B, C, D].entries()) {
      await w.t.db.db.execute(sql`insert into activities (org_id, user_id, type, description, created_at) values (${user.orgId}, ${user.userId}, 'login', ${`login ${i}`}, ${at})`);
      await w.t.db.db.execute(
        sql`insert into credit_transactions (org_id, user_id, kind, amount, reason, balance_after, created_at)
            values (${user.orgId}, ${user.userId}, 'grant', ${i + 1}, ${`grant ${i}`}, 0, ${at})`,
      );
    }
    for (const [i, name] of ['Ann Lee', 'Bo Chan', 'Cy Diaz', 'Di Ng'].entries()) {
      const res = await w.t.call({ method: 'POST', url: '/api/v1/email_finder/instant', token: user.token, payload: { name, domain: 'strict.test' } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      await w.t.db.db.execute(sql`update finder_instant set created_at = ${[A, B, C, D][i]!} where org_id = ${user.orgId} and full_name = ${name}`);
    }
  }, 60_000);

  afterAll(async () => {
    await w?.close();
  });

  it('activities, the credits ledger and the finder history agree on the 10th in Kolkata and in New York', async () => {
    const seen = async () => {
      const acts = await w.t.call({ method: 'POST', url: '/api/v1/user/activities', token: user.token, payload: { ...tenth, type: 'login' } });
      const ledger = await w.t.call({ method: 'GET', url: `/api/v1/user/credits_and_limits/transactions?from=${tenth.from}&to=${tenth.to}&kind=grant`, token: user.token });
      const history = await w.t.call({ method: 'GET', url: `/api/v1/email_finder/history?from=${tenth.from}&to=${tenth.to}`, token: user.token });
      for (const r of [acts, ledger, history]) expect(r.status, JSON.stringify(r.body)).toBe(200);
      const times = (items: { created_at: string }[]) => items.map((i) => i.created_at).sort();
      return { activities: times(acts.body.data.items), ledger: times(ledger.body.data.items), history: times(history.body.data.items) };
    };
    await setZone('Asia/Kolkata');
    expect(await seen()).toEqual({ activities: [A, B, C], ledger: [A, B, C], history: [A, B, C] });
    await setZone('America/New_York');
    expect(await seen()).toEqual({ activities: [C, D], ledger: [C, D], history: [C, D] });
    // A date-time is taken as the instant it names, whatever the zone.
    const exact = await w.t.call({ method: 'POST', url: '/api/v1/user/activities', token: user.token, payload: { type: 'login', from: B, to: C } });
    expect(exact.body.data.items.map((i: { created_at: string }) => i.created_at).sort()).toEqual([B, C]);
  }, 60_000);
});
