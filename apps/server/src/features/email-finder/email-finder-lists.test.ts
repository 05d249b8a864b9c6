import { and, eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZFinderListResponse } from '@verilead/contracts';
import { getOrgBalance } from '../../platform/credits/ledger';
import type { TJobQueue } from '../../platform/jobs/jobs';
import { selectRows } from '../../platform/db/database';
import type { TTestApp } from '../../test/test-app';
import { events } from '../events/tables';
import { buildMultipart, finderApiCalls, startFinderApiWorld, type TFinderApiWorld, type TFinderUser } from './email-finder-test-support';

// Lists of people (CSV and XLSX uploads): reading them, finding their emails in jobs, billing and their files; the quick
// finder is in email-finder-instant.test.ts.

type TUser = TFinderUser;

describe('email finder API', () => {
  let w: TFinderApiWorld;
  let t: TTestApp;
  let jobs: TJobQueue;
  let owner: TUser;
  let stranger: TUser;

  const { charges, upload, prepared, instant, strictPeople } = finderApiCalls(() => w);

  beforeAll(async () => {
    w = await startFinderApiWorld();
    ({ t, jobs, owner, stranger } = w);
  }, 60_000);
  afterAll(async () => {
    await w?.close();
  });

  it('uploads a mapped CSV, finds the emails in a job, bills found only and downloads the results', async () => {
    const sample = strictPeople().slice(1, 21);
    const unknown = { first_name: 'Zebulon', last_name: 'Quixotez', domain: 'initech.test' };
    const lines = [
      'Company Domain,Last,First,Title',
      ...sample.map((p) => `${p.domain},${p.last_name},${p.first_name},Engineer`),
      `${unknown.domain},${unknown.last_name},${unknown.first_name},Ghost`,
      'strict.test,,Nobody,Missing last name',
      'not a domain!,Smith,Ann,Bad domain',
    ];
    const dup0 = await t.call({ method: 'POST', url: '/api/v1/email_finder/bulk_upload/check_duplicate', token: owner.token, payload: { file_name: 'people.csv' } });
    expect(dup0.body.data.is_duplicate).toBe(false);
    const res = await upload(owner, 'people.csv', lines.join('\n'), { list_name: 'People', first_name_column: '2', last_name_column: '1', domain_column: '0' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const list = ZFinderListResponse.parse(res.body).data;
    expect(list).toMatchObject({ state: 'not_processed', counts: { rows: 23, searchable: 21, skipped: 2, duplicate: 0 }, mapping: { first_name: 2, last_name: 1, domain: 0 } });
    const dup1 = await t.call({ method: 'POST', url: '/api/v1/email_finder/bulk_upload/check_duplicate', token: owner.token, payload: { file_name: 'people.csv' } });
    expect(dup1.body.data.is_duplicate).toBe(true);

    // Another organisation's list id answers 404 everywhere.
    for (const [method, url, payload] of [
      ['POST', '/api/v1/email_finder/list/find_emails', { list_id: list.id }],
      ['POST', '/api/v1/email_finder/list/cancel', { list_id: list.id }],
      ['POST', '/api/v1/email_finder/list/remove', { list_id: list.id }],
      ['POST', '/api/v1/email_finder/download/result', { list_id: list.id }],
      ['GET', `/api/v1/email_finder/bulk/progress_status?list_id=${list.id}`, undefined],
    ] as const) {
      const r = await t.call({ method, url, token: stranger.token, ...(payload ? { payload } : {}) });
      expect(r.status, url).toBe(404);
    }
    const lists = await t.call({ method: 'POST', url: '/api/v1/email_finder/list', token: stranger.token, payload: {} });
    expect(lists.body.data.total).toBe(0);

    const before = await getOrgBalance(t.db.db, owner.orgId);
    const start = await t.call({ method: 'POST', url: '/api/v1/email_finder/list/find_emails', token: owner.token, payload: { list_id: list.id } });
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    expect(start.body.data.state).toBe('in_progress');
    await jobs.runUntilIdle({ includeDelayed: true });
    const progress = await t.call({ method: 'GET', url: `/api/v1/email_finder/bulk/progress_status?list_id=${list.id}`, token: owner.token });
    expect(progress.body.data).toMatchObject({ state: 'processed', progress: 100, processed: 21, total: 21 });
    // 21 people in chunks of 10: three chunk jobs, any of which any worker could have taken.
    const chunks = await selectRows<{ n: number }>(t.db.db, sql`select count(*)::int as n from pgboss.job where data->>'kind' = 'email_finder.find_chunk' and data->'payload'->>'listId' = ${list.id}`);
    expect(chunks[0]?.n).toBe(3);
    const stats = progress.body.data.stats;
    expect(stats.found).toBeGreaterThanOrEqual(19);
    expect(stats.not_found).toBe(21 - stats.found);
    expect(stats.billable).toBe(stats.found);
    expect(await getOrgBalance(t.db.db, owner.orgId)).toBe(before - stats.found);
    expect(await charges(owner.orgId, 'bulk_finder')).toHaveLength(stats.found);
    const done = await t.db.db.select().from(events).where(and(eq(events.orgId, owner.orgId), eq(events.type, 'email_finder.bulk.completed')));
    expect(done).toHaveLength(1);

    const dl = await prepared(await t.call({ method: 'POST', url: '/api/v1/email_finder/download/result', token: owner.token, payload: { list_id: list.id, format: 'all' } }));
    expect(dl.status).toBe(200);
    const csv = await t.app.inject({ method: 'GET', url: `/api/v1/public/download_email_finder_history?download_token=${encodeURIComponent(dl.body.data.download_token)}` });
    const rows = csv.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(rows[0]).toBe('Company Domain,Last,First,Title,email,status,confidence_score,catch_all,business,role,pattern,reason,reason_text,duplicate');
    expect(rows).toHaveLength(24);
    const right = sample.filter((p) => rows.some((r) => r.includes(`,${p.email},found,`)));
    expect(right.length / sample.length).toBeGreaterThanOrEqual(0.95);
    expect(rows.some((r) => r.includes('Missing last name') && r.includes(',skipped,'))).toBe(true);

    const xl = await prepared(await t.call({ method: 'POST', url: '/api/v1/email_finder/download/result', token: owner.token, payload: { list_id: list.id, format: 'found', file_type: 'xlsx' } }));
    const file = await t.app.inject({ method: 'GET', url: `/api/v1/public/download_email_finder_history?download_token=${encodeURIComponent(xl.body.data.download_token)}` });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    expect(wb.worksheets[0]!.rowCount).toBe(stats.found + 1);

    const removed = await t.call({ method: 'POST', url: '/api/v1/email_finder/list/remove', token: owner.token, payload: { list_id: list.id } });
    expect(removed.status).toBe(200);
    const gone = await t.call({ method: 'GET', url: `/api/v1/email_finder/bulk/progress_status?list_id=${list.id}`, token: owner.token });
    expect(gone.status).toBe(404);
  }, 60_000);

  it('searches a repeated person once, charges once, and scores a person alike in quick and bulk', async () => {
    const [p0, p1] = strictPeople().slice(31, 33);
    const quick = await instant(owner, { first_name: p0!.first_name, last_name: p0!.last_name, domain: p0!.domain });
    expect(quick.body.data).toMatchObject({ status: 'found', email: p0!.email });
    const lines = [
      'First,Last,Domain',
      `${p0!.first_name},${p0!.last_name},${p0!.domain}`,
      `${p1!.first_name},${p1!.last_name},${p1!.domain}`,
      `  ${p0!.first_name.toUpperCase()} ,${p0!.last_name.toLowerCase()},https://www.${p0!.domain}/`,
      `${p1!.first_name},${p1!.last_name},${p1!.domain.toUpperCase()}`,
    ];
    const res = await upload(owner, 'repeats.csv', lines.join('\n'), { first_name_column: '0', last_name_column: '1', domain_column: '2' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const list = ZFinderListResponse.parse(res.body).data;
    expect(list.counts).toMatchObject({ rows: 4, searchable: 2, duplicate: 2, skipped: 0 });
    const before = await getOrgBalance(t.db.db, owner.orgId);
    await t.call({ method: 'POST', url: '/api/v1/email_finder/list/find_emails', token: owner.token, payload: { list_id: list.id } });
    await jobs.runUntilIdle({ includeDelayed: true });
    const progress = await t.call({ method: 'GET', url: `/api/v1/email_finder/bulk/progress_status?list_id=${list.id}`, token: owner.token });
    expect(progress.body.data).toMatchObject({ state: 'processed', processed: 2, total: 2, stats: { found: 2, billable: 2 } });
    expect(await getOrgBalance(t.db.db, owner.orgId)).toBe(before - 2);
    const listCharges = (await charges(owner.orgId, 'bulk_finder')).filter((c) => String(c.objectId).startsWith(`${list.id}:`));
    expect(listCharges.map((c) => c.objectId).sort()).toEqual([`${list.id}:1`, `${list.id}:2`]);

    const dl = await prepared(await t.call({ method: 'POST', url: '/api/v1/email_finder/download/result', token: owner.token, payload: { list_id: list.id, format: 'found' } }));
    const csv = await t.app.inject({ method: 'GET', url: `/api/v1/public/download_email_finder_history?download_token=${encodeURIComponent(dl.body.data.download_token)}` });
    const rows = csv.body.replace(/^\uFEFF/, '').trim().split('\r\n').map((r) => r.split(','));
    const header = rows[0]!;
    const col = (name: string) => header.indexOf(name);
    expect(col('duplicate')).toBeGreaterThan(0);
    expect(rows).toHaveLength(5);
    const [r1, r2, r3, r4] = rows.slice(1);
    expect([r1, r2, r3, r4].map((r) => r![col('duplicate')])).toEqual(['no', 'no', 'yes', 'yes']);
    expect(r3![col('email')]).toBe(p0!.email);
    expect(r4![col('email')]).toBe(p1!.email);
    // One scoring: the bulk result of the person found by the quick search scores as the quick search did.
    expect(Number(r1![col('confidence_score')])).toBe(quick.body.data.confidence_score);
    expect(r3![col('confidence_score')]).toBe(r1![col('confidence_score')]);

    // A file asked for just before its list is removed is cancelled by the job with the reason, never half-written.
    const late = await t.call({ method: 'POST', url: '/api/v1/email_finder/download/result', token: owner.token, payload: { list_id: list.id, format: 'all' } });
    expect(late.body.data.state).toBe('queued');
    expect((await t.call({ method: 'POST', url: '/api/v1/email_finder/list/remove', token: owner.token, payload: { list_id: list.id } })).status).toBe(200);
    await t.deps.queue.runUntilIdle();
    const gone = await t.call({ method: 'GET', url: `/api/v1/download/result/status?queue_id=${late.body.data.queue_id}`, token: owner.token });
    expect(gone.body.data).toMatchObject({ state: 'cancelled', error: 'The list was removed', download_url: null });
  }, 60_000);

  it('reads XLSX uploads with a full-name column, and a cancelled list bills nothing it did not finish', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('People');
    ws.addRow(['Name', 'Website']);
    for (const p of strictPeople().slice(21, 31)) ws.addRow([`${p.first_name} ${p.last_name}`, p.domain]);
    const buf = Buffer.from(await wb.xlsx.writeBuffer());
    const res = await upload(owner, 'people.xlsx', buf, { full_name_column: '0', domain_column: '1' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const list = ZFinderListResponse.parse(res.body).data;
    expect(list.counts.searchable).toBe(10);
    const before = (await charges(owner.orgId, 'bulk_finder')).length;
    await t.call({ method: 'POST', url: '/api/v1/email_finder/list/find_emails', token: owner.token, payload: { list_id: list.id } });
    const cancelled = await t.call({ method: 'POST', url: '/api/v1/email_finder/list/cancel', token: owner.token, payload: { list_id: list.id } });
    expect(cancelled.body.data.state).toBe('cancelled');
    await jobs.runUntilIdle({ includeDelayed: true });
    expect((await charges(owner.orgId, 'bulk_finder')).length).toBe(before);
    const view = await t.call({ method: 'POST', url: '/api/v1/email_finder/list', token: owner.token, payload: { list_id: list.id } });
    expect(view.body.data.items[0]).toMatchObject({ state: 'cancelled', counts: { processed: 0 } });
    const log = await t.call({ method: 'POST', url: '/api/v1/user/activities', token: owner.token, payload: { type: 'find_emails', limit: 100 } });
    const entry = (log.body.data.items as { description: string; metadata: Record<string, unknown> }[]).find((a) => a.metadata.list_id === list.id && a.metadata.cancelled);
    expect(entry?.metadata).toMatchObject({ processed: 0, credits_charged: 0 });
    expect(entry?.description).toMatch(/^Cancelled the search of .*0 credits charged$/);
    // Resuming finishes it.
    await t.call({ method: 'POST', url: '/api/v1/email_finder/list/find_emails', token: owner.token, payload: { list_id: list.id } });
    await jobs.runUntilIdle({ includeDelayed: true });
    const after = await t.call({ method: 'GET', url: `/api/v1/email_finder/bulk/progress_status?list_id=${list.id}`, token: owner.token });
    expect(after.body.data).toMatchObject({ state: 'processed', processed: 10 });
    expect(after.body.data.stats.found).toBeGreaterThanOrEqual(9);
  }, 60_000);

  it('refuses bad uploads: no mapping, a missing column, a wrong type and files over 20,000,000 bytes', async () => {
    const noMap = await upload(owner, 'a.csv', 'First,Last,Domain\nAnn,Lee,strict.test\n', {});
    expect(noMap.status).toBe(400);
    expect(noMap.body.error.reasons.map((r: { field: string }) => r.field)).toEqual(expect.arrayContaining(['first_name_column', 'domain_column']));
    const badCol = await upload(owner, 'a.csv', 'First,Last,Domain\nAnn,Lee,strict.test\n', { first_name_column: '0', last_name_column: '1', domain_column: '7' });
    expect(badCol.status).toBe(400);
    expect(badCol.body.error.reasons[0].field).toBe('domain_column');
    const txt = await upload(owner, 'a.txt', 'Ann Lee strict.test\n', { first_name_column: '0', domain_column: '1' });
    expect(txt.status).toBe(400);
    const big = Buffer.alloc(20_000_001, 'a');
    const tooBig = await upload(owner, 'big.csv', big, { first_name_column: '0', domain_column: '1' });
    expect(tooBig.status).toBe(413);
    const lists = await t.call({ method: 'POST', url: '/api/v1/email_finder/list', token: owner.token, payload: { search: 'big' } });
    expect(lists.body.data.total).toBe(0);
  }, 60_000);

  it('reads a list in the analysis job: no search before it is read, and a long file with nobody searchable says why', async () => {
    const someone = await t.createOwner('analysis@ef.test');
    const mp = buildMultipart('pending.csv', 'First,Last,Domain\nAnn,Lee,strict.test\n', { first_name_column: '0', last_name_column: '1', domain_column: '2' });
    const up = await t.call({ method: 'POST', url: '/api/v1/email_finder/bulk_upload', token: someone.token, payload: mp.payload, headers: mp.headers });
    expect(up.status).toBe(200);
    const early = await t.call({ method: 'POST', url: '/api/v1/email_finder/list/find_emails', token: someone.token, payload: { list_id: up.body.data.id } });
    expect(early.status).toBe(409);
    expect(early.body.error.message).toBe('The file is still being read; please wait a moment');
    await t.deps.queue.runUntilIdle();

    // 80 rows (more than the request reads) where nobody has a domain: the analysis, not the upload, refuses it.
    const rows = ['First,Last,Domain', ...Array.from({ length: 80 }, (_, i) => `Ann${i},Lee,`)];
    const long = await upload(someone, 'nobody.csv', rows.join('\n'), { first_name_column: '0', last_name_column: '1', domain_column: '2' });
    expect(long.status).toBe(200);
    expect(long.body.data).toMatchObject({ state: 'not_processed', activity: null, counts: { rows: 0, searchable: 0 }, stopped_reason: 'No row has both a name and a valid domain with this column mapping' });
  });

  it('points a person repeated far down a long file at the first row, across the analysis batches', async () => {
    const someone = await t.createOwner('long-repeats@ef.test');
    // 3,500 rows (several batches of the analysis); rows 2 and 3,400 are the same person, as are rows 1,500 and 2,900
    // (written differently: case and spaces), and row 3,401 repeats row 3,400's person within its batch.
    // Names are folded to letters, so each person gets a letters-only name of their own.
    const letters = (i: number) => Array.from(String(i), (d) => 'abcdefghij'[Number(d)]).join('');
    const person = (i: number) => `Ann${letters(i)},Lee${letters(i)},co${i % 97}.test`;
    const rows = ['First,Last,Domain', ...Array.from({ length: 3_500 }, (_, i) => person(i + 1))];
    rows[3_400] = person(2);
    rows[2_900] = ` ANN${letters(1_500).toUpperCase()} , lee${letters(1_500)} ,CO${1_500 % 97}.TEST`;
    rows[3_401] = person(2);
    const up = await upload(someone, 'long-repeats.csv', rows.join('\n'), { first_name_column: '0', last_name_column: '1', domain_column: '2' });
    expect(up.status).toBe(200);
    expect(up.body.data.counts).toMatchObject({ rows: 3_500, searchable: 3_497, duplicate: 3, skipped: 0 });
    const repeats = await selectRows<{ row_number: number; first: number }>(
      t.db.db,
      sql`select row_number, (result->>'duplicate_of')::int as first from finder_list_rows where list_id = ${up.body.data.id} and status = 'duplicate' order by row_number`,
    );
    expect(repeats.map((r) => [Number(r.row_number), Number(r.first)])).toEqual([
      [2_900, 1_500],
      [3_400, 2],
      [3_401, 2],
    ]);
  });

});
