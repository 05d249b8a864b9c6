import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { getOrgBalance, grantCredits } from '../../platform/credits/ledger';
import { creditTransactions } from '../../platform/credits/tables';
import { selectRows } from '../../platform/db/database';
import { createLateQueue } from '../../platform/jobs/late-queue';
import type { TVerifier } from '../../platform/verifier/verifier';
import { createTestQueue } from '../../test/test-queue';
import { createOperatorLink } from '../ops-console/operator-auth';
import { createEmailVerifierJobs } from './jobs';
import { getProgressStatus } from './list-lifecycle';
import { verifyListEmails, verifyLists } from './tables';
import { VERIFY_CHUNK_JOB } from './verify-list-job';
import { buildMultipart, createWorldApp, type TWorldApp } from './test-support';

/**
 * An operator suspends an organisation (or a member) while one of its lists is being verified: the list's jobs pause
 * (nothing more verified or charged, the list still in progress with its progress, showing why it waits), and once the
 * suspension is lifted the list goes on by itself and ends charged exactly once per billable address. PGlite, and
 * PostgreSQL when DATABASE_URL is set (the charge's check against a concurrent suspension holds there too).
 */
describe('bulk work of a suspended account', () => {
  let w: TWorldApp;
  let opToken: string;
  beforeAll(async () => {
    // generous timeouts: on a busy machine a mail host that seems slow would be answered unknown (not billed)
    w = await createWorldApp(undefined, { verifierConnectTimeoutMs: 10_000, verifierReplyTimeoutMs: 10_000 });
    const link = await createOperatorLink(w.t.deps, { email: 'ops@suspend.test', invitedBy: null });
    const token = new URL(link.url).searchParams.get('token')!;
    const set = await w.t.call({ method: 'POST', url: '/api/v1/ops/session/set_password', payload: { token, password: 'Operator-Pass-1' } });
    expect(set.status).toBe(200);
    opToken = set.body.data.token as string;
  });
  afterAll(async () => {
    await w?.close();
  });

  const ops = (url: string) => w.t.call({ method: 'POST', url: `/api/v1/ops${url}`, token: opToken, payload: {} });
  const bulkCharges = async (orgId: string, listId: string) =>
    w.t.db.db
      .select({ objectId: creditTransactions.objectId, n: sql<number>`count(*)::int` })
      .from(creditTransactions)
      .where(and(eq(creditTransactions.orgId, orgId), eq(creditTransactions.sourceAgent, 'bulk_verify'), sql`${creditTransactions.objectId} like ${`${listId}:%`}`))
      .groupBy(creditTransactions.objectId);
  const listRow = async (listId: string) => (await w.t.db.db.select().from(verifyLists).where(eq(verifyLists.id, listId)))[0]!;

  /**
   * Uploads a list as `token`'s member, starts it, and runs it on a worker whose engine lets `suspend` happen after
   * 150 answers (mid-chunk: some results stored and charged, the next batch verified but not yet charged). Answers
   * the list, the worker and how many answers the engine has given so far.
   */
  async function runUntilSuspended(token: string, orgId: string, suspend: () => Promise<void>, domain = 'acceptall.test') {
    await w.t.db.transaction((tx) => grantCredits(tx, { orgId, amount: 1_000, reason: 'Test top-up' }));
    const balance = await getOrgBalance(w.t.db.db, orgId);
    const addresses = Array.from({ length: 300 }, (_, i) => `someone${i}@${domain}`);
    const mp = buildMultipart('suspend.txt', addresses.join('\n'));
    const up = await w.t.call({ method: 'POST', url: '/api/v1/email_verify/bulk_upload', token, payload: mp.payload, headers: mp.headers });
    expect(up.status).toBe(200);
    const listId = up.body.data.id as string;
    await w.t.deps.queue.runUntilIdle();
    expect((await w.t.call({ method: 'POST', url: '/api/v1/email_verify/list/verify', token, payload: { list_id: listId } })).status).toBe(200);

    const real = w.t.deps.verifier;
    const seen = { answers: 0 };
    const suspending: TVerifier = {
      ...real,
      verifyMany: async function* (addrs, prefs) {
        for await (const r of real.verifyMany(addrs, prefs)) {
          if (seen.answers === 150) {
            // mid-chunk: once a first batch is stored and charged (it is stored in the background meanwhile)
            await vi.waitFor(async () => expect((await listRow(listId)).counters.verified).toBeGreaterThan(0), { timeout: 20_000, interval: 20 });
            await suspend();
          }
          seen.answers += 1;
          yield r;
        }
      },
    };
    const late = createLateQueue();
    const worker = createTestQueue(w.t.db, createEmailVerifierJobs({ ...w.t.deps, verifier: suspending, queue: late.queue }));
    late.bind(worker);
    // the plan, then the chunk: it runs until its first batch after the suspension is refused, and pauses
    await worker.runUntilIdle();
    return { listId, worker, seen, total: addresses.length, balance };
  }

  it('pauses a list of a suspended organisation, shows why, and finishes it once restored, charged once per address', async () => {
    const owner = await w.t.createOwner('owner@suspended-org.test');
    const ctx = { userId: owner.userId, orgId: owner.orgId, role: 'owner' as const, sessionId: null, via: 'session' as const };
    const { listId, worker, seen, total, balance } = await runUntilSuspended(owner.token, owner.orgId, async () => {
      expect((await ops(`/orgs/${owner.orgId}/suspend`)).status).toBe(200);
    });

    // Paused: in progress with its progress, what was charged before the suspension kept, nothing charged after it.
    const paused = await listRow(listId);
    expect(paused.state).toBe('in_progress');
    const stored = paused.counters.verified;
    expect(stored).toBeGreaterThan(0);
    expect(stored).toBeLessThan(total);
    const chargedWhilePaused = await bulkCharges(owner.orgId, listId);
    expect(chargedWhilePaused).toHaveLength(paused.counters.billable);
    expect(await getOrgBalance(w.t.db.db, owner.orgId)).toBe(balance - paused.counters.billable);
    const status = await getProgressStatus(w.t.db.db, ctx, listId);
    expect(status).toMatchObject({ state: 'in_progress', verified: stored, stopped_reason: null, paused_reason: expect.stringContaining('the organisation is suspended') });
    // its chunk job waits (queued, not failed)
    const chunkJob = await selectRows<{ id: string }>(w.t.db.db, sql`select id from job_status where name = ${VERIFY_CHUNK_JOB} and org_id = ${owner.orgId}::uuid`);
    const chunkId = chunkJob[0]!.id;
    expect((await worker.get(chunkId))?.state).toBe('queued');

    // Still suspended, the paused job taken again (its wait over) is not run: no mail server asked, nothing charged.
    const answersWhenPaused = seen.answers;
    await worker.runUntilIdle({ includeDelayed: true });
    expect(seen.answers).toBe(answersWhenPaused);
    expect(await bulkCharges(owner.orgId, listId)).toHaveLength(chargedWhilePaused.length);
    expect((await listRow(listId)).counters.verified).toBe(stored);
    expect((await worker.get(chunkId))?.state).toBe('queued');

    // Restored: the list goes on by itself (its paused job due at once) and ends charged exactly once per billable address.
    expect((await ops(`/orgs/${owner.orgId}/restore`)).status).toBe(200);
    await worker.runUntilIdle();
    const done = await listRow(listId);
    expect(done.state).toBe('verified');
    expect(done.counters.verified).toBe(total);
    const rows = await w.t.db.db.select().from(verifyListEmails).where(and(eq(verifyListEmails.listId, listId), eq(verifyListEmails.kind, 'unique')));
    const billable = rows.filter((r) => r.billable).length;
    // (on a busy machine a few answers may time out as unknown, which are not billed)
    expect(billable).toBe(done.counters.billable);
    const charged = await bulkCharges(owner.orgId, listId);
    expect(charged).toHaveLength(billable);
    expect(charged.every((c) => c.n === 1)).toBe(true);
    expect(await getOrgBalance(w.t.db.db, owner.orgId)).toBe(balance - billable);
    const shown = await w.t.call({ method: 'POST', url: '/api/v1/email_verify/list', token: owner.token, payload: { list_id: listId } });
    expect(shown.body.data.items[0]).toMatchObject({ state: 'verified', paused_reason: null });
  });

  it("pauses a suspended member's list (the owner sees why) and finishes it once the member is restored", async () => {
    const owner = await w.t.createOwner('owner@member-suspended.test');
    const add = await w.t.call({ method: 'POST', url: '/api/v1/admin/member/add', token: owner.token, payload: { email: 'member@member-suspended.test', role: 'analyst' } });
    expect(add.status).toBe(200);
    const setup = await w.t.mailedToken('member@member-suspended.test', '/setup_password');
    await w.t.call({ method: 'POST', url: '/api/v1/user/password/setup', payload: { token: setup, password: 'Member-Pass-42' } });
    const login = await w.t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email: 'member@member-suspended.test', password: 'Member-Pass-42' } });
    const users = await selectRows<{ id: string }>(w.t.db.db, sql`select id from users where email = 'member@member-suspended.test'`);
    const member = { token: login.body.data.token as string, userId: users[0]!.id };
    const { listId, worker, total } = await runUntilSuspended(member.token, owner.orgId, async () => {
      expect((await ops(`/orgs/${owner.orgId}/users/${member.userId}/suspend`)).status).toBe(200);
    });
    const paused = await listRow(listId);
    expect(paused.state).toBe('in_progress');
    expect(paused.counters.verified).toBeLessThan(total);
    expect(await bulkCharges(owner.orgId, listId)).toHaveLength(paused.counters.billable);
    const seenByOwner = await w.t.call({ method: 'POST', url: '/api/v1/email_verify/list', token: owner.token, payload: { list_id: listId } });
    expect(seenByOwner.body.data.items[0]).toMatchObject({ state: 'in_progress', paused_reason: expect.stringContaining("the list owner's account is suspended") });

    expect((await ops(`/orgs/${owner.orgId}/users/${member.userId}/restore`)).status).toBe(200);
    await worker.runUntilIdle();
    const done = await listRow(listId);
    expect(done).toMatchObject({ state: 'verified', counters: expect.objectContaining({ verified: total }) });
    const charged = await bulkCharges(owner.orgId, listId);
    expect(charged).toHaveLength(done.counters.billable);
    expect(charged.every((c) => c.n === 1)).toBe(true);
  });

  it('stops asking mail servers at the suspension even when nothing is charged (every answer unknown)', async () => {
    const owner = await w.t.createOwner('owner@suspended-unknowns.test');
    const { listId, worker, seen, total } = await runUntilSuspended(
      owner.token,
      owner.orgId,
      async () => {
        expect((await ops(`/orgs/${owner.orgId}/suspend`)).status).toBe(200);
      },
      'policy.test',
    );
    // no charge is refused here: the chunk stops at its next look at the list (within a batch), not at the end
    const paused = await listRow(listId);
    expect(paused.state).toBe('in_progress');
    expect(paused.counters.billable).toBe(0);
    expect(seen.answers).toBeLessThan(total);
    const answersWhenPaused = seen.answers;
    await worker.runUntilIdle({ includeDelayed: true });
    expect(seen.answers).toBe(answersWhenPaused);

    expect((await ops(`/orgs/${owner.orgId}/restore`)).status).toBe(200);
    await worker.runUntilIdle();
    const done = await listRow(listId);
    expect(done.state).toBe('verified');
    expect(done.counters).toMatchObject({ verified: total, unknown: total, billable: 0 });
  });
});
