import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ZInstantVerifyResponse, ZVerifyListResponse, ZVerifyListsResponse, type TSourceAgent } from '@verilead/contracts';
import { chargeCredits, getOrgBalance, grantCredits } from '../../platform/credits/ledger';
import { creditTransactions } from '../../platform/credits/tables';
import { events } from '../events/tables';
import { buildMultipart, createWorldApp, fetchListExport, type TWorldApp } from './test-support';
import { verifyListEmails } from './tables';

type TUser = { token: string; userId: string; orgId: string };

describe('email verifier API', () => {
  let w: TWorldApp;
  let owner: TUser;
  let stranger: TUser;

  const upload = (user: TUser, name: string, content: Buffer | string, fields: Record<string, string> = {}) => {
    const mp = buildMultipart(name, content, fields);
    return w.t.call({ method: 'POST', url: '/api/v1/email_verify/bulk_upload', token: user.token, payload: mp.payload, headers: mp.headers });
  };
  const listCount = async (orgId: string) =>
    Number(((await w.t.db.db.execute(sql`select count(*)::int as n from verify_lists where org_id = ${orgId}`)) as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0);
  const storedFiles = async () => {
    try {
      return (await readdir(w.storageDir, { recursive: true, withFileTypes: true })).filter((f) => f.isFile()).map((f) => join(f.parentPath, f.name));
    } catch {
      return [];
    }
  };
  const charges = (orgId: string, agent: TSourceAgent) =>
    w.t.db.db
      .select()
      .from(creditTransactions)
      .where(and(eq(creditTransactions.orgId, orgId), eq(creditTransactions.kind, 'charge'), eq(creditTransactions.sourceAgent, agent)));

  beforeAll(async () => {
    w = await createWorldApp();
    owner = await w.t.createOwner('owner@ev.test');
    stranger = await w.t.createOwner('stranger@ev.test');
    await w.t.db.transaction((tx) => grantCredits(tx, { orgId: owner.orgId, amount: 5_000, reason: 'Test top-up' }));
  });
  afterAll(async () => {
    await w?.close();
  });

  it('verifies each verdict kind instantly and charges only billable results', async () => {
    const cases = [
      { email: 'alice@strict.test', status: 'valid', charged: 1 },
      { email: 'no.such.user@strict.test', status: 'invalid', charged: 1 },
      { email: 'anyone@acceptall.test', status: 'catch_all', charged: 1 },
      { email: 'grace@policy.test', status: 'unknown', charged: 0 },
      { email: 'plainaddress', status: 'invalid', charged: 0 },
    ];
    for (const c of cases) {
      const before = await getOrgBalance(w.t.db.db, owner.orgId);
      const res = await w.t.call({ method: 'POST', url: '/api/v1/email_verify/instant', token: owner.token, payload: { email: c.email } });
      expect(res.status, c.email).toBe(200);
      const d = ZInstantVerifyResponse.parse(res.body).data;
      expect(d.status, c.email).toBe(c.status);
      expect(d.credits_charged, c.email).toBe(c.charged);
      expect(Date.parse(d.safe_to_send_until) - Date.parse(d.verified_on)).toBe(24 * 3_600_000);
      if (c.status !== 'invalid' || c.charged) expect(d.transcript.length, c.email).toBeGreaterThan(0);
      expect(await getOrgBalance(w.t.db.db, owner.orgId)).toBe(before - c.charged);
    }
    expect((await charges(owner.orgId, 'instant_verify')).length).toBe(3);
    const recent = await w.t.call({ method: 'GET', url: '/api/v1/email_verify/instant/recent?limit=10', token: owner.token });
    expect(recent.status, JSON.stringify(recent.body)).toBe(200);
    expect(recent.body.data.items.map((i: { email: string }) => i.email)[0]).toBe('plainaddress');
    expect(recent.body.data.items).toHaveLength(5);
    const ev = await w.t.db.db.select().from(events).where(and(eq(events.orgId, owner.orgId), eq(events.type, 'email_verifier.instant.completed')));
    expect(ev).toHaveLength(5);
    const bad = await w.t.call({ method: 'POST', url: '/api/v1/email_verify/instant', token: owner.token, payload: { email: '' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.reasons[0].field).toBe('email');
  });

  it('answers 402 with required_credits when the organisation has no credits', async () => {
    const poor = await w.t.createOwner('poor@ev.test');
    const balance = await getOrgBalance(w.t.db.db, poor.orgId);
    await w.t.db.transaction((tx) => chargeCredits(tx, { orgId: poor.orgId, amount: balance, reason: 'drain' }));
    const res = await w.t.call({ method: 'POST', url: '/api/v1/email_verify/instant', token: poor.token, payload: { email: 'alice@strict.test' } });
    expect(res.status).toBe(402);
    expect(res.body.error.additional_info.required_credits).toBe(1);
    const up = await upload(poor, 'poor.csv', 'email\nalice@strict.test\njohn.smith@strict.test\n');
    expect(up.status).toBe(200);
    await w.t.deps.queue.runUntilIdle();
    const v = await w.t.call({ method: 'POST', url: '/api/v1/email_verify/list/verify', token: poor.token, payload: { list_id: up.body.data.id } });
    expect(v.status).toBe(402);
    expect(v.body.error.additional_info.required_credits).toBe(2);
  });

  it('finds duplicates across the analysis batches: a repeat far down the file is a duplicate, a new address is unique', async () => {
    const first = Array.from({ length: 12_000 }, (_, i) => `person${i}@acceptall.test`);
    // Rows 12,001 on: 150 case-variant repeats of early rows, then 50 new addresses, then bad rows.
    const rows = [...first, ...first.slice(0, 150).map((e) => e.toUpperCase()), ...Array.from({ length: 50 }, (_, i) => `late${i}@acceptall.test`), 'not-an-email'];
    const someone = await w.t.createOwner('far-duplicates@ev.test');
    const up = await upload(someone, 'far-duplicates.txt', rows.join('\n'));
    expect(up.status).toBe(200);
    await w.t.deps.queue.runUntilIdle();
    const p = await w.t.call({ method: 'POST', url: '/api/v1/email_verify/list', token: someone.token, payload: { list_id: up.body.data.id } });
    expect(p.body.data.items[0].counts).toMatchObject({ rows: 12_201, unique: 12_050, duplicate: 150, syntax_error: 1 });
  });

  it('uploads a CSV with duplicates and bad rows, verifies it against the mail world and exports every format', async () => {
    const known = w.world.truth;
    const good = ['alice@strict.test', 'john.smith@strict.test', 'no.such.user@strict.test', 'anyone@acceptall.test', 'grace@policy.test', 'carol@greylist.test', 'ivan@fullbox.test', 'heidi@fullbox.test', 'peggy@nullmx.test', 'jane.doe@outlook.com', 'john.smith@gmail.com'];
    const rows = [
      'name,Email,company',
      ...good.map((e, i) => `Person ${i},${e},Acme`),
      'Dup One,ALICE@strict.test,Acme', // case duplicate
      'Dup Two,john.s.mith+news@gmail.com,Acme', // Gmail dots and +tag duplicate
      'Bad One,not-an-email,Acme',
      'Bad Two,,Acme',
      '=cmd,"=HYPERLINK(""x"")@strict.test",Evil',
    ];
    const check = await w.t.call({ method: 'POST', url: '/api/v1/email_verify/bulk_upload/check_duplicate', token: owner.token, payload: { file_name: 'leads.csv' } });
    expect(check.body.data.is_duplicate).toBe(false);
    const preview = buildMultipart('leads.csv', rows.join('\n'));
    const pv = await w.t.call({ method: 'POST', url: '/api/v1/email_verify/bulk_upload/preview', token: owner.token, payload: preview.payload, headers: preview.headers });
    expect(pv.status, JSON.stringify(pv.body)).toBe(200);
    expect(pv.body.data).toMatchObject({ has_header: true, email_column: 1, columns: ['name', 'Email', 'company'] });

    const up = await upload(owner, 'leads.csv', rows.join('\n'), { list_name: 'My leads' });
    expect(up.status).toBe(200);
    const listId = up.body.data.id as string;
    expect(up.body.data).toMatchObject({ name: 'My leads', source: 'upload', state: 'non_verified', analysis: { state: 'pending' } });
    expect((await w.t.call({ method: 'POST', url: '/api/v1/email_verify/bulk_upload/check_duplicate', token: owner.token, payload: { file_name: 'LEADS.csv' } })).body.data.is_duplicate).toBe(true);
    await w.t.deps.queue.runUntilIdle();
    const listed = await w.t.call({ method: 'POST', url: '/api/v1/email_verify/list', token: owner.token, payload: { list_id: listId } });
    const list = ZVerifyListsResponse.parse(listed.body).data.items[0]!;
    // The formula cell is not a valid address: a third syntax error.
    expect(list.counts).toMatchObject({ rows: 16, duplicate: 2, syntax_error: 3, unique: 11, verified: 0, remaining: 11 });
    expect(list.cost.credits_required).toBe(11);

    const before = await getOrgBalance(w.t.db.db, owner.orgId);
    const start = await w.t.call({ method: 'POST', url: '/api/v1/email_verify/list/verify', token: owner.token, payload: { list_id: listId } });
    expect(start.status).toBe(200);
    expect(start.body.data.state).toBe('in_progress');
    expect((await w.t.call({ method: 'GET', url: `/api/v1/email_verify/list/remove?list_id=${listId}`, token: owner.token })).body.data.can_remove).toBe(false);
    // carol@greylist.test waits for its greylist re-check (a delayed job, taken here when due)
    await w.t.deps.queue.runUntilIdle({ includeDelayed: true });
    const progress = await w.t.call({ method: 'GET', url: `/api/v1/email_verify/bulk/progress_status?list_id=${listId}`, token: owner.token });
    expect(progress.body.data).toMatchObject({ state: 'verified', progress: 100, verified: 11, total: 11 });
    const stats = progress.body.data.stats;
    // Every address's verdict equals the mail world's truth.
    const stored = await w.t.db.db.select().from(verifyListEmails).where(and(eq(verifyListEmails.listId, listId), eq(verifyListEmails.kind, 'unique')));
    for (const r of stored) {
      const truth = known.get(r.email.toLowerCase());
      if (truth) expect(r.status, r.email).toBe(truth.status);
    }
    const billable = stored.filter((r) => r.billable).length;
    expect(stats.billable).toBe(billable);
    expect(stats.valid + stats.invalid + stats.catch_all + stats.unknown).toBe(11);
    expect(stats).toMatchObject({ total: 16, duplicate: 2, syntax_error: 3 });
    expect(stats.deliverability_score).toBeGreaterThan(0);
    expect(await getOrgBalance(w.t.db.db, owner.orgId)).toBe(before - billable);
    const listCharges = (await charges(owner.orgId, 'bulk_verify')).filter((c) => c.objectId?.startsWith(listId));
    expect(listCharges).toHaveLength(billable);
    const done = await w.t.db.db.select().from(events).where(and(eq(events.orgId, owner.orgId), eq(events.type, 'email_verifier.bulk.completed')));
    expect(done).toHaveLength(1);
    expect(done[0]!.payload).toMatchObject({ list_id: listId, stats: { total: 16 } });

    // Exports: every format, CSV and XLSX, through expiring tokens.
    const fetchFile = (body: Record<string, unknown>) => fetchListExport(w, owner.token, listId, body);
    const csvRows = (text: string) => text.replace(/^\uFEFF/, '').trim().split('\r\n');
    const standard = await fetchFile({ format: 'standard', file_type: 'csv' });
    const std = csvRows(standard.file.body);
    expect(std).toHaveLength(17);
    // The uploaded columns come first (name, Email, company), then the results.
    expect(std[0]).toMatch(/^name,Email,company,status,reason,safe_to_send/);
    expect(std.some((l) => l.startsWith(`'=cmd,"'=HYPERLINK`))).toBe(true);
    expect(std.some((l) => l.startsWith('=') || l.startsWith('"='))).toBe(false);
    const statusOf = (email: string) => stored.find((r) => r.email === email)?.status;
    const guaranteed = csvRows((await fetchFile({ format: 'guaranteed_deliverables' })).file.body).slice(1);
    expect(guaranteed.length).toBeGreaterThan(0);
    for (const l of guaranteed) expect(statusOf(l.split(',')[1]!)).toBe('valid');
    const non = csvRows((await fetchFile({ format: 'non_deliverables' })).file.body).slice(1);
    expect(non.length).toBe(stats.invalid + 3);
    const risky = csvRows((await fetchFile({ format: 'deliverables_with_risk' })).file.body).slice(1);
    for (const l of risky) expect(['catch_all', 'unknown', 'valid']).toContain(statusOf(l.split(',')[1]!));
    expect(guaranteed.length + non.length + risky.length).toBe(14);
    const custom = await fetchFile({ format: 'custom', columns: ['email', 'domain', 'duplicate'], file_type: 'xlsx' });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(custom.file.rawPayload as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0]!;
    expect(sheet.rowCount).toBe(17);
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(['name', 'Email', 'company', 'email', 'domain', 'duplicate']);
    // The uploaded file comes back as a new CSV of its rows, formulas neutralised.
    const input = await fetchFile({ kind: 'input' });
    expect(input.file.body.replace(/^\uFEFF/, '').split('\r\n')[0]).toBe('name,Email,company');
    expect(input.file.body).not.toMatch(/(^|,|\n)"?=/);
    const noCols = await w.t.call({ method: 'POST', url: '/api/v1/download/result', token: owner.token, payload: { list_id: listId, format: 'custom' } });
    expect(noCols.status).toBe(400);
    const forged = await w.t.app.inject({ method: 'GET', url: `/api/v1/public/download?download_token=${standard.d.download_id}.9999999999.forgedmacforgedmac` });
    expect(forged.statusCode).toBe(400);
    const expired = await w.t.app.inject({ method: 'GET', url: `/api/v1/public/download?download_token=${standard.d.download_token!.replace(/\.\d+\./, '.1000.')}` });
    expect(expired.statusCode).toBe(400);

    // Another organisation sees none of it.
    for (const call of [
      { method: 'POST' as const, url: '/api/v1/email_verify/list/verify', payload: { list_id: listId } },
      { method: 'POST' as const, url: '/api/v1/email_verify/list/cancel', payload: { list_id: listId } },
      { method: 'POST' as const, url: '/api/v1/email_verify/list/remove', payload: { list_id: listId } },
      { method: 'GET' as const, url: `/api/v1/email_verify/list/remove?list_id=${listId}` },
      { method: 'GET' as const, url: `/api/v1/email_verify/bulk/progress_status?list_id=${listId}` },
      { method: 'POST' as const, url: '/api/v1/email_verify/list/export', payload: { list_id: listId } },
      { method: 'POST' as const, url: '/api/v1/download/result', payload: { list_id: listId } },
      { method: 'GET' as const, url: `/api/v1/download/result/status?queue_id=${standard.d.queue_id}` },
    ]) {
      const res = await w.t.call({ ...call, token: stranger.token });
      expect(res.status, call.url).toBe(404);
    }
    const theirs = await w.t.call({ method: 'POST', url: '/api/v1/email_verify/list', token: stranger.token, payload: {} });
    expect(theirs.body.data.total).toBe(0);

    // Removal.
    expect((await w.t.call({ method: 'GET', url: `/api/v1/email_verify/list/remove?list_id=${listId}`, token: owner.token })).body.data.can_remove).toBe(true);
    const removed = await w.t.call({ method: 'POST', url: '/api/v1/email_verify/list/remove', token: owner.token, payload: { list_id: listId } });
    expect(removed.status).toBe(200);
    expect((await w.t.call({ method: 'GET', url: `/api/v1/email_verify/bulk/progress_status?list_id=${listId}`, token: owner.token })).status).toBe(404);
  });

  it('pages, searches and sorts lists and validates the query', async () => {
    for (const n of ['alpha', 'beta', 'gamma']) expect((await upload(owner, `${n}.txt`, 'alice@strict.test\nbob@strict.test\n')).status).toBe(200);
    await w.t.deps.queue.runUntilIdle();
    const res = await w.t.call({ method: 'POST', url: '/api/v1/email_verify/list', token: owner.token, payload: { search: 'a', sort_by: 'name', sort_order: 'asc', limit: 25 } });
    const names = res.body.data.items.map((l: { name: string }) => l.name);
    expect(names.slice(0, 3)).toEqual(['alpha', 'beta', 'gamma']);
    const filtered = await w.t.call({ method: 'POST', url: '/api/v1/email_verify/list', token: owner.token, payload: { search: 'bet' } });
    expect(filtered.body.data.total).toBe(1);
    expect(filtered.body.data.items[0].counts).toMatchObject({ rows: 2, unique: 2 });
    for (const bad of [{ limit: 30 }, { page: 0 }, { state: 'done' }, { sort_by: 'size' }]) {
      expect((await w.t.call({ method: 'POST', url: '/api/v1/email_verify/list', token: owner.token, payload: bad })).status).toBe(400);
    }
  });

  it('refuses bad files with clear 4xx answers and stores nothing', async () => {
    const lists = await listCount(owner.orgId);
    const files = await storedFiles();
    const xlsxHead = Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const cases: { name: string; content: Buffer | string; fields?: Record<string, string>; status: number; message: RegExp }[] = [
      { name: 'empty.csv', content: '', status: 400, message: /empty/i },
      { name: 'binary.csv', content: Buffer.from([0, 1, 2, 3, 255, 254, 0, 0, 9, 10]), status: 400, message: /binary|UTF-8/i },
      { name: 'names.csv', content: 'name,company\nAda,Acme\nBob,Initech\n', status: 400, message: /no column with email/i },
      { name: 'wrong.csv', content: 'name,email\nAda,ada@strict.test\n', fields: { email_column: '0' }, status: 400, message: /column 1 holds no email/i },
      { name: 'far.csv', content: 'name,email\nAda,ada@strict.test\n', fields: { email_column: '7' }, status: 400, message: /does not exist/i },
      { name: 'broken.xlsx', content: xlsxHead, status: 400, message: /XLSX/ },
      { name: 'fake.xlsx', content: 'email\nada@strict.test\n', status: 400, message: /not a valid XLSX/ },
      { name: 'list.pdf', content: 'email\nada@strict.test\n', status: 400, message: /\.csv, \.xlsx or \.txt/ },
      { name: 'huge.csv', content: Buffer.alloc(20_000_001, 0x61), status: 413, message: /20,000,000 bytes/ },
    ];
    for (const c of cases) {
      const res = await upload(owner, c.name, c.content, c.fields);
      expect(res.status, c.name).toBe(c.status);
      expect(res.body.status, c.name).toBe('failed');
      expect(res.body.error.message, c.name).toMatch(c.message);
    }
    const noFile = await w.t.call({ method: 'POST', url: '/api/v1/email_verify/bulk_upload', token: owner.token, payload: { a: 1 } });
    expect(noFile.status).toBe(415);
    const badField = await upload(owner, 'ok.csv', 'email\nada@strict.test\n', { email_column: 'second' });
    expect(badField.status).toBe(400);
    expect(badField.body.error.reasons[0].field).toBe('email_column');
    for (const headers of [{ 'content-type': 'multipart/form-data' }, { 'content-type': 'multipart/form-data; boundary=xyz' }]) {
      const res = await w.t.call({ method: 'POST', url: '/api/v1/email_verify/bulk_upload', token: owner.token, payload: 'garbage without parts', headers });
      expect(res.status, JSON.stringify(headers)).toBeGreaterThanOrEqual(400);
      expect(res.status, JSON.stringify(headers)).toBeLessThan(500);
    }
    const fieldOnly = buildMultipart('x.csv', 'email\nada@strict.test\n');
    const wrongName = fieldOnly.payload.toString('latin1').replace('name="file"', 'name="upload"');
    const wrong = await w.t.call({ method: 'POST', url: '/api/v1/email_verify/bulk_upload', token: owner.token, payload: Buffer.from(wrongName, 'latin1'), headers: fieldOnly.headers });
    expect(wrong.status).toBe(400);
    expect(await listCount(owner.orgId)).toBe(lists);
    expect(await storedFiles(), JSON.stringify(await storedFiles())).toEqual(files);
  });

  it('reads XLSX uploads', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Contacts');
    ws.addRow(['Name', 'E-mail']);
    ws.addRow(['Alice', 'alice@strict.test']);
    ws.addRow(['Alice again', 'Alice@Strict.test']);
    ws.addRow(['Ghost', 'no.such.user@strict.test']);
    const buf = Buffer.from(await wb.xlsx.writeBuffer());
    const res = await upload(owner, 'contacts.xlsx', buf);
    expect(res.status).toBe(200);
    await w.t.deps.queue.runUntilIdle();
    const p = await w.t.call({ method: 'POST', url: '/api/v1/email_verify/list', token: owner.token, payload: { list_id: res.body.data.id } });
    expect(p.body.data.items[0].counts).toMatchObject({ rows: 3, unique: 2, duplicate: 1, syntax_error: 0 });
  });

  it('cancels a running list and bills only what finished', async () => {
    const addresses = [...Array.from({ length: 300 }, (_, i) => `nobody${i}@acceptall.test`), ...Array.from({ length: 200 }, (_, i) => `ghost${i}@greylist.test`)];
    const up = await upload(owner, 'cancel.txt', addresses.join('\n'));
    await w.t.deps.queue.runUntilIdle();
    const listId = up.body.data.id as string;
    const before = await getOrgBalance(w.t.db.db, owner.orgId);
    const start = ZVerifyListResponse.parse((await w.t.call({ method: 'POST', url: '/api/v1/email_verify/list/verify', token: owner.token, payload: { list_id: listId } })).body);
    expect(start.data.state).toBe('in_progress');
    // Run the list's jobs (its plan, then its chunk) on the worker and cancel once some results are stored.
    const running = w.t.deps.queue.runUntilIdle();
    await vi.waitFor(
      async () => {
        const p = await w.t.call({ method: 'GET', url: `/api/v1/email_verify/bulk/progress_status?list_id=${listId}`, token: owner.token });
        expect(p.body.data.verified).toBeGreaterThan(0);
      },
      { timeout: 10_000, interval: 25 },
    );
    const cancel = await w.t.call({ method: 'POST', url: '/api/v1/email_verify/list/cancel', token: owner.token, payload: { list_id: listId } });
    expect(cancel.status).toBe(200);
    expect(cancel.body.data.state).toBe('cancelled');
    await running;
    const stored = await w.t.db.db.select().from(verifyListEmails).where(eq(verifyListEmails.listId, listId));
    const finished = stored.filter((r) => r.status !== null);
    expect(finished.length).toBeGreaterThan(0);
    expect(finished.length).toBeLessThan(addresses.length);
    const billed = (await charges(owner.orgId, 'bulk_verify')).filter((c) => c.objectId?.startsWith(listId));
    expect(billed).toHaveLength(finished.filter((r) => r.billable).length);
    expect(await getOrgBalance(w.t.db.db, owner.orgId)).toBe(before - billed.length);
    // The cancelled list shows in Activities with what it charged.
    const log = await w.t.call({ method: 'POST', url: '/api/v1/user/activities', token: owner.token, payload: { type: 'verify', limit: 100 } });
    expect(log.status).toBe(200);
    const entry = (log.body.data.items as { description: string; metadata: Record<string, unknown> }[]).find((a) => a.metadata.list_id === listId);
    expect(entry, JSON.stringify(log.body.data.items)).toBeDefined();
    expect(entry!.metadata).toMatchObject({ cancelled: true, verified: finished.length, credits_charged: billed.length });
    expect(entry!.description).toMatch(/^Cancelled the verification of "cancel"/);
    expect(entry!.description).toContain(`${billed.length} credit`);
    const again = await w.t.call({ method: 'POST', url: '/api/v1/email_verify/list/cancel', token: owner.token, payload: { list_id: listId } });
    expect(again.status).toBe(409);
  });

  it('starts verification by itself after the analysis when auto-pilot is on', async () => {
    const pilot = await w.t.createOwner('pilot@ev.test');
    const on = await w.t.call({ method: 'PUT', url: '/api/v1/user_preferences/email_verification_settings/autopilot', token: pilot.token, payload: { auto_pilot_status: true } });
    expect(on.status).toBe(200);
    const up = await upload(pilot, 'auto.txt', 'alice@strict.test\nno.such.user@strict.test\n');
    await w.t.deps.queue.runUntilIdle();
    const p = await w.t.call({ method: 'GET', url: `/api/v1/email_verify/bulk/progress_status?list_id=${up.body.data.id}`, token: pilot.token });
    expect(p.body.data).toMatchObject({ state: 'verified', verified: 2, progress: 100 });
    // Not enough credits: the list waits, with the reason.
    const balance = await getOrgBalance(w.t.db.db, pilot.orgId);
    await w.t.db.transaction((tx) => chargeCredits(tx, { orgId: pilot.orgId, amount: balance, reason: 'drain' }));
    const up2 = await upload(pilot, 'auto2.txt', 'alice@strict.test\n');
    await w.t.deps.queue.runUntilIdle();
    const l = await w.t.call({ method: 'POST', url: '/api/v1/email_verify/list', token: pilot.token, payload: { list_id: up2.body.data.id } });
    expect(l.body.data.items[0].state).toBe('non_verified');
    expect(l.body.data.items[0].stopped_reason).toMatch(/Auto-pilot could not start.*1 credits/);
  });

  it('verifies publicly without an account and rate-limits nothing below the limit', async () => {
    const res = await w.t.call({ method: 'POST', url: '/api/v1/public/verify', payload: { email: 'alice@strict.test' } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'valid', email: 'alice@strict.test' });
    expect((await w.t.call({ method: 'POST', url: '/api/v1/public/verify', payload: {} })).status).toBe(400);
  });
});
