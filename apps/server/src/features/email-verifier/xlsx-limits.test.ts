import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSharedStringsBomb, buildXlsx } from '../../platform/bulk/xlsx-test-files';
import { createTestApp, type TTestApp } from '../../test/test-app';
import { buildMultipart } from './test-support';

// Issue 10 point 1: an XLSX zip bomb is refused with a clear 400 on every upload route, and the server stays up.
describe('XLSX uploads are read within limits', () => {
  let t: TTestApp;
  let storageDir: string;
  let owner: { token: string };

  beforeAll(async () => {
    storageDir = await mkdtemp(join(tmpdir(), 'vl-xlsx-'));
    t = await createTestApp({ storageDir });
    owner = await t.createOwner('owner@xlsx.test');
  });
  afterAll(async () => {
    await t?.close();
    await rm(storageDir, { recursive: true, force: true });
  });

  const post = (url: string, name: string, content: Buffer, fields: Record<string, string> = {}) => {
    const m = buildMultipart(name, content, fields);
    return t.call({ method: 'POST', url, token: owner.token, payload: m.payload, headers: m.headers });
  };

  it('refuses shared-strings bombs on preview, upload and finder upload with a readable 400, and keeps answering', async () => {
    const honest = buildSharedStringsBomb(300);
    const lying = buildSharedStringsBomb(300, { declaredSize: 1024 * 1024 });
    const before = process.memoryUsage().rss;
    const answers = await Promise.all([
      post('/api/v1/email_verify/bulk_upload/preview', 'bomb.xlsx', honest),
      post('/api/v1/email_verify/bulk_upload', 'bomb.xlsx', lying),
      post('/api/v1/email_finder/bulk_upload', 'bomb.xlsx', honest, { full_name_column: '0', domain_column: '1' }),
    ]);
    for (const res of answers) {
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.status).toBe('failed');
      expect(res.body.error.message).toMatch(/XLSX workbook (is too large to read|is damaged)/);
    }
    // Nothing near the 300 MB each bomb inflates to was held (the reader stops while inflating).
    expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 * 1024);
    const alive = await t.call({ method: 'POST', url: '/api/v1/email_verify/bulk_upload/preview', token: owner.token, ...buildMultipartOpts('ok.xlsx', buildXlsx({})) });
    expect(alive.status, JSON.stringify(alive.body)).toBe(200);
    expect(alive.body.data).toMatchObject({ email_column: 0, rows: [['a@strict.test']] });
  });

  it('answers a malformed workbook with a readable 400, never a JavaScript error', async () => {
    for (const file of [buildXlsx({ 'xl/workbook.xml': null }), buildXlsx({ 'xl/worksheets/sheet1.xml': '<worksheet><sheetData><row><c t="s"><v>9</v></c></row></sheetData></worksheet>' })]) {
      const res = await post('/api/v1/email_verify/bulk_upload/preview', 'broken.xlsx', file);
      expect(res.status).toBe(400);
      expect(res.body.error.message).not.toMatch(/Cannot read|undefined/);
      expect(res.body.error.message).toMatch(/XLSX workbook/);
    }
  });
});

function buildMultipartOpts(name: string, content: Buffer) {
  const m = buildMultipart(name, content);
  return { payload: m.payload, headers: m.headers };
}
