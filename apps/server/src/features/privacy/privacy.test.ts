import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZDownloadResponse } from '@verilead/contracts';
import { selectRows } from '../../platform/db/database';
import { grantCredits } from '../../platform/credits/ledger';
import { MAINTENANCE_JOB } from '../../platform/jobs/maintenance';
import { TEST_PASSWORD } from '../../test/test-app';
import { buildMultipart, createWorldApp, type TWorldApp } from '../email-verifier/test-support';
import { REDACTED_COLUMN } from './archive';
import { countOrgRows, ORG_CHILD_TABLES, selectOrgTables } from './queries';

type TOwner = { token: string; userId: string; orgId: string };
const DAY_MS = 86_400_000;

describe('data retention and privacy', () => {
  let w: TWorldApp;
  // The injected clock of the maintenance job's retention task: the test moves it, never the wall clock.
  let now = new Date();
  let a: TOwner;
  let b: TOwner;
  const listOf: Record<string, string> = {};

  const call = (o: TOwner, method: 'GET' | 'POST' | 'PUT', url: string, payload?: Record<string, unknown>) =>
    w.t.call({ method, url: `/api/v1${url}`, token: o.token, ...(payload ? { payload } : {}) });
  const count = async (q: ReturnType<typeof sql>) => (await selectRows<{ n: number }>(w.t.db.db, sql`select count(*)::int as n from (${q}) x`))[0]!.n;
  const runMaintenance = async () => {
    await w.t.deps.queue.enqueue(MAINTENANCE_JOB, {});
    await w.t.deps.queue.runUntilIdle();
  };
  const today = () => new Date().toISOString().slice(0, 10);
  // What analytics shows for today: the verifier's result figures and the ledger's credits, organisation-wide.
  const analytics = async (o: TOwner) => {
    const usage = await call(o, 'POST', '/reports/usage', { date_range: { from: today(), to: today() } });
    expect(usage.status, JSON.stringify(usage.body)).toBe(200);
    const overview = await call(o, 'POST', '/reports/overview_usage', { date_range: { from: today(), to: today() } });
    expect(overview.status, JSON.stringify(overview.body)).toBe(200);
    return { usage: usage.body.data, overview: overview.body.data };
  };

  async function seedOrganisation(o: TOwner, tag: string) {
    await w.t.db.transaction((tx) => grantCredits(tx, { orgId: o.orgId, amount: 1_000, reason: 'Test top-up' }));
    for (const email of ['alice@strict.test', 'no.such.user@strict.test', 'anyone@acceptall.test']) {
      expect((await call(o, 'POST', '/email_verify/instant', { email })).status).toBe(200);
    }
    const mp = buildMultipart(`${tag}.csv`, `email\nalice@strict.test\njohn.smith@strict.test\n${tag}-person@strict.test\n`);
    const up = await w.t.call({ method: 'POST', url: '/api/v1/email_verify/bulk_upload', token: o.token, payload: mp.payload, headers: mp.headers });
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    listOf[o.orgId] = up.body.data.id;
    await w.t.deps.queue.runUntilIdle();
    const v = await call(o, 'POST', '/email_verify/list/verify', { list_id: up.body.data.id });
    expect(v.status, JSON.stringify(v.body)).toBe(200);
    await w.t.deps.queue.runUntilIdle();
    const ex = await call(o, 'POST', '/email_verify/list/export', { list_id: up.body.data.id, format: 'standard' });
    expect(ex.status, JSON.stringify(ex.body)).toBe(200);
    await w.t.deps.queue.runUntilIdle();
  }

  beforeAll(async () => {
    w = await createWorldApp(undefined, {}, { clock: () => now });
    a = await w.t.createOwner('owner-a@privacy.test', 'Owner A');
    b = await w.t.createOwner('owner-b@privacy.test', 'Owner B');
    await seedOrganisation(a, 'alpha');
    await seedOrganisation(b, 'bravo');
  });
  afterAll(async () => {
    await w?.close();
  });

  it('lets the owner choose the retention among bounded choices', async () => {
    expect((await call(a, 'GET', '/user_preferences/data_retention')).body.data).toEqual({
      file_retention_days: 30,
      result_retention_days: 90,
      organisation_name: "Owner A's organisation",
    });
    const bad = await call(a, 'PUT', '/user_preferences/data_retention', { file_retention_days: 3, result_retention_days: 90 });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body.error)).toContain('File retention must be one of 1, 7, 15, 30, 60, 90 days');
    const saved = await call(a, 'PUT', '/user_preferences/data_retention', { file_retention_days: 7, result_retention_days: 30 });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ file_retention_days: 7, result_retention_days: 30 });
  });

  it('deletes files and results on time and keeps the analytics figures', async () => {
    const storage = w.t.deps.storage;
    const listA = listOf[a.orgId]!;
    const listB = listOf[b.orgId]!;
    const keyOf = async (id: string) => (await selectRows<{ k: string }>(w.t.db.db, sql`select storage_key as k from verify_lists where id = ${id}`))[0]!.k;
    const exportKeys = async (orgId: string) =>
      (await selectRows<{ k: string | null }>(w.t.db.db, sql`select storage_key as k from downloads where org_id = ${orgId}`)).map((r) => r.k);
    const before = await analytics(a);
    expect(before.usage.stats.total).toBeGreaterThan(3);
    expect(before.usage.instant).toBe(3);
    const rowsOf = (id: string) => count(sql`select 1 from verify_list_emails where list_id = ${id}`);
    const instantOf = (orgId: string) => count(sql`select 1 from instant_verifications where org_id = ${orgId}`);
    expect(await rowsOf(listA)).toBe(3);

    // Six days on: A keeps files 7 days, so nothing is deleted yet.
    now = new Date(Date.now() + 6 * DAY_MS);
    await runMaintenance();
    expect(await storage.stat(await keyOf(listA))).not.toBeNull();
    expect((await exportKeys(a.orgId)).every((k) => k !== null)).toBe(true);

    // Eight days on: A's upload and export are gone; B (30 days) keeps its files; results are still kept.
    now = new Date(Date.now() + 8 * DAY_MS);
    await runMaintenance();
    expect(await storage.stat(await keyOf(listA))).toBeNull();
    expect(await exportKeys(a.orgId)).toEqual([null]);
    expect(await storage.stat(await keyOf(listB))).not.toBeNull();
    expect((await exportKeys(b.orgId)).every((k) => k !== null)).toBe(true);
    expect(await rowsOf(listA)).toBe(3);
    expect(await instantOf(a.orgId)).toBe(3);
    const status = await call(a, 'GET', `/download/result/status?queue_id=${(await selectRows<{ id: string }>(w.t.db.db, sql`select id from downloads where org_id = ${a.orgId}`))[0]!.id}`);
    expect(status.body.data.state).toBe('expired');

    // Thirty-one days on: A's results (30 days) are deleted, the aggregates kept; B's (90 days) are not.
    now = new Date(Date.now() + 31 * DAY_MS);
    await runMaintenance();
    expect(await rowsOf(listA)).toBe(0);
    expect(await instantOf(a.orgId)).toBe(0);
    expect(await count(sql`select 1 from instant_verification_rollups where org_id = ${a.orgId}`)).toBeGreaterThan(0);
    expect(await rowsOf(listB)).toBe(3);
    expect(await instantOf(b.orgId)).toBe(3);
    expect(await analytics(a)).toEqual(before);
    // A file of the deleted results is refused with the reason, not prepared empty.
    const gone = await call(a, 'POST', '/email_verify/list/export', { list_id: listA, format: 'standard' });
    expect(gone.status).toBe(409);
    expect(gone.body.error.message).toBe("This list's results were deleted under your organisation's data retention");
    const goneInput = await call(a, 'POST', '/email_verify/list/export', { list_id: listA, kind: 'input' });
    expect(goneInput.body.error.message).toBe("The uploaded file was deleted under your organisation's data retention");
    // Running again changes nothing (the aggregates are not counted twice).
    await runMaintenance();
    expect(await analytics(a)).toEqual(before);
  });

  it("exports the organisation's data and nothing of another organisation", async () => {
    const hook = await call(b, 'POST', '/bounces/webhooks', { platform: 'mailchimp' });
    expect(hook.status, JSON.stringify(hook.body)).toBe(200);
    const ex = await call(b, 'POST', '/user_preferences/data_export');
    expect(ex.status, JSON.stringify(ex.body)).toBe(200);
    await w.t.deps.queue.runUntilIdle();
    const st = ZDownloadResponse.parse((await call(b, 'GET', `/download/result/status?queue_id=${ex.body.data.queue_id}`)).body).data;
    expect(st).toMatchObject({ state: 'success', kind: 'organisation_data', file_type: 'jsonl' });
    const file = await w.t.app.inject({ method: 'GET', url: st.download_url! });
    expect(file.statusCode).toBe(200);
    const lines = file.body.trim().split('\n').map((l) => JSON.parse(l) as { table: string; row: Record<string, unknown> });
    const tables = new Set(lines.map((l) => l.table));
    for (const t of ['organisations', 'users', 'verify_lists', 'verify_list_emails', 'instant_verifications', 'credit_transactions', 'downloads']) expect(tables, t).toContain(t);
    expect(lines.filter((l) => l.table === 'verify_list_emails').map((l) => l.row.email)).toEqual(
      expect.arrayContaining(['alice@strict.test', 'bravo-person@strict.test']),
    );
    expect(file.body).not.toContain(a.orgId);
    expect(file.body).not.toContain(a.userId);
    expect(file.body).not.toContain('alpha-person@strict.test');
    expect(file.body).not.toContain('owner-a@privacy.test');
    // Secrets and hashes are not in the archive.
    const user = lines.find((l) => l.table === 'users')!.row;
    expect(user.password_hash).toBe('[redacted]');
    // A bounce webhook's address is a live secret: neither it nor its hash is in the archive.
    expect(lines.find((l) => l.table === 'bounce_webhooks')!.row).toMatchObject({ platform: 'mailchimp', token_hash: '[redacted]' });
    expect(file.body).not.toContain(String(hook.body.data.url).split('/').pop());
  });

  it('redacts every column named token, *_token, token_hash or secret (and hashes, passwords, encrypted values) from archives', () => {
    for (const column of ['token', 'refresh_token', 'access_token', 'token_hash', 'secret', 'client_secret_enc', 'password_hash', 'key_hash', 'totp_encrypted']) {
      expect(REDACTED_COLUMN.test(column), column).toBe(true);
    }
    for (const column of ['email', 'token_hint', 'tokens_used', 'platform', 'verification_key']) expect(REDACTED_COLUMN.test(column), column).toBe(false);
  });

  it('deletes an organisation: no row of it in any table, no file of it, another organisation untouched', async () => {
    const storage = w.t.deps.storage;
    const tables = await selectOrgTables(w.t.db.db);
    expect(tables).toEqual(expect.arrayContaining(['verify_lists', 'credit_transactions', 'usage_rollups', 'instant_verification_rollups', 'downloads']));
    const bBefore: Record<string, number> = {};
    for (const t of tables) bBefore[t] = await countOrgRows(w.t.db.db, t, b.orgId);
    const bChildren = await count(sql`select 1 from verify_list_emails where ${ORG_CHILD_TABLES[0]!.where(b.orgId)}`);
    const aRowsBefore = (await Promise.all(tables.map((t) => countOrgRows(w.t.db.db, t, a.orgId)))).reduce((x, y) => x + y, 0);
    expect(aRowsBefore).toBeGreaterThan(10);
    // A still has files before (its export of today).
    const exA = await call(a, 'POST', '/user_preferences/data_export');
    expect(exA.status).toBe(200);
    await w.t.deps.queue.runUntilIdle();
    expect(await storage.hasFolder(`downloads/${a.orgId}`)).toBe(true);

    const aJobs = (await selectRows<{ id: string }>(w.t.db.db, sql`select id from job_status where org_id = ${a.orgId}`)).map((r) => r.id);
    expect(aJobs.length).toBeGreaterThan(0);
    const inQueue = (ids: string[]) =>
      count(sql`select id from pgboss.job where id in (${sql.join(ids.map((id) => sql`${id}::uuid`), sql`, `)})
                union all select id from pgboss.archive where id in (${sql.join(ids.map((id) => sql`${id}::uuid`), sql`, `)})`);
    expect(await inQueue(aJobs)).toBeGreaterThan(0);
    const wrongName = await call(a, 'POST', '/user_preferences/organisation/delete', { password: TEST_PASSWORD, organisation_name: 'Not it' });
    expect(wrongName.status).toBe(400);
    const wrongPassword = await call(a, 'POST', '/user_preferences/organisation/delete', { password: 'nope-nope-1', organisation_name: 'x' });
    expect(wrongPassword.status).toBe(400);
    const orgName = (await selectRows<{ name: string }>(w.t.db.db, sql`select name from organisations where id = ${a.orgId}`))[0]!.name;
    // a failed sign-in of the owner's e-mail (kept a day for the per-account sign-in limit) goes with the organisation
    expect((await w.t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email: 'owner-a@privacy.test', password: 'Wrong-Pass-1' } })).status).toBe(401);
    expect(await count(sql`select 1 from sign_in_failures where email = 'owner-a@privacy.test'`)).toBe(1);
    const del = await call(a, 'POST', '/user_preferences/organisation/delete', { password: TEST_PASSWORD, organisation_name: orgName });
    expect(del.status, JSON.stringify(del.body)).toBe(200);

    for (const t of tables) expect(await countOrgRows(w.t.db.db, t, a.orgId), t).toBe(0);
    expect(await count(sql`select 1 from verify_list_emails where list_id = ${listOf[a.orgId]!}`)).toBe(0);
    expect(await count(sql`select 1 from organisations where id = ${a.orgId}`)).toBe(0);
    expect(await count(sql`select 1 from users where id = ${a.userId}`)).toBe(0);
    expect(await count(sql`select 1 from sign_in_failures where email = 'owner-a@privacy.test'`)).toBe(0);
    // Nor are its jobs' payloads and results left in the queue's tables.
    expect(await inQueue(aJobs)).toBe(0);
    expect(await storage.hasFolder(`uploads/${a.orgId}`)).toBe(false);
    expect(await storage.hasFolder(`downloads/${a.orgId}`)).toBe(false);
    // The deleted owner's session no longer works.
    expect((await call(a, 'GET', '/user_preferences/data_retention')).status).toBe(401);

    for (const t of tables) expect(await countOrgRows(w.t.db.db, t, b.orgId), t).toBe(bBefore[t]);
    expect(await count(sql`select 1 from verify_list_emails where ${ORG_CHILD_TABLES[0]!.where(b.orgId)}`)).toBe(bChildren);
    expect(await storage.hasFolder(`uploads/${b.orgId}`)).toBe(true);
    expect(await storage.hasFolder(`downloads/${b.orgId}`)).toBe(true);
  });
});
