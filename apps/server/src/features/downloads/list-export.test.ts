import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantCredits } from '../../platform/credits/ledger';
import { buildMultipart, createWorldApp, fetchListExport, type TWorldApp } from '../email-verifier/test-support';

type TUser = { token: string; userId: string; orgId: string };

// The uploaded file: the user's own columns around the address, a formula cell and numbers.
const ROWS = [
  'name,Email,company,employees,zip',
  'Ann,alice@strict.test,Acme,42,00501',
  'Bob,no.such.user@strict.test,=HYPERLINK("x"),7,10001',
  'Cid,not-an-email,Beta,3.5,02134',
];

describe('list exports keep the uploaded columns', () => {
  let w: TWorldApp;
  let owner: TUser;
  let stranger: TUser;
  let listId: string;

  const fetchFile = (body: Record<string, unknown>) => fetchListExport(w, owner.token, listId, body);
  const csvLines = (text: string) => text.replace(/^\uFEFF/, '').trim().split('\r\n');
  const sheetRows = async (raw: Buffer) => {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(raw as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0]!;
    const out: unknown[][] = [];
    sheet.eachRow((row) => out.push((row.values as unknown[]).slice(1)));
    return out;
  };

  beforeAll(async () => {
    w = await createWorldApp();
    owner = await w.t.createOwner('owner@export.test');
    stranger = await w.t.createOwner('stranger@export.test');
    await w.t.db.transaction((tx) => grantCredits(tx, { orgId: owner.orgId, amount: 100, reason: 'Test top-up' }));
    const mp = buildMultipart('people.csv', ROWS.join('\n'));
    const up = await w.t.call({ method: 'POST', url: '/api/v1/email_verify/bulk_upload', token: owner.token, payload: mp.payload, headers: mp.headers });
    listId = up.body.data.id;
    await w.t.deps.queue.runUntilIdle();
    expect((await w.t.call({ method: 'POST', url: '/api/v1/email_verify/list/verify', token: owner.token, payload: { list_id: listId } })).status).toBe(200);
    await w.t.deps.queue.runUntilIdle();
  });
  afterAll(async () => {
    await w?.close();
  });

  it('answers the uploaded columns of a list (404 for another organisation)', async () => {
    const res = await w.t.call({ method: 'GET', url: `/api/v1/email_verify/list/columns?list_id=${listId}`, token: owner.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({ list_id: listId, columns: ['name', 'Email', 'company', 'employees', 'zip'], email_column: 1 });
    expect((await w.t.call({ method: 'GET', url: `/api/v1/email_verify/list/columns?list_id=${listId}`, token: stranger.token })).status).toBe(404);
    expect((await w.t.call({ method: 'GET', url: '/api/v1/email_verify/list/columns?list_id=nope', token: owner.token })).status).toBe(400);
  });

  it('writes the uploaded row, in order, followed by the result columns, in every format', async () => {
    const std = csvLines((await fetchFile({ format: 'standard' })).file.body);
    expect(std).toHaveLength(4);
    expect(std[0]).toMatch(/^name,Email,company,employees,zip,status,reason,safe_to_send,/);
    expect(std[1]).toMatch(/^Ann,alice@strict\.test,Acme,42,00501,valid,/);
    expect(std[2]).toMatch(/^Bob,no\.such\.user@strict\.test,"'=HYPERLINK\(""x""\)",7,10001,invalid,/);
    const guaranteed = csvLines((await fetchFile({ format: 'guaranteed_deliverables' })).file.body);
    expect(guaranteed[0]).toMatch(/^name,Email,company,employees,zip,status,/);
    expect(guaranteed.slice(1)).toEqual([expect.stringMatching(/^Ann,alice@strict\.test,Acme,42,00501,valid,/)]);
  });

  it('lets a custom download choose among the uploaded columns and the result columns', async () => {
    const custom = csvLines((await fetchFile({ format: 'custom', input_columns: [0, 1], columns: ['status', 'reason'] })).file.body);
    expect(custom[0]).toBe('name,Email,status,reason');
    expect(custom[1]).toMatch(/^Ann,alice@strict\.test,valid,/);
    const resultOnly = csvLines((await fetchFile({ format: 'custom', input_columns: [], columns: ['email', 'status'] })).file.body);
    expect(resultOnly[0]).toBe('email,status');
    const bad = await w.t.call({ method: 'POST', url: '/api/v1/email_verify/list/export', token: owner.token, payload: { list_id: listId, format: 'custom', input_columns: [9], columns: ['status'] } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('Column 10 does not exist: the file has 5 column(s)');
  });

  it('stores numbers as numbers in XLSX exports and keeps text with leading zeros as text', async () => {
    const rows = await sheetRows((await fetchFile({ format: 'standard', file_type: 'xlsx' })).file.rawPayload);
    const header = rows[0] as string[];
    expect(header.slice(0, 6)).toEqual(['name', 'Email', 'company', 'employees', 'zip', 'status']);
    const ann = rows[1]!;
    expect(ann[3]).toBe(42);
    expect(ann[4]).toBe('00501');
    expect(typeof ann[header.indexOf('deliverability_score')]).toBe('number');
    expect(rows[3]![3]).toBe(3.5);
    // A formula-looking cell is text in a workbook, never a formula.
    expect(rows[2]![2]).toBe('=HYPERLINK("x")');
  });

  it('gives the uploaded file back as a real XLSX, or as a CSV with formulas neutralised', async () => {
    const xlsx = await fetchFile({ kind: 'input', file_type: 'xlsx' });
    expect(xlsx.d.file_name).toBe('people.xlsx');
    expect(xlsx.file.rawPayload.subarray(0, 2).toString()).toBe('PK');
    const rows = await sheetRows(xlsx.file.rawPayload);
    expect(rows).toHaveLength(4);
    expect(rows[0]).toEqual(['name', 'Email', 'company', 'employees', 'zip']);
    expect(rows[1]).toEqual(['Ann', 'alice@strict.test', 'Acme', 42, '00501']);
    const csv = await fetchFile({ kind: 'input', file_type: 'csv' });
    expect(csv.d.file_name).toBe('people.csv');
    const lines = csvLines(csv.file.body);
    expect(lines[0]).toBe('name,Email,company,employees,zip');
    expect(lines[2]).toBe(`Bob,no.such.user@strict.test,"'=HYPERLINK(""x"")",7,10001`);
  });
});
