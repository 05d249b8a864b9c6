import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZKeepVerifiedResponse, ZListSyncResponse } from '@verilead/contracts';
import { creditTransactions } from '../../platform/credits/tables';
import { MAINTENANCE_JOB } from '../../platform/jobs/maintenance';
import { verifyListEmails, verifyListRuns } from '../email-verifier/tables';
import { POLL_INTERVAL_MS } from './list-sync';
import { connectBody, createIntegrationWorld, runImport, topUp, type TIntegrationWorld } from './test-support';

const MEMBERS = 10; // pages of 7: two pages; members 1, 6 are missing@strict.test (invalid), the rest catch-all
const DAY = 86_400_000;

describe('a platform list kept verified (Mailchimp fake)', () => {
  let world: TIntegrationWorld;
  let now = new Date();
  let owner: { token: string; orgId: string; userId: string };
  let other: { token: string; orgId: string; userId: string };
  let listId: string;
  let importId: string;

  const call = (u: { token: string }, method: 'GET' | 'PUT' | 'POST', url: string, payload?: Record<string, unknown>) =>
    world.w.t.call({ method, url: `/api/v1${url}`, token: u.token, ...(payload ? { payload } : {}) });
  const charges = (reason: string) =>
    world.w.t.db.db.select().from(creditTransactions).where(and(eq(creditTransactions.orgId, owner.orgId), eq(creditTransactions.reason, reason)));
  const rows = () => world.w.t.db.db.select().from(verifyListEmails).where(eq(verifyListEmails.listId, listId)).orderBy(verifyListEmails.rowNumber);
  async function tick(at: Date) {
    now = at;
    await world.w.t.deps.queue.enqueue(MAINTENANCE_JOB, {});
    for (let i = 0; i < 5; i += 1) await world.w.t.deps.queue.runUntilIdle({ includeDelayed: true, maxJobs: 200 });
  }

  beforeAll(async () => {
    world = await createIntegrationWorld(MEMBERS, {}, {}, () => now);
    owner = await world.w.t.createOwner('owner@list-sync.test');
    other = await world.w.t.createOwner('other@list-sync.test');
    await topUp(world.w, owner.orgId, 1_000);
    // A year of results (the default 90 days of data retention would delete them before the moved clock's runs).
    expect((await call(owner, 'PUT', '/user_preferences/data_retention', { file_retention_days: 90, result_retention_days: 365 })).status).toBe(200);
    const fake = world.fakes.mailchimp!;
    const acc = await call(owner, 'POST', '/integration/account/mailchimp', connectBody('mailchimp', fake, 'Main'));
    expect(acc.status, JSON.stringify(acc.body)).toBe(200);
    const accountId = acc.body.data.id as string;
    const start = await call(owner, 'POST', '/integration/account/mailchimp/verify_list', { account_id: accountId, list_id: 'list-a', write_back: { unsubscribe: true, append: true } });
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    const row = await runImport(world, start.body.data.id);
    expect(row.state).toBe('completed');
    listId = row.verifyListId;
    importId = row.id;
  });
  afterAll(async () => {
    await world?.close();
  });

  it('re-verifies the aged rows on schedule and writes only the changes back to the platform', async () => {
    const fake = world.fakes.mailchimp!;
    const members = fake.seed.lists[0]!.members;
    // Rows 1 (missing0@strict.test) and 2 (someone1@acceptall.test) were "valid" 100 days ago; row 3 is aged but unchanged.
    const old = new Date(now.getTime() - 100 * DAY).toISOString();
    await world.w.t.db.db.execute(sql`update verify_list_emails set verified_at = ${old}::timestamptz, status = 'valid', result = jsonb_set(result, '{status}', '"valid"') where list_id = ${listId}::uuid and row_number in (1, 2)`);
    await world.w.t.db.db.execute(sql`update verify_list_emails set verified_at = ${old}::timestamptz where list_id = ${listId}::uuid and row_number = 3`);
    const priced = ZKeepVerifiedResponse.parse((await call(owner, 'GET', `/email_verify/list/keep_verified?list_id=${listId}&schedule=monthly&age_days=60`)).body).data;
    expect(priced.cost_per_run).toBe(3);
    const on = await call(owner, 'PUT', '/email_verify/list/keep_verified', { list_id: listId, schedule: 'monthly', age_days: 60, accepted_cost_per_run: 3 });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    fake.writes.length = 0;

    await tick(new Date(Date.parse(on.body.data.next_run_at) + 1_000));
    const run = (await world.w.t.db.db.select().from(verifyListRuns).where(and(eq(verifyListRuns.listId, listId), eq(verifyListRuns.kind, 'scheduled'))))[0]!;
    expect(run).toMatchObject({ state: 'completed', rechecked: 3, charged: 3, changed: 2 });
    expect(run.transitions).toEqual({ 'valid>invalid': 1, 'valid>catch_all': 1, 'catch_all>catch_all': 1 });
    expect(await charges('List re-verification')).toHaveLength(3);
    // Only the two changed members were written back, as the import's write-back writes: the undeliverable one unsubscribed.
    const fields = fake.writes.filter((w) => w.kind === 'fields');
    // (Mailchimp names a member by the hash of its address: the writes are matched by address.)
    expect(fields.map((w) => w.email).sort()).toEqual([members[0]!.email, members[1]!.email].sort());
    expect(JSON.stringify(fields.find((w) => w.email === members[0]!.email)!.data)).toContain('invalid');
    expect(fake.writes.filter((w) => w.kind === 'unsubscribe').map((w) => w.email)).toEqual([members[0]!.email]);
  });

  it('verifies a contact added on the platform without a user action, charged once, and writes its result back', async () => {
    const fake = world.fakes.mailchimp!;
    expect((await call(other, 'GET', `/integration/list_sync?list_id=${listId}`)).status).toBe(404);
    expect((await call(other, 'PUT', '/integration/list_sync', { list_id: listId, auto_verify: true, accepted_cost_per_contact: 1 })).status).toBe(404);
    const shown = ZListSyncResponse.parse((await call(owner, 'GET', `/integration/list_sync?list_id=${listId}`)).body).data;
    expect(shown).toMatchObject({ from_platform: true, import_id: importId, platform: 'Mailchimp', auto_verify: false, cost_per_contact: 1 });
    const unconfirmed = await call(owner, 'PUT', '/integration/list_sync', { list_id: listId, auto_verify: true });
    expect(unconfirmed.status).toBe(400);
    expect(JSON.stringify(unconfirmed.body.error)).toContain('Confirm the cost per new contact');
    const on = await call(owner, 'PUT', '/integration/list_sync', { list_id: listId, auto_verify: true, accepted_cost_per_contact: 1 });
    expect(on.body.data.auto_verify).toBe(true);

    // Two contacts join the platform list, one of them a mailbox that does not exist.
    fake.seed.lists[0]!.members.push(
      { id: 'new-1', email: 'missing900@strict.test', firstName: 'New', lastName: 'One' },
      { id: 'new-2', email: 'someone900@acceptall.test', firstName: 'New', lastName: 'Two' },
    );
    fake.writes.length = 0;
    await tick(new Date(now.getTime() + 1_000));
    const after = await rows();
    expect(after.slice(MEMBERS).map((r) => [r.rowNumber, r.email, r.kind, r.status])).toEqual([
      [11, 'missing900@strict.test', 'unique', 'invalid'],
      [12, 'someone900@acceptall.test', 'unique', 'catch_all'],
    ]);
    expect((await charges('New contact verification')).map((c) => c.objectId!.split(':')[1]).sort()).toEqual(['11', '12']);
    const fields = fake.writes.filter((w) => w.kind === 'fields');
    expect(fields.map((w) => w.email).sort()).toEqual(['missing900@strict.test', 'someone900@acceptall.test']);
    expect(fake.writes.filter((w) => w.kind === 'unsubscribe').map((w) => w.email)).toEqual(['missing900@strict.test']);
    expect(ZListSyncResponse.parse((await call(owner, 'GET', `/integration/list_sync?list_id=${listId}`)).body).data).toMatchObject({ added: 2, last_error: null });

    // The next poll finds nothing new: nothing appended, nothing charged again.
    await tick(new Date(now.getTime() + POLL_INTERVAL_MS + 1_000));
    expect(await rows()).toHaveLength(MEMBERS + 2);
    expect(await charges('New contact verification')).toHaveLength(2);
  });
  it('does not poll while the organisation is suspended (nothing charged), and picks the new contact up once restored', async () => {
    const fake = world.fakes.mailchimp!;
    fake.seed.lists[0]!.members.push({ id: 'new-3', email: 'missing901@strict.test', firstName: 'New', lastName: 'Three' });
    await world.w.t.db.db.execute(sql`update organisations set suspended_at = now() where id = ${owner.orgId}::uuid`);
    await tick(new Date(now.getTime() + POLL_INTERVAL_MS + 1_000));
    expect(await rows()).toHaveLength(MEMBERS + 2);
    expect(await charges('New contact verification')).toHaveLength(2);
    await world.w.t.db.db.execute(sql`update organisations set suspended_at = null where id = ${owner.orgId}::uuid`);
    await tick(new Date(now.getTime() + 1_000));
    expect((await rows()).slice(MEMBERS + 2).map((r) => [r.rowNumber, r.email, r.status])).toEqual([[13, 'missing901@strict.test', 'invalid']]);
    expect(await charges('New contact verification')).toHaveLength(3);
  });
});
