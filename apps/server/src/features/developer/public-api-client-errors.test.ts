// Issue 27 point 10: what a client caused is never a 503 on /v2. A multipart body cut short answers 400 on both bulk
// routes, and a result file asked for a list removed while it was being prepared answers as a missing list does
// (the reference's 1029), not "Service unavailable".
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloads } from '../downloads/tables';
import { EMPTY_FINDER_COUNTERS } from '../email-finder/queries';
import { finderLists } from '../email-finder/tables';
import { EMPTY_COUNTERS } from '../email-verifier/queries';
import { verifyLists } from '../email-verifier/tables';
import { createTestApp, type TTestApp } from '../../test/test-app';

let t: TTestApp;
let storageDir: string;
let owner: { token: string; userId: string; orgId: string };
let appToken: string;

beforeAll(async () => {
  storageDir = await mkdtemp(join(tmpdir(), 'vl-v2-errors-'));
  t = await createTestApp({ storageDir });
  owner = await t.createOwner('client-errors@verilead.test');
  const created = await t.call({ method: 'POST', url: '/api/v1/apps/create', token: owner.token, payload: { name: 'Errors', type: 'server' } });
  appToken = created.body.data.token;
}, 60_000);
afterAll(async () => {
  await t?.close();
  await rm(storageDir, { recursive: true, force: true });
});

const v2 = (method: 'GET' | 'POST', url: string, payload?: string | Record<string, unknown>, headers: Record<string, string> = {}) =>
  t.call({ method, url: `/v2${url}`, headers: { authorization: `Bearer ${appToken}`, ...headers }, ...(payload === undefined ? {} : { payload }) });

describe('a multipart body cut short', () => {
  const boundary = 'cutshort';
  // The file part starts, and the body ends before its closing boundary.
  const cut = (csv: string) => `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="people.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}`;

  it('answers 400 with the validation failure on the finder bulk route, as on the verifier one', async () => {
    for (const [url, csv] of [
      ['/email_verify/bulk', 'email\nalice@strict.test\nbob@strict.test\n'],
      ['/email_finder/bulk', 'Name,Domain\nAda Lovelace,strict.test\nAlan Turing,strict.test\n'],
    ] as const) {
      const res = await v2('POST', url, cut(csv), { 'content-type': `multipart/form-data; boundary=${boundary}` });
      expect(res.status, `${url}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body, url).toMatchObject({ status: 'failed', error: { message: 'validation failed', reasons: [{ field: ['file'], location: 'body' }] } });
    }
    // Nothing was kept of either upload.
    expect(await t.db.db.select().from(finderLists).where(eq(finderLists.orgId, owner.orgId))).toEqual([]);
    expect(await t.db.db.select().from(verifyLists).where(eq(verifyLists.orgId, owner.orgId))).toEqual([]);
  });
});

describe('a result file for a list removed meanwhile', () => {
  /** Asks for the result file, removes the list once the export is queued, then lets the export job run. */
  async function askThenRemove(url: string, listId: string, remove: () => Promise<unknown>) {
    const answer = v2('POST', url, { list_id: listId });
    // The export is queued by the request (its row is written before the request waits for the job).
    for (let i = 0; i < 500; i += 1) {
      const queued = await t.db.db.select().from(downloads).where(and(eq(downloads.orgId, owner.orgId), eq(downloads.listId, listId)));
      if (queued.length > 0) break;
      await new Promise<void>((r) => setImmediate(r));
    }
    await remove();
    await t.deps.queue.runUntilIdle();
    return answer;
  }

  it('answers the missing list (1029) on both download routes, never 503', async () => {
    const db = t.db.db;
    const [vl] = await db
      .insert(verifyLists)
      .values({ orgId: owner.orgId, userId: owner.userId, name: 'gone', fileName: 'gone.csv', fileType: 'csv', storageKey: `uploads/${owner.orgId}/gone`, sizeBytes: 10, emailColumn: 0, hasHeader: true, state: 'verified', analysisState: 'ready', counters: { ...EMPTY_COUNTERS } })
      .returning();
    const verify = await askThenRemove('/download/result', vl!.id, () => db.delete(verifyLists).where(eq(verifyLists.id, vl!.id)));
    expect(verify.status, JSON.stringify(verify.body)).toBe(200);
    expect(verify.body).toEqual({ status: 'failed', error: { code: 1029, message: 'List is not available' } });

    const [fl] = await db
      .insert(finderLists)
      .values({ orgId: owner.orgId, userId: owner.userId, name: 'gone', fileName: 'gone.csv', fileType: 'csv', storageKey: `uploads/${owner.orgId}/gone-finder`, sizeBytes: 10, hasHeader: true, header: ['name', 'domain'], mapping: { full_name: 0, domain: 1 }, state: 'processed', counters: { ...EMPTY_FINDER_COUNTERS } })
      .returning();
    const finder = await askThenRemove('/email_finder/download/result', fl!.id, () => db.delete(finderLists).where(eq(finderLists.id, fl!.id)));
    expect(finder.status, JSON.stringify(finder.body)).toBe(200);
    expect(finder.body).toEqual({ status: 'failed', error: { code: 1029, message: 'List is not available' } });
  });
});

// Issue 28 point 17: /v2 validation messages read as a person wrote them, never the validator's wording
// ('"email" is not allowed to be empty'); the reference's shape, fields, locations and types stay.
describe('validation messages on /v2', () => {
  const reason = async (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) => {
    const res = await v2(method, url, payload);
    expect(res.status, `${url}: ${JSON.stringify(res.body)}`).toBe(400);
    expect(res.body.error.message).toBe('validation failed');
    return res.body.error.reasons[0] as { field: string[]; location: string; messages: string[]; types: string[] };
  };

  it('asks for a missing field and says an empty one must not be empty', async () => {
    expect(await reason('POST', '/email_verify/instant', {})).toEqual({ field: ['email'], location: 'body', messages: ['Please give an email address.'], types: ['any.required'] });
    expect(await reason('POST', '/email_verify/instant', { email: '  ' })).toEqual({ field: ['email'], location: 'body', messages: ['email must not be empty.'], types: ['any.empty'] });
    expect(await reason('GET', '/email_verify/bulk/progress_status')).toEqual({ field: ['list_id'], location: 'query', messages: ['Please give the list id.'], types: ['any.required'] });
    expect(await reason('POST', '/email_finder/instant', { name: '', domain: 'strict.test' })).toEqual({ field: ['name'], location: 'body', messages: ['name must not be empty.'], types: ['any.empty'] });
  });

  it('says what a wrong value must be', async () => {
    expect((await reason('POST', '/email_verify/instant', { email: 42 })).messages).toEqual(['email must be text.']);
    expect((await reason('POST', '/email_verify/instant', { email: 'a@strict.test', timeout: 'soon' })).messages).toEqual(['timeout must be a number.']);
    expect((await reason('POST', '/email_verify/instant', { email: 'a@strict.test', timeout: 0 })).messages).toEqual(['timeout must be at least 1.']);
    expect((await reason('POST', '/email_verify/instant', { email: `${'a'.repeat(320)}@strict.test` })).messages).toEqual(['email must be at most 320 characters long.']);
  });

  it('asks for the file of a bulk upload in words', async () => {
    const res = await v2('POST', '/email_verify/bulk', {});
    expect(res.body.error.reasons[0]).toEqual({ field: ['file'], location: 'body', messages: ['Please attach a file (the multipart field named file).'], types: ['any.required'] });
  });
});
