import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZKeepVerifiedResponse, ZReverifyChangesResponse } from '@verilead/contracts';
import { chargeCredits, getOrgBalance, grantCredits } from '../../platform/credits/ledger';
import { creditTransactions } from '../../platform/credits/tables';
import { MAINTENANCE_JOB } from '../../platform/jobs/maintenance';
import { activities } from '../activities/tables';
import { queueDueReverifyRuns } from './reverify-schedule';
import { runReverify } from './reverify-run-job';
import { verifyListEmails, verifyListRuns, verifyLists } from './tables';
import { buildMultipart, createWorldApp, type TWorldApp } from './test-support';

type TUser = { token: string; orgId: string; userId: string };
const DAY = 86_400_000;

// The addresses of the mail world: `alice` and `john.smith` are real mailboxes of strict.test, `nobody*` are not.
const VALID = ['alice@strict.test', 'john.smith@strict.test'];
const INVALID = ['nobody1@strict.test', 'nobody2@strict.test', 'nobody3@strict.test', 'nobody4@strict.test'];

describe('lists that stay verified (scheduled re-verification on an injected clock)', () => {
  let w: TWorldApp;
  let now = new Date();
  let owner: TUser;
  let other: TUser;

  const call = (u: TUser, method: 'GET' | 'PUT' | 'POST', url: string, payload?: Record<string, unknown>) =>
    w.t.call({ method, url: `/api/v1${url}`, token: u.token, ...(payload ? { payload } : {}) });
  const rowsOf = (listId: string) => w.t.db.db.select().from(verifyListEmails).where(eq(verifyListEmails.listId, listId)).orderBy(verifyListEmails.rowNumber);
  const runCharges = (orgId: string) =>
    w.t.db.db.select().from(creditTransactions).where(and(eq(creditTransactions.orgId, orgId), eq(creditTransactions.reason, 'List re-verification')));

  /** Uploads and verifies a list of `emails`, then ages every result to `ageDays` days before the clock, marking `falselyValid` valid. */
  async function verifiedList(u: TUser, name: string, emails: string[]): Promise<string> {
    const mp = buildMultipart(`${name}.csv`, ['email', ...emails].join('\n'));
    const up = await w.t.call({ method: 'POST', url: '/api/v1/email_verify/bulk_upload', token: u.token, payload: mp.payload, headers: mp.headers });
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    await w.t.deps.queue.runUntilIdle();
    const v = await call(u, 'POST', '/email_verify/list/verify', { list_id: up.body.data.id });
    expect(v.status, JSON.stringify(v.body)).toBe(200);
    await w.t.deps.queue.runUntilIdle();
    return up.body.data.id as string;
  }

  /** Pretends row results were stored `days` days before the clock (and, for `asValid` rows, that they were valid then). */
  async function age(listId: string, rows: number[], days: number, asValid = false) {
    const at = new Date(now.getTime() - days * DAY).toISOString();
    await w.t.db.db.execute(
      sql`update verify_list_emails set verified_at = ${at}::timestamptz${asValid ? sql`, status = 'valid', result = jsonb_set(result, '{status}', '"valid"')` : sql``}
          where list_id = ${listId}::uuid and row_number in ${rows}`,
    );
    // The list's counters say what its rows say (the rows made valid were invalid).
    if (asValid) {
      await w.t.db.db.execute(
        sql`update verify_lists set counters = counters || jsonb_build_object('valid', (counters->>'valid')::int + ${rows.length}, 'invalid', (counters->>'invalid')::int - ${rows.length}) where id = ${listId}::uuid`,
      );
    }
  }

  async function keepVerified(u: TUser, listId: string, schedule: 'monthly' | 'quarterly', ageDays: number) {
    const priced = ZKeepVerifiedResponse.parse((await call(u, 'GET', `/email_verify/list/keep_verified?list_id=${listId}&schedule=${schedule}&age_days=${ageDays}`)).body).data;
    const on = await call(u, 'PUT', '/email_verify/list/keep_verified', { list_id: listId, schedule, age_days: ageDays, accepted_cost_per_run: priced.cost_per_run });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    return ZKeepVerifiedResponse.parse(on.body).data;
  }

  /** Keeps results a year (the default 90 days of data retention would delete a list's results before a quarterly run). */
  async function keepResultsAYear(u: TUser) {
    const res = await call(u, 'PUT', '/user_preferences/data_retention', { file_retention_days: 90, result_retention_days: 365 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }

  /** Moves the clock to `at` and runs the maintenance job (the scheduler) and everything it queued. */
  async function tick(at: Date) {
    now = at;
    await w.t.deps.queue.enqueue(MAINTENANCE_JOB, {});
    await w.t.deps.queue.runUntilIdle();
  }

  beforeAll(async () => {
    w = await createWorldApp(undefined, {}, { clock: () => now });
    owner = await w.t.createOwner('owner@reverify.test');
    other = await w.t.createOwner('other@reverify.test');
    await w.t.db.transaction((tx) => grantCredits(tx, { orgId: owner.orgId, amount: 1_000, reason: 'Test top-up' }));
    await keepResultsAYear(owner);
  });
  afterAll(async () => {
    await w?.close();
  });

  it('validates the schedule with readable messages and walls the list off from another organisation', async () => {
    const listId = await verifiedList(owner, 'walled', VALID);
    const bad = await call(owner, 'PUT', '/email_verify/list/keep_verified', { list_id: listId, schedule: 'weekly', accepted_cost_per_run: 0 });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body.error)).toContain('schedule must be one of off, monthly or quarterly');
    const noAge = await call(owner, 'PUT', '/email_verify/list/keep_verified', { list_id: listId, schedule: 'monthly', age_days: 0, accepted_cost_per_run: 0 });
    expect(JSON.stringify(noAge.body.error)).toContain('age_days must be at least 1');
    const unconfirmed = await call(owner, 'PUT', '/email_verify/list/keep_verified', { list_id: listId, schedule: 'monthly' });
    expect(unconfirmed.status).toBe(400);
    expect(JSON.stringify(unconfirmed.body.error)).toContain('Confirm the cost per run');
    for (const [method, url, body] of [
      ['GET', `/email_verify/list/keep_verified?list_id=${listId}`, undefined],
      ['PUT', '/email_verify/list/keep_verified', { list_id: listId, schedule: 'off' }],
      ['GET', `/email_verify/list/keep_verified/changes?list_id=${listId}&run_id=${listId}`, undefined],
    ] as const) {
      const res = await call(other, method, url, body);
      expect(res.status, `${method} ${url}`).toBe(404);
    }
    expect(await w.t.db.db.select().from(verifyListRuns).where(eq(verifyListRuns.listId, listId))).toEqual([]);
  });

  it('shows the cost per run before the schedule is on and refuses a cost that grew since', async () => {
    const listId = await verifiedList(owner, 'priced', [...VALID, ...INVALID]);
    await age(listId, [1, 2, 3], 70);
    const priced = ZKeepVerifiedResponse.parse((await call(owner, 'GET', `/email_verify/list/keep_verified?list_id=${listId}&schedule=monthly&age_days=60`)).body).data;
    // The rows aged 70 days are older than 60 days at the next run (now: their period is past); the others are fresh.
    expect(priced).toMatchObject({ schedule: 'monthly', age_days: 60, cost_per_run: 3, available: true, confirmed_cost_per_run: null });
    const stale = await call(owner, 'PUT', '/email_verify/list/keep_verified', { list_id: listId, schedule: 'monthly', age_days: 60, accepted_cost_per_run: 2 });
    expect(stale.status).toBe(409);
    expect(stale.body.error.message).toBe('A run now costs up to 3 credits, not 2: confirm the new cost to turn the schedule on');
    const on = await keepVerified(owner, listId, 'monthly', 60);
    expect(on).toMatchObject({ schedule: 'monthly', confirmed_cost_per_run: 3 });
    expect(on.next_run_at).not.toBeNull();
    const off = await call(owner, 'PUT', '/email_verify/list/keep_verified', { list_id: listId, schedule: 'off' });
    expect(off.body.data).toMatchObject({ schedule: 'off', next_run_at: null, confirmed_cost_per_run: null });
  });

  it('re-checks and charges only the aged addresses when due, and shows what changed', async () => {
    const listId = await verifiedList(owner, 'kept', [...VALID, ...INVALID]);
    // Rows 3–5 (nobody1..3, really invalid) were "valid" 100 days ago; row 1 (alice) is aged too; rows 2 and 6 are fresh.
    await age(listId, [3, 4, 5], 100, true);
    await age(listId, [1], 100);
    // The first run is three months after the list's verification: then the fresh rows are about 90 days old, the aged ones 190.
    const on = await keepVerified(owner, listId, 'quarterly', 120);
    expect(on.cost_per_run).toBe(4);
    const before = await rowsOf(listId);
    const balance = await getOrgBalance(w.t.db.db, owner.orgId);

    // Not due yet: nothing happens.
    await tick(new Date(Date.parse(on.next_run_at!) - 60_000));
    expect(await w.t.db.db.select().from(verifyListRuns).where(eq(verifyListRuns.listId, listId))).toEqual([]);

    await tick(new Date(Date.parse(on.next_run_at!) + 60_000));
    const runs = await w.t.db.db.select().from(verifyListRuns).where(eq(verifyListRuns.listId, listId));
    expect(runs.map((r) => ({ state: r.state, planned: r.planned, rechecked: r.rechecked, charged: r.charged, changed: r.changed }))).toEqual([
      { state: 'completed', planned: 4, rechecked: 4, charged: 4, changed: 3 },
    ]);
    expect(runs[0]!.transitions).toEqual({ 'valid>invalid': 3, 'valid>valid': 1 });
    // Exactly the aged rows were charged, once each, and the balance moved by as much.
    const charges = await runCharges(owner.orgId);
    expect(charges.map((c) => c.objectId).sort()).toEqual([1, 3, 4, 5].map((n) => `${listId}:${n}:${runs[0]!.id}`).sort());
    expect(await getOrgBalance(w.t.db.db, owner.orgId)).toBe(balance - 4);
    const after = await rowsOf(listId);
    expect(after.map((r) => r.status)).toEqual(['valid', 'valid', 'invalid', 'invalid', 'invalid', 'invalid']);
    // The fresh rows kept their result and time.
    expect(after[1]!.verifiedAt).toEqual(before[1]!.verifiedAt);
    expect(after[5]!.verifiedAt).toEqual(before[5]!.verifiedAt);

    // The list shows the run and its changes; the filter answers the changed rows with their previous result.
    const kv = ZKeepVerifiedResponse.parse((await call(owner, 'GET', `/email_verify/list/keep_verified?list_id=${listId}`)).body).data;
    expect(kv.runs[0]).toMatchObject({ state: 'completed', rechecked: 4, changed: 3, transitions: [{ from: 'valid', to: 'invalid', count: 3 }, { from: 'valid', to: 'valid', count: 1 }] });
    expect(kv.last_run_at).not.toBeNull();
    const changes = ZReverifyChangesResponse.parse((await call(owner, 'GET', `/email_verify/list/keep_verified/changes?list_id=${listId}&run_id=${runs[0]!.id}`)).body).data;
    expect(changes.total).toBe(3);
    expect(changes.rows.map((r) => [r.email, r.previous_status, r.status])).toEqual(INVALID.slice(0, 3).map((e) => [e, 'valid', 'invalid']));
    // The list's counters moved from the old results to the new ones.
    const [list] = await w.t.db.db.select().from(verifyLists).where(eq(verifyLists.id, listId));
    expect(list!.counters).toMatchObject({ verified: 6, valid: 2, invalid: 4 });

    // The same run again (a retried job), and the scheduler again at the same time: nothing more is charged.
    await runReverify({ database: w.t.deps.database, queue: w.t.deps.queue, clock: () => now }, w.t.deps.verifier, {}, runs[0]!.id, { isCancelled: async () => false });
    await tick(now);
    expect(await runCharges(owner.orgId)).toHaveLength(4);
    expect(await w.t.db.db.select().from(verifyListRuns).where(eq(verifyListRuns.listId, listId))).toHaveLength(1);
  });

  it('queues a due run once with two schedulers at the same time, and its job twice charges once', async () => {
    const listId = await verifiedList(owner, 'twice', [...VALID, ...INVALID]);
    await age(listId, [1, 2, 3, 4, 5, 6], 40);
    const on = await keepVerified(owner, listId, 'monthly', 30);
    expect(on.cost_per_run).toBe(6);
    now = new Date(Date.parse(on.next_run_at!) + 1_000);
    const [a, b] = await Promise.all([queueDueReverifyRuns(w.t.deps, now), queueDueReverifyRuns(w.t.deps, now)]);
    expect(a.queued + b.queued).toBe(1);
    const runs = await w.t.db.db.select().from(verifyListRuns).where(eq(verifyListRuns.listId, listId));
    expect(runs).toHaveLength(1);
    // Two workers run the same run at once: every aged row is re-checked and charged exactly once.
    const deps = { database: w.t.deps.database, queue: w.t.deps.queue, clock: () => now };
    const job = { isCancelled: async () => false };
    await Promise.all([runReverify(deps, w.t.deps.verifier, {}, runs[0]!.id, job), runReverify(deps, w.t.deps.verifier, {}, runs[0]!.id, job)]);
    await w.t.deps.queue.runUntilIdle();
    const charged = (await runCharges(owner.orgId)).filter((c) => c.objectId!.startsWith(listId));
    expect(charged).toHaveLength(6);
    expect(new Set(charged.map((c) => c.objectId)).size).toBe(6);
    const done = (await w.t.db.db.select().from(verifyListRuns).where(eq(verifyListRuns.id, runs[0]!.id)))[0]!;
    expect(done).toMatchObject({ state: 'completed', rechecked: 6, charged: 6 });
  });

  it('skips a due run the organisation cannot pay, with the reason on the list and in Activities, charging nothing', async () => {
    const poor = await w.t.createOwner('poor@reverify.test');
    await w.t.db.transaction((tx) => grantCredits(tx, { orgId: poor.orgId, amount: 50, reason: 'Test top-up' }));
    await keepResultsAYear(poor);
    const listId = await verifiedList(poor, 'poor', [...VALID, ...INVALID]);
    await age(listId, [1, 2, 3, 4, 5, 6], 100);
    const on = await keepVerified(poor, listId, 'monthly', 30);
    const balance = await getOrgBalance(w.t.db.db, poor.orgId);
    await w.t.db.transaction((tx) => chargeCredits(tx, { orgId: poor.orgId, amount: balance - 2, reason: 'drain' }));
    await tick(new Date(Date.parse(on.next_run_at!) + 1_000));
    const kv = ZKeepVerifiedResponse.parse((await call(poor, 'GET', `/email_verify/list/keep_verified?list_id=${listId}`)).body).data;
    expect(kv.skipped_reason).toBe('Skipped: not enough credits (this run needs up to 6 credits, the organisation has 2)');
    expect(kv.runs[0]).toMatchObject({ state: 'skipped', rechecked: 0, charged: 0, reason: kv.skipped_reason });
    expect(await getOrgBalance(w.t.db.db, poor.orgId)).toBe(2);
    expect(await runCharges(poor.orgId)).toEqual([]);
    const acts = await w.t.db.db.select().from(activities).where(and(eq(activities.orgId, poor.orgId), eq(activities.type, 'failed')));
    expect(acts.map((a) => a.description)).toEqual([`Re-verifying the list "poor" did not run: ${kv.skipped_reason}`]);
    // The schedule stays on: the next run is a period later.
    expect(Date.parse(kv.next_run_at!)).toBeGreaterThan(now.getTime());
  });
  it("waits while the organisation is suspended: no run, no charge; restored, the due run goes once", async () => {
    const held = await w.t.createOwner('held@reverify.test');
    await w.t.db.transaction((tx) => grantCredits(tx, { orgId: held.orgId, amount: 100, reason: 'Test top-up' }));
    await keepResultsAYear(held);
    const listId = await verifiedList(held, 'held', [...VALID, ...INVALID]);
    await age(listId, [1, 2, 3, 4, 5, 6], 40);
    const on = await keepVerified(held, listId, 'monthly', 30);
    await w.t.db.db.execute(sql`update organisations set suspended_at = now() where id = ${held.orgId}::uuid`);
    await tick(new Date(Date.parse(on.next_run_at!) + 1_000));
    expect(await w.t.db.db.select().from(verifyListRuns).where(eq(verifyListRuns.listId, listId))).toEqual([]);
    expect(await runCharges(held.orgId)).toEqual([]);
    await w.t.db.db.execute(sql`update organisations set suspended_at = null where id = ${held.orgId}::uuid`);
    await tick(new Date(now.getTime() + 60_000));
    const runs = await w.t.db.db.select().from(verifyListRuns).where(eq(verifyListRuns.listId, listId));
    expect(runs.map((r) => r.state)).toEqual(['completed']);
    expect(await runCharges(held.orgId)).toHaveLength(6);
  });
});
