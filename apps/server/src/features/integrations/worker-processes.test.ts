import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { count, countDistinct, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectRows } from '../../platform/db/database';
import { createWorldApp, startWorkerProcess, type TWorldApp } from '../email-verifier/test-support';
import { verifyLists } from '../email-verifier/tables';
import { makeMembers, type TFakePlatform } from './fakes/fake-server';
import { startMailchimpFake } from './fakes/mailchimp-fake';
import { IMPORT_PAGE_JOB } from './service';
import { integrationImportMembers, integrationImports } from './tables';
import { GOOD_KEYS } from './test-support';

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
  let dataDir: string;
  const children = new Set<ChildProcess>();

  beforeAll(async () => {
    fake = await startMailchimpFake({ apiKey: GOOD_KEYS.mailchimp!, lists: [{ id: 'big', name: 'Big audience', members: makeMembers(CONTACTS, { domain: 'example.test' }) }] });
    w = await createWorldApp(undefined, { allowPrivateWebhooks: true, integrationBaseUrls: { mailchimp: fake.baseUrl } });
    dataDir = await mkdtemp(join(tmpdir(), 'vl-int-workers-'));
  });
  afterAll(async () => {
    for (const c of children) c.kill('SIGKILL');
    await w?.close();
    await fake?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  /** A `--role worker` process on the test's database, storage and fake Mailchimp: one import page at a time. */
  async function startWorker(): Promise<ChildProcess> {
    const child = await startWorkerProcess(w, dataDir, {
      INTEGRATION_BASE_URLS: `mailchimp=${fake.baseUrl}`,
      ALLOW_PRIVATE_WEBHOOKS: 'true',
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
});
