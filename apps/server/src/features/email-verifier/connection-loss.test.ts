import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getOrgBalance, grantCredits } from '../../platform/credits/ledger';
import { creditTransactions } from '../../platform/credits/tables';
import { verifyListEmails, verifyLists } from './tables';
import { buildMultipart, createWorldApp, startWorkerProcess, type TWorldApp } from './test-support';

/**
 * PostgreSQL drops the connections of a running worker (a failover, a proxy, `idle_in_transaction_session_timeout`,
 * here `pg_terminate_backend`) while it verifies a list: the process stays up, the pools replace the connections, the
 * failed statements' jobs are retried, and the list completes with every row charged once. PostgreSQL only.
 */
const onPostgres = Boolean(process.env.DATABASE_URL);
/** The worker's connections carry this application_name (from its DATABASE_URL), so only they are terminated. */
const WORKER_APP_NAME = `vl-conn-loss-${process.pid}`;

describe.skipIf(!onPostgres)('a worker whose database connections are terminated mid-list (PostgreSQL)', () => {
  let w: TWorldApp;
  let dataDir: string;
  let admin: pg.Client;
  let worker: ChildProcess | null = null;
  let workerOutput = '';
  let exit: { code: number | null; signal: string | null } | null = null;

  beforeAll(async () => {
    w = await createWorldApp();
    dataDir = await mkdtemp(join(tmpdir(), 'vl-conn-loss-'));
    admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
  });
  afterAll(async () => {
    worker?.kill('SIGKILL');
    await admin?.end();
    await w?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  async function listRow(listId: string) {
    return (await w.t.db.db.select().from(verifyLists).where(eq(verifyLists.id, listId)))[0]!;
  }

  /** Terminates every backend of the test database opened by the worker process; answers how many. */
  async function terminateWorkerBackends(): Promise<number> {
    const r = await admin.query<{ n: number }>(
      `select count(*)::int as n from (
         select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and application_name = $2
       ) t`,
      [w.t.db.name, WORKER_APP_NAME],
    );
    return r.rows[0]?.n ?? 0;
  }

  async function waitFor(what: string, done: () => Promise<boolean>, boundMs = 120_000, everyMs = 50): Promise<void> {
    const deadline = Date.now() + boundMs;
    while (!(await done())) {
      if (exit) throw new Error(`the worker exited (${JSON.stringify(exit)}) while waiting: ${what}\n${workerOutput.slice(-4000)}`);
      if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}\n${workerOutput.slice(-4000)}`);
      await new Promise((r) => setTimeout(r, everyMs));
    }
  }

  it('stays up through three rounds of terminated connections, and the list completes exactly once', async () => {
    const owner = await w.t.createOwner('owner@conn-loss.test');
    await w.t.db.transaction((tx) => grantCredits(tx, { orgId: owner.orgId, amount: 10_000, reason: 'Test top-up' }));
    const addresses = Array.from({ length: 600 }, (_, i) => (i % 3 === 0 ? `missing${i}@strict.test` : `someone${i}@acceptall.test`));
    const mp = buildMultipart('conn-loss.txt', addresses.join('\n'));
    const up = await w.t.call({ method: 'POST', url: '/api/v1/email_verify/bulk_upload', token: owner.token, payload: mp.payload, headers: mp.headers });
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    const listId = up.body.data.id as string;
    await w.t.deps.queue.runUntilIdle();
    const before = await getOrgBalance(w.t.db.db, owner.orgId);

    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = `/${w.t.db.name}`;
    url.searchParams.set('application_name', WORKER_APP_NAME);
    worker = await startWorkerProcess(w, dataDir, {
      DATABASE_URL: url.toString(),
      VERIFIER_CONNECT_TIMEOUT_MS: '1000',
      VERIFIER_REPLY_TIMEOUT_MS: '1000',
      JOB_CONCURRENCY_VERIFICATION: '2',
      JOB_MAX_BACKOFF_SECONDS: '1',
      BULK_CHUNK_SIZE: '20',
    });
    worker.once('exit', (code, signal) => (exit = { code, signal }));
    worker.stdout!.on('data', (c: Buffer) => (workerOutput += c.toString()));
    worker.stderr!.on('data', (c: Buffer) => (workerOutput += c.toString()));

    expect((await w.t.call({ method: 'POST', url: '/api/v1/email_verify/list/verify', token: owner.token, payload: { list_id: listId } })).status).toBe(200);
    // Three rounds, each once the worker has stored more results and holds connections (chunks in their transactions).
    let terminated = 0;
    for (let round = 0; round < 3; round += 1) {
      const verifiedBefore = (await listRow(listId)).counters.verified;
      await waitFor(`round ${round + 1}: more results stored`, async () => {
        const list = await listRow(listId);
        return list.counters.verified > verifiedBefore || list.state === 'verified';
      });
      if ((await listRow(listId)).state === 'verified') break;
      terminated += await terminateWorkerBackends();
      expect(exit, workerOutput.slice(-4000)).toBeNull();
    }
    expect(terminated).toBeGreaterThan(0);
    // The worker saw the connections go (its log says so) rather than never noticing them.
    await waitFor('the worker logs the lost connections', async () => workerOutput.includes('database connection lost'));

    await waitFor('the list is verified', async () => (await listRow(listId)).state === 'verified');
    expect(exit).toBeNull();
    expect(worker.exitCode).toBeNull();

    const rows = await w.t.db.db.select().from(verifyListEmails).where(and(eq(verifyListEmails.listId, listId), eq(verifyListEmails.kind, 'unique')));
    expect(rows).toHaveLength(addresses.length);
    expect(rows.filter((r) => r.status === null)).toEqual([]);
    const billable = rows.filter((r) => r.billable).length;
    expect(billable).toBe(addresses.length);
    const charged = await w.t.db.db
      .select({ objectId: creditTransactions.objectId, n: sql<number>`count(*)::int` })
      .from(creditTransactions)
      .where(and(eq(creditTransactions.orgId, owner.orgId), eq(creditTransactions.sourceAgent, 'bulk_verify')))
      .groupBy(creditTransactions.objectId);
    expect(charged).toHaveLength(billable);
    expect(charged.filter((c) => c.n !== 1)).toEqual([]);
    expect(await getOrgBalance(w.t.db.db, owner.orgId)).toBe(before - billable);
    const list = await listRow(listId);
    expect(list.counters.verified).toBe(addresses.length);
    expect(list.counters.billable).toBe(billable);
  }, 180_000);
});
