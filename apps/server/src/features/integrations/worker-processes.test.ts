import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { count, countDistinct, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectRows } from '../../platform/db/database';
import { createWorldApp, startWorkerProcess, type TWorldApp } from '../email-verifier/test-support';
import { verifyLists } from '../email-verifier/tables';
import { makeMembers, startKitFake, startMailchimpFake, type TFakePlatform } from '@verilead/test-doubles/platforms';
import { IMPORT_PAGE_JOB, WRITE_BACK_CHUNK, WRITE_BACK_JOB } from './service';
import { integrationImportMembers, integrationImports } from './tables';
import { GOOD_KEYS, topUp } from './test-support';

/**
 * The import as it runs in production: `--role worker` OS processes on one PostgreSQL, the platform a server they
 * reach over HTTP (the local Mailchimp, started here; its base URL goes to the workers through
 * INTEGRATION_BASE_URLS). PGlite is one process's embedded database, so this runs on PostgreSQL only.
 */
const onPostgres = Boolean(process.env.DATABASE_URL);
const CONTACTS = 25_000;

describe.skipIf(!onPostgres)('a 25,000-contact import across worker processes (PostgreSQL)', () => {
  let w: TWorldApp;
  let fake: TFakePlatform;
  let kit: TFakePlatform;
  let dataDir: string;
  const children = new Set<ChildProcess>();

  beforeAll(async () => {
    fake = await startMailchimpFake({ apiKey: GOOD_KEYS.mailchimp!, lists: [{ id: 'big', name: 'Big audience', members: makeMembers(CONTACTS, { domain: 'example.test' }) }] });
    // Kit (tag 77): 300 subscribers with Kit's numeric ids, two write-back chunks (250 + 50).
    const readers = makeMembers(300, { domain: 'example.test', local: 'reader' }).map((m, i) => ({ ...m, id: String(5_000 + i) }));
    kit = await startKitFake({ apiKey: GOOD_KEYS.kit!, lists: [{ id: '77', name: 'Readers', members: readers }] });
    w = await createWorldApp(undefined, { allowPrivateDestinations: true, integrationBaseUrls: { mailchimp: fake.baseUrl, kit: kit.baseUrl } });
    dataDir = await mkdtemp(join(tmpdir(), 'vl-int-workers-'));
  });
  afterAll(async () => {
    for (const c of children) c.kill('SIGKILL');
    await w?.close();
    await fake?.close();
    await kit?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  /** A `--role worker` process on the test's database, storage and fake Mailchimp and Kit: one integration job at a time. */
  async function startWorker(): Promise<ChildProcess> {
    const child = await startWorkerProcess(w, dataDir, {
      INTEGRATION_BASE_URLS: `mailchimp=${fake.baseUrl},kit=${kit.baseUrl}`,
      ALLOW_PRIVATE_DESTINATIONS: 'true',
      JOB_CONCURRENCY_INTEGRATIONS: '1',
    });
    children.add(child);
    return child;
  }

  async function waitFor(what: string, done: () => Promise<boolean>, boundMs = 180_000, everyMs = 100): Promise<void> {
    const deadline = Date.now() + boundMs;
    while (!(await done())) {
      if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}`);
      await new Promise((r) => setTimeout(r, everyMs));
    }
  }

  it('survives kill -9 of its worker mid-import and finishes with every contact once', async () => {
    const owner = await w.t.createOwner('kill9@integrations.test');
    const acc = await w.t.call({ method: 'POST', url: '/api/v1/integration/account/mailchimp', token: owner.token, payload: { name: 'Big', api_key: GOOD_KEYS.mailchimp! } });
    expect(acc.status, JSON.stringify(acc.body)).toBe(200);
    // Worker A pages with Mailchimp's cap (1,000 a page); the page at offset 12,000 is never answered while A waits on it.
    const heldAt = fake.holdNext((r) => r.path === '/lists/big/members' && r.query.get('offset') === '12000');
    const a = await startWorker();
    const start = await w.t.call({ method: 'POST', url: '/api/v1/integration/account/mailchimp/verify_list', token: owner.token, payload: { account_id: acc.body.data.id, list_id: 'big', write_back: { unsubscribe: false, append: false } } });
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    const importId = start.body.data.id as string;
    const readImport = async () => (await w.t.db.db.select().from(integrationImports).where(eq(integrationImports.id, importId)))[0]!;
    await heldAt;
    const atKill = await readImport();
    expect(atKill.state).toBe('importing');
    expect(atKill.imported).toBe(12_000);

    const exited = new Promise((r) => a.once('exit', r));
    a.kill('SIGKILL');
    await exited;
    await startWorker();
    await waitFor('worker B finishes the import', async () => (await readImport()).state !== 'importing');

    const done = await readImport();
    expect(done.imported).toBe(CONTACTS);
    const [stats] = await w.t.db.db
      .select({ rows: count(), remote: countDistinct(integrationImportMembers.remoteId), emails: countDistinct(integrationImportMembers.email) })
      .from(integrationImportMembers)
      .where(eq(integrationImportMembers.importId, importId));
    expect(stats).toEqual({ rows: CONTACTS, remote: CONTACTS, emails: CONTACTS });
    // The page A held was given up when its heartbeat stopped, and run again by B.
    const retried = await selectRows<{ n: number }>(
      w.t.db.db,
      sql`select count(*)::int as n from pgboss.job where data->>'kind' = ${IMPORT_PAGE_JOB} and data->'payload'->>'importId' = ${importId} and (data->'payload'->>'page')::int = 12 and retry_count > 0`,
    );
    expect(retried[0]!.n).toBe(1);
    // The verifier list (analysed by the worker) holds each contact once.
    await waitFor('the list is analysed', async () => (await w.t.db.db.select().from(verifyLists).where(eq(verifyLists.id, done.verifyListId)))[0]?.analysisState === 'ready');
    const list = (await w.t.db.db.select().from(verifyLists).where(eq(verifyLists.id, done.verifyListId)))[0]!;
    expect(list.source).toBe('mailchimp');
    expect(list.rowCount).toBe(CONTACTS);
    expect(list.uniqueCount).toBe(CONTACTS);
    expect(list.duplicateCount).toBe(0);
  }, 300_000);

  it('resumes a write-back after kill -9 of its worker at its second chunk: every contact written back once', async () => {
    // Only this test's workers: the previous test's are stopped first (the held request must be worker A's).
    await Promise.all([...children].map((c) => (c.exitCode !== null || c.signalCode !== null ? undefined : new Promise((r) => (c.once('exit', r), c.kill('SIGKILL'))))));
    children.clear();
    const owner = await w.t.createOwner('kill9-writeback@integrations.test');
    await topUp(w, owner.orgId);
    const acc = await w.t.call({ method: 'POST', url: '/api/v1/integration/account/kit', token: owner.token, payload: { name: 'Readers', api_key: GOOD_KEYS.kit!, paid_plan_confirmed: true } });
    expect(acc.status, JSON.stringify(acc.body)).toBe(200);
    const fieldWrites = () => kit.writes.filter((x) => x.kind === 'fields');
    // Worker A writes the first chunk back (250 subscribers); the second chunk's first call (Kit's custom fields) never answers.
    const heldAt = kit.holdNext((r) => r.method === 'GET' && r.path === '/custom_fields' && fieldWrites().length === WRITE_BACK_CHUNK);
    const a = await startWorker();
    const start = await w.t.call({ method: 'POST', url: '/api/v1/integration/account/kit/verify_list', token: owner.token, payload: { account_id: acc.body.data.id, list_id: '77', write_back: { unsubscribe: false, append: true } } });
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    const importId = start.body.data.id as string;
    const readImport = async () => (await w.t.db.db.select().from(integrationImports).where(eq(integrationImports.id, importId)))[0]!;
    await heldAt;
    expect(await readImport()).toMatchObject({ state: 'writing_back', imported: 300, writeCursor: WRITE_BACK_CHUNK, writtenBack: WRITE_BACK_CHUNK });

    const exited = new Promise((r) => a.once('exit', r));
    a.kill('SIGKILL');
    await exited;
    await startWorker();
    await waitFor('worker B finishes the write-back', async () => (await readImport()).state !== 'writing_back');

    const done = await readImport();
    expect(done).toMatchObject({ state: 'completed', error: null, writtenBack: 300 });
    // The chunk A held was given up when its heartbeat stopped and run again by B; no subscriber was written twice.
    const retried = await selectRows<{ n: number }>(
      w.t.db.db,
      sql`select count(*)::int as n from pgboss.job where data->>'kind' = ${WRITE_BACK_JOB} and data->'payload'->>'importId' = ${importId} and (data->'payload'->>'afterSeq')::int = ${WRITE_BACK_CHUNK} and retry_count > 0`,
    );
    expect(retried[0]!.n).toBe(1);
    const ids = fieldWrites().map((x) => x.memberId);
    expect(ids).toHaveLength(300);
    expect(new Set(ids).size).toBe(300);
  }, 300_000);
});
