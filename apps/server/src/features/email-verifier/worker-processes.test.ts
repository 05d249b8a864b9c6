import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getOrgBalance, grantCredits } from '../../platform/credits/ledger';
import { creditTransactions } from '../../platform/credits/tables';
import { selectRows } from '../../platform/db/database';
import { VERIFY_CHUNK_JOB } from './verify-list-job';
import { verifyListEmails, verifyLists } from './tables';
import { buildMultipart, createWorldApp, startWorkerProcess, type TWorldApp } from './test-support';

/**
 * Scale-out as it runs in production: separate `--role worker` OS processes against one PostgreSQL share a list's
 * chunk jobs. PGlite is one process's embedded database, so these run on PostgreSQL only (CI's second pass).
 */
const onPostgres = Boolean(process.env.DATABASE_URL);

describe.skipIf(!onPostgres)('bulk verification across worker processes (PostgreSQL)', () => {
  let w: TWorldApp;
  let dataDir: string;
  const children = new Set<ChildProcess>();

  beforeAll(async () => {
    w = await createWorldApp();
    dataDir = await mkdtemp(join(tmpdir(), 'vl-workers-'));
  });
  afterEach(async () => {
    for (const c of children) c.kill('SIGKILL');
    children.clear();
  });
  afterAll(async () => {
    await w?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  /** A `--role worker` process on the test's database and mail world: one small chunk at a time (`env` adds or overrides). */
  async function startWorker(env: Record<string, string> = {}): Promise<ChildProcess> {
    const child = await startWorkerProcess(w, dataDir, {
      VERIFIER_CONNECT_TIMEOUT_MS: '1000',
      VERIFIER_REPLY_TIMEOUT_MS: '1000',
      VERIFIER_GREYLIST_SCHEDULE_MS: '300',
      JOB_CONCURRENCY_VERIFICATION: '1',
      BULK_CHUNK_SIZE: '40',
      ...env,
    });
    children.add(child);
    return child;
  }

  /** An owner with credits and an analysed list of `n` addresses whose chunks each hold a greylisted (slow) one. */
  async function analysedList(tag: string, n: number) {
    const owner = await w.t.createOwner(`${tag}@workers.test`);
    await w.t.db.transaction((tx) => grantCredits(tx, { orgId: owner.orgId, amount: 10_000, reason: 'Test top-up' }));
    const addresses = Array.from({ length: n }, (_, i) =>
      i % 20 === 0 ? `ghost${i}@greylist.test` : i % 3 === 0 ? `missing${i}@strict.test` : `someone${i}@acceptall.test`,
    );
    const mp = buildMultipart(`${tag}.txt`, addresses.join('\n'));
    const up = await w.t.call({ method: 'POST', url: '/api/v1/email_verify/bulk_upload', token: owner.token, payload: mp.payload, headers: mp.headers });
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    const listId = up.body.data.id as string;
    // The analysis runs here; the verification only in the worker processes (this process never takes a chunk).
    await w.t.deps.queue.runUntilIdle();
    const before = await getOrgBalance(w.t.db.db, owner.orgId);
    return { owner, listId, addresses, before };
  }

  async function listRow(listId: string) {
    return (await w.t.db.db.select().from(verifyLists).where(eq(verifyLists.id, listId)))[0]!;
  }

  async function activeChunks(listId: string): Promise<number> {
    const r = await selectRows<{ n: number }>(
      w.t.db.db,
      sql`select count(*)::int as n from pgboss.job where state = 'active' and data->>'kind' = ${VERIFY_CHUNK_JOB} and data->'payload'->>'listId' = ${listId}`,
    );
    return r[0]?.n ?? 0;
  }

  /** Polls until `done` holds (a bound on waiting, not a speed check). */
  async function waitFor(what: string, done: () => Promise<boolean>, boundMs = 120_000, everyMs = 100): Promise<void> {
    const deadline = Date.now() + boundMs;
    while (!(await done())) {
      if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}`);
      await new Promise((r) => setTimeout(r, everyMs));
    }
  }

  /** Every unique row has one result; every billable row one charge; the balance moved by exactly that. */
  async function expectExactlyOnce(orgId: string, listId: string, before: number, expectAll: boolean) {
    const rows = await w.t.db.db.select().from(verifyListEmails).where(and(eq(verifyListEmails.listId, listId), eq(verifyListEmails.kind, 'unique')));
    if (expectAll) expect(rows.every((r) => r.status !== null)).toBe(true);
    const billable = rows.filter((r) => r.billable).length;
    const charged = await w.t.db.db
      .select({ objectId: creditTransactions.objectId, n: sql<number>`count(*)::int` })
      .from(creditTransactions)
      .where(and(eq(creditTransactions.orgId, orgId), eq(creditTransactions.sourceAgent, 'bulk_verify')))
      .groupBy(creditTransactions.objectId);
    expect(charged).toHaveLength(billable);
    expect(charged.every((c) => c.n === 1)).toBe(true);
    expect(await getOrgBalance(w.t.db.db, orgId)).toBe(before - billable);
    const list = await listRow(listId);
    expect(list.counters.verified).toBe(rows.filter((r) => r.status !== null).length);
    expect(list.counters.billable).toBe(billable);
    return { rows, billable };
  }

  it('two worker processes verify one list at once: every row one result and one charge', async () => {
    const { owner, listId, addresses, before } = await analysedList('two', 400);
    await Promise.all([startWorker(), startWorker()]);
    const start = await w.t.call({ method: 'POST', url: '/api/v1/email_verify/list/verify', token: owner.token, payload: { list_id: listId } });
    expect(start.status).toBe(200);
    let mostActive = 0;
    await waitFor('the list is verified', async () => {
      mostActive = Math.max(mostActive, await activeChunks(listId));
      return (await listRow(listId)).state === 'verified';
    });
    // Each process runs one chunk at a time, so two chunks active at once means both processes took chunks.
    expect(mostActive).toBe(2);
    const { rows, billable } = await expectExactlyOnce(owner.orgId, listId, before, true);
    expect(rows).toHaveLength(addresses.length);
    expect(billable).toBeGreaterThan(300);
  });

  it('a worker that dies mid-chunk after storing results: another finishes the list, every row verified and charged once', async () => {
    const { owner, listId, addresses, before } = await analysedList('killed', 400);
    // Worker A plans the list into 200-row chunks and takes the first one. It dies (SIGKILL, at the chunk job's named
    // crash point) right after its first store commits: a store holds at most 100 rows, so its chunk still has rows
    // without a result, which only a retry of that chunk can verify.
    const a = await startWorker({ BULK_CHUNK_SIZE: '200', VERILEAD_CRASH_AT: 'verify_chunk.stored:1' });
    const died = new Promise<NodeJS.Signals | null>((resolve) => a.once('exit', (_code, signal) => resolve(signal)));
    expect((await w.t.call({ method: 'POST', url: '/api/v1/email_verify/list/verify', token: owner.token, payload: { list_id: listId } })).status).toBe(200);
    expect(await died).toBe('SIGKILL');
    const atCrash = await listRow(listId);
    expect(atCrash.state).toBe('in_progress');
    expect(atCrash.counters.verified).toBeGreaterThan(0);
    expect(atCrash.counters.verified).toBeLessThanOrEqual(100);
    // Worker B takes the second chunk, and A's chunk once its heartbeat is older than the expiry (3 s).
    await startWorker();
    await waitFor('the list is verified by worker B', async () => (await listRow(listId)).state === 'verified');
    const { rows } = await expectExactlyOnce(owner.orgId, listId, before, true);
    expect(rows).toHaveLength(addresses.length);
  });

  it('cancel mid-list stops every worker within 5 s and bills only finished rows', async () => {
    const { owner, listId, addresses, before } = await analysedList('cancelled', 800);
    await Promise.all([startWorker(), startWorker()]);
    expect((await w.t.call({ method: 'POST', url: '/api/v1/email_verify/list/verify', token: owner.token, payload: { list_id: listId } })).status).toBe(200);
    await waitFor('some results stored', async () => (await listRow(listId)).counters.verified > 0, 60_000, 20);
    const cancel = await w.t.call({ method: 'POST', url: '/api/v1/email_verify/list/cancel', token: owner.token, payload: { list_id: listId } });
    expect(cancel.status).toBe(200);
    expect(cancel.body.data.state).toBe('cancelled');
    // The bound the product promises: no chunk of the list is still running 5 s after the cancel.
    await waitFor('no chunk of the list runs', async () => (await activeChunks(listId)) === 0, 5_000, 50);
    const settled = (await listRow(listId)).counters.verified;
    await new Promise((r) => setTimeout(r, 1_500));
    expect((await listRow(listId)).counters.verified).toBe(settled);
    expect((await listRow(listId)).state).toBe('cancelled');
    const { rows } = await expectExactlyOnce(owner.orgId, listId, before, false);
    const finished = rows.filter((r) => r.status !== null).length;
    expect(finished).toBeGreaterThan(0);
    expect(finished).toBeLessThan(addresses.length);
  });
});
