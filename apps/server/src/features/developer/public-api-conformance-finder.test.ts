import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import type { TPerson } from '@verilead/mailworld';
import { chargeCreditsNow, getOrgBalance } from '../../platform/credits/ledger';
import { selectRows } from '../../platform/db/database';
import type { TWorldApp } from '../email-verifier/test-support';
import { conformanceClient, createAppTokenOf, expectConforms, startConformance, stopConformance } from './public-api-conformance-test-support';

// The public API (v2) against its reference document: the email finder operations, and 402 once the credits are spent; the verifier's are in public-api-conformance-verify.test.ts.

let w: TWorldApp;
let base: string;
let owner: { token: string; userId: string; orgId: string };
let appToken: string;
let people: TPerson[];

const createAppToken = (sessionToken: string, body: Record<string, unknown>) => createAppTokenOf(w, sessionToken, body);
const client = (token: string) => conformanceClient(base, token);

beforeAll(async () => {
  ({ w, base, owner, appToken, people } = await startConformance());
}, 60_000);

afterAll(async () => {
  await stopConformance(w);
});

describe('every reference operation (email finder)', () => {
  const strictPeople = () => people.filter((p) => p.scenario === 'strict' && p.middle_name === null && /^[A-Za-z]+$/.test(p.first_name + p.last_name));
  const finderUpload = (token: string, fileName: string, content: string) => {
    const form = new FormData();
    form.append('file', new Blob([content], { type: 'text/csv' }), fileName);
    return client(token).POST('/email_finder/bulk', { body: form as never, bodySerializer: (b) => b as unknown as FormData });
  };

  it('instant: a found address (charged), not found (free), validation, bad token, unsupported name', async () => {
    const api = client(appToken);
    const person = strictPeople()[0]!;
    const before = await getOrgBalance(w.t.deps.database.db, owner.orgId);
    const ok = await api.POST('/email_finder/instant', { body: { name: `${person.first_name} ${person.last_name}`, domain: person.domain } });
    expect(ok.response.status, JSON.stringify(ok.error)).toBe(200);
    expect(ok.response.headers.get('x-ratelimit-limit')).toBe('1000');
    expectConforms('/email_finder/instant', 'post', 200, ok.data);
    expect(ok.data).toMatchObject({ status: 'success', data: { emails: [{ email_address: person.email, role: 'no', business: 'yes' }], domain: person.domain, total: 1 } });
    expect((ok.data as { data: { confidence_score: number } }).data.confidence_score).toBeGreaterThanOrEqual(90);
    expect(await getOrgBalance(w.t.deps.database.db, owner.orgId)).toBe(before - 1);

    const none = await api.POST('/email_finder/instant', { body: { name: 'Zebulon Nobodyhere', domain: 'strict.test' } });
    expect(none.response.status).toBe(200);
    expectConforms('/email_finder/instant', 'post', 200, none.data);
    expect(none.data).toMatchObject({ status: 'success', data: { emails: [], total: 0, confidence_score: 0 } });
    expect(await getOrgBalance(w.t.deps.database.db, owner.orgId)).toBe(before - 1);

    const missing = await api.POST('/email_finder/instant', { body: { domain: 'strict.test' } as never });
    expect(missing.response.status).toBe(400);
    expectConforms('/email_finder/instant', 'post', 400, missing.error);
    expect(missing.error).toMatchObject({ status: 'failed', error: { message: 'validation failed', reasons: [{ field: ['name'], location: 'body', types: ['any.required'] }] } });
    const empty = await api.POST('/email_finder/instant', { body: { name: '', domain: 'strict.test' } });
    expect(empty.response.status).toBe(400);
    expectConforms('/email_finder/instant', 'post', 400, empty.error);
    expect(empty.error).toMatchObject({ error: { reasons: [{ field: ['name'], types: ['any.empty'] }] } });

    const symbols = await api.POST('/email_finder/instant', { body: { name: 'R2D2 <script>', domain: 'strict.test' } });
    expect(symbols.response.status).toBe(200);
    expectConforms('/email_finder/instant', 'post', 200, symbols.data);
    expect(symbols.data).toEqual({ status: 'failed', error: { code: 1088, message: 'Unsupported characters in name fields' } });

    const bad = await client('vla_nope').POST('/email_finder/instant', { body: { name: 'Ann Lee', domain: 'strict.test' } });
    expect(bad.response.status).toBe(401);
    expectConforms('/email_finder/instant', 'post', 401, bad.error);
    expect(bad.error).toMatchObject({ error: { code: 1000 } });
  }, 30_000);

  it('instant: a slow search answers 524 with a queue id; queue_status answers it, and its errors', async () => {
    const api = client(appToken);
    // slowpoke.test answers every command after 700 ms (tarpit.test, once its sessions time out, is paused for the whole process)
    const slow = await api.POST('/email_finder/instant', { body: { name: 'Dave Slow', domain: 'slowpoke.test', timeout: 1_000 } });
    expect(slow.response.status).toBe(524);
    expectConforms('/email_finder/instant', 'post', 524, slow.error);
    const info = (slow.error as unknown as { error: { additional_info: { resource_name: string; queue_id: string } } }).error.additional_info;
    expect(info.resource_name).toBe('email_finder');
    expect(info.queue_id).toMatch(/^[0-9a-f-]{36}$/);

    const pending = await api.GET('/email_finder/instant/queue_status', { params: { query: { qid: info.queue_id } } });
    expect(pending.response.status).toBe(200);
    expectConforms('/email_finder/instant/queue_status', 'get', 200, pending.data);

    // A search that finished answers the same data as instant (its qid is the search id: the 524 path stores it).
    const invalid = await api.GET('/email_finder/instant/queue_status', { params: { query: { qid: '00000000-0000-4000-8000-000000000000' } } });
    expect(invalid.response.status).toBe(200);
    expectConforms('/email_finder/instant/queue_status', 'get', 200, invalid.data);
    expect(invalid.data).toEqual({ status: 'failed', error: { code: 1104, message: 'Invalid queue ID' } });
    const notUuid = await api.GET('/email_finder/instant/queue_status', { params: { query: { qid: 'abc' } } });
    expect(notUuid.data).toMatchObject({ error: { code: 1104 } });
    const noQid = await api.GET('/email_finder/instant/queue_status', { params: { query: {} as never } });
    expect(noQid.response.status).toBe(400);
    expectConforms('/email_finder/instant/queue_status', 'get', 400, noQid.error);
    expect(noQid.error).toMatchObject({ error: { reasons: [{ field: ['qid'], location: 'query', types: ['any.required'] }] } });
    const bad = await client('x').GET('/email_finder/instant/queue_status', { params: { query: { qid: info.queue_id } } });
    expect(bad.response.status).toBe(401);
    expectConforms('/email_finder/instant/queue_status', 'get', 401, bad.error);

    // Another organisation's app cannot read this search.
    const stranger = await w.t.createOwner('finder-stranger@verilead.test');
    const strangerApp = await createAppToken(stranger.token, { name: 'Stranger', type: 'server' });
    const foreign = await client(strangerApp).GET('/email_finder/instant/queue_status', { params: { query: { qid: info.queue_id } } });
    expect(foreign.data).toMatchObject({ status: 'failed', error: { code: 1104 } });
  }, 30_000);

  it('queue_status answers a completed search with the instant data', async () => {
    const api = client(appToken);
    const person = strictPeople()[1]!;
    // queue=false with a generous timeout: the search finishes in the request; its id is then readable through queue_status.
    const slow = await api.POST('/email_finder/instant', { body: { name: 'Dave Slow', domain: 'slowpoke.test', timeout: 1_000, queue: false } });
    expect(slow.response.status).toBe(524);
    expect((slow.error as unknown as { error: { additional_info: Record<string, unknown> } }).error.additional_info.queue_id).toBeUndefined();
    const ok = await api.POST('/email_finder/instant', { body: { name: `${person.first_name} ${person.last_name}`, domain: person.domain } });
    expect(ok.response.status).toBe(200);
    const queued = await w.t.call({ method: 'GET', url: '/api/v1/email_finder/history?limit=25', token: owner.token });
    const item = (queued.body.data.items as { id: string; email: string | null }[]).find((i) => i.email === person.email);
    expect(item).toBeDefined();
    const status = await api.GET('/email_finder/instant/queue_status', { params: { query: { qid: item!.id } } });
    expect(status.response.status).toBe(200);
    expectConforms('/email_finder/instant/queue_status', 'get', 200, status.data);
    expect(status.data).toEqual(ok.data);
  }, 30_000);

  it('bulk → progress → download → cancel → remove (found rows charged only), and their error answers', async () => {
    const api = client(appToken);
    const found = strictPeople().slice(2, 5);
    const csv = ['First Name,Last Name,Company Domain', ...found.map((p) => `${p.first_name},${p.last_name},${p.domain}`), 'Zebulon,Nobodyhere,strict.test', ''].join('\n');
    const before = await getOrgBalance(w.t.deps.database.db, owner.orgId);
    // Issue 28 point 10: the list's charges count in the usage of the app whose token uploaded it.
    const appUsed = async () => (await selectRows<{ used: number }>(w.t.deps.database.db, sql`select credits_used_life_time as used from apps where org_id = ${owner.orgId} and name = 'Conformance'`))[0]!.used;
    const usedBefore = await appUsed();
    const bulk = await finderUpload(appToken, 'people.csv', csv);
    expect(bulk.response.status, JSON.stringify(bulk.error ?? bulk.data)).toBe(200);
    expectConforms('/email_finder/bulk', 'post', 200, bulk.data);
    const listId = (bulk.data as { data: { list_id?: string } }).data.list_id!;
    expect(listId).toMatch(/^[0-9a-f-]{36}$/);

    const progress = await vi.waitFor(
      async () => {
        const p = await api.GET('/email_finder/bulk/progress_status', { params: { query: { list_id: listId } } });
        expect(p.response.status).toBe(200);
        expectConforms('/email_finder/bulk/progress_status', 'get', 200, p.data);
        expect((p.data as { data: { progress_status: string } }).data.progress_status).toBe('completed');
        return p.data;
      },
      { timeout: 30_000, interval: 100 },
    );
    expect(progress).toEqual({ status: 'success', data: { progress_status: 'completed', percentage: 100 } });
    expect(await getOrgBalance(w.t.deps.database.db, owner.orgId)).toBe(before - found.length);
    expect((await appUsed()) - usedBefore).toBe(found.length);

    const download = await api.POST('/email_finder/download/result', { body: { list_id: listId } });
    expect(download.response.status).toBe(200);
    expectConforms('/email_finder/download/result', 'post', 200, download.data);
    const url = (download.data as { data: { url: string } }).data.url;
    expect(url).toMatch(/^http:\/\/app\.verilead\.test\/api\/v1\/public\/download_email_finder_history\?download_token=/);
    const file = await fetch(`http://127.0.0.1:${new URL(base).port}${url.slice('http://app.verilead.test'.length)}`);
    expect(file.status).toBe(200);
    const text = await file.text();
    for (const p of found) expect(text).toContain(p.email);

    // Errors of bulk: no file, a wrong type, no name/domain columns (200 with code 1100), bad token.
    const noFile = await api.POST('/email_finder/bulk', { body: new FormData() as never, bodySerializer: (b) => b as unknown as FormData });
    expect(noFile.response.status).toBe(200);
    expectConforms('/email_finder/bulk', 'post', 200, noFile.data);
    expect(noFile.data).toMatchObject({ status: 'failed', error: { code: 1100 } });
    const wrongType = await finderUpload(appToken, 'people.txt', csv);
    expectConforms('/email_finder/bulk', 'post', 200, wrongType.data);
    expect(wrongType.data).toEqual({ status: 'failed', error: { code: 1100, message: 'Invalid file type' } });
    const noColumns = await finderUpload(appToken, 'emails.csv', 'email\nalice@strict.test\n');
    expectConforms('/email_finder/bulk', 'post', 200, noColumns.data);
    expect(noColumns.data).toMatchObject({ status: 'failed', error: { code: 1100, message: expect.stringContaining('name column') } });
    const badBulk = await finderUpload('vla_bad', 'people.csv', csv);
    expect(badBulk.response.status).toBe(401);
    expectConforms('/email_finder/bulk', 'post', 401, badBulk.error);
    // A multipart body cut short: 400, documented (issue 27 points 10 and 15).
    const cut = await fetch(`${base}/email_finder/bulk`, {
      method: 'POST',
      headers: { authorization: `Bearer ${appToken}`, 'content-type': 'multipart/form-data; boundary=cut' },
      body: `--cut\r\nContent-Disposition: form-data; name="file"; filename="people.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}`,
    });
    expect(cut.status).toBe(400);
    expectConforms('/email_finder/bulk', 'post', 400, await cut.json());

    // Errors of progress and download.
    const unknownList = await api.GET('/email_finder/bulk/progress_status', { params: { query: { list_id: '00000000-0000-4000-8000-000000000000' } } });
    expectConforms('/email_finder/bulk/progress_status', 'get', 200, unknownList.data);
    expect(unknownList.data).toMatchObject({ status: 'failed', error: { code: 1008 } });
    const noId = await api.GET('/email_finder/bulk/progress_status', { params: { query: { list_id: '' } } });
    expect(noId.response.status).toBe(400);
    expectConforms('/email_finder/bulk/progress_status', 'get', 400, noId.error);
    expect(noId.error).toMatchObject({ error: { reasons: [{ field: ['list_id'], location: 'query', types: ['any.empty'] }] } });
    const badProgress = await client('x').GET('/email_finder/bulk/progress_status', { params: { query: { list_id: listId } } });
    expect(badProgress.response.status).toBe(401);
    expectConforms('/email_finder/bulk/progress_status', 'get', 401, badProgress.error);
    const missingList = await api.POST('/email_finder/download/result', { body: { list_id: '00000000-0000-4000-8000-000000000000' } });
    expectConforms('/email_finder/download/result', 'post', 200, missingList.data);
    expect(missingList.data).toEqual({ status: 'failed', error: { code: 1029, message: 'List is not available' } });
    const noBody = await api.POST('/email_finder/download/result', { body: {} as never });
    expect(noBody.response.status).toBe(400);
    expectConforms('/email_finder/download/result', 'post', 400, noBody.error);
    const badDownload = await client('x').POST('/email_finder/download/result', { body: { list_id: listId } });
    expect(badDownload.response.status).toBe(401);
    expectConforms('/email_finder/download/result', 'post', 401, badDownload.error);

    // Cancel: a finished list is not cancellable (1116), an unknown one not available (1029), a running one is cancelled.
    const notRunning = await api.POST('/email_finder/list/cancel', { body: { list_id: listId } });
    expectConforms('/email_finder/list/cancel', 'post', 200, notRunning.data);
    expect(notRunning.data).toEqual({ status: 'failed', error: { code: 1116, message: 'List is not in the cancellable stage' } });
    const cancelUnknown = await api.POST('/email_finder/list/cancel', { body: { list_id: '00000000-0000-4000-8000-000000000000' } });
    expectConforms('/email_finder/list/cancel', 'post', 200, cancelUnknown.data);
    expect(cancelUnknown.data).toMatchObject({ error: { code: 1029 } });
    const cancelNoId = await api.POST('/email_finder/list/cancel', { body: {} as never });
    expect(cancelNoId.response.status).toBe(400);
    expectConforms('/email_finder/list/cancel', 'post', 400, cancelNoId.error);
    const slow = await finderUpload(appToken, 'slow.csv', 'Name,Domain\nDave Slow,tarpit.test\nErin Late,tarpit.test\nFrank Later,tarpit.test\n');
    expect(slow.response.status).toBe(200);
    const slowId = (slow.data as { data: { list_id: string } }).data.list_id;
    const cancelled = await api.POST('/email_finder/list/cancel', { body: { list_id: slowId } });
    expect(cancelled.response.status).toBe(200);
    expectConforms('/email_finder/list/cancel', 'post', 200, cancelled.data);
    expect(cancelled.data).toMatchObject({ status: 'success', data: { name: 'slow.csv', source: 'upload' } });
    const slowProgress = await api.GET('/email_finder/bulk/progress_status', { params: { query: { list_id: slowId } } });
    expect(slowProgress.data).toMatchObject({ data: { progress_status: 'cancelled' } });

    // Remove: success with the list's view, then 1029; validation and bad token.
    const removed = await api.POST('/email_finder/list/remove', { body: { list_id: listId } });
    expect(removed.response.status).toBe(200);
    expectConforms('/email_finder/list/remove', 'post', 200, removed.data);
    expect(removed.data).toMatchObject({ status: 'success', data: { name: 'people.csv', source: 'upload' } });
    const again = await api.POST('/email_finder/list/remove', { body: { list_id: listId } });
    expectConforms('/email_finder/list/remove', 'post', 200, again.data);
    expect(again.data).toMatchObject({ status: 'failed', error: { code: 1029 } });
    const removeNoId = await api.POST('/email_finder/list/remove', { body: {} as never });
    expect(removeNoId.response.status).toBe(400);
    expectConforms('/email_finder/list/remove', 'post', 400, removeNoId.error);
    const badRemove = await client('x').POST('/email_finder/list/remove', { body: { list_id: listId } });
    expect(badRemove.response.status).toBe(401);
    expectConforms('/email_finder/list/remove', 'post', 401, badRemove.error);
  }, 60_000);

  it('an app over its daily credit limit gets 1017 from the finder too', async () => {
    const limited = await createAppToken(owner.token, { name: 'Finder limited', credit_limit: { type: 'daily', value: 1 } });
    const person = strictPeople()[5]!;
    const first = await client(limited).POST('/email_finder/instant', { body: { name: `${person.first_name} ${person.last_name}`, domain: person.domain } });
    expect(first.response.status).toBe(200);
    expect(first.data).toMatchObject({ status: 'success', data: { total: 1 } });
    const second = await client(limited).POST('/email_finder/instant', { body: { name: 'Ann Other', domain: 'strict.test' } });
    expect(second.response.status).toBe(200);
    expectConforms('/email_finder/instant', 'post', 200, second.data);
    expect(second.data).toMatchObject({ status: 'failed', error: { code: 1017 } });
  }, 30_000);
});

describe('payment required', () => {
  it('402 once the credits are exhausted (instant, singles, bulk)', async () => {
    const db = w.t.deps.database;
    const balance = await getOrgBalance(db.db, owner.orgId);
    await chargeCreditsNow(db, { orgId: owner.orgId, userId: owner.userId, amount: balance, reason: 'test: use up credits' });
    const api = client(appToken);
    const instant = await api.POST('/email_verify/instant', { body: { email: 'alice@strict.test' } });
    expect(instant.response.status).toBe(402);
    expectConforms('/email_verify/instant', 'post', 402, instant.error);
    expect(instant.error).toMatchObject({ status: 'failed', error: { code: 1002 } });
    const role = await api.POST('/email/verify/role', { body: { email: 'info@strict.test' } });
    expect(role.response.status).toBe(402);
    expectConforms('/email/verify/role', 'post', 402, role.error);
    const form = new FormData();
    form.append('file', new Blob(['email\nalice@strict.test\n'], { type: 'text/csv' }), 'broke.csv');
    const bulk = await api.POST('/email_verify/bulk', { body: form as never, bodySerializer: (b) => b as unknown as FormData });
    expect(bulk.response.status).toBe(402);
    expectConforms('/email_verify/bulk', 'post', 402, bulk.error);
    const finder = await api.POST('/email_finder/instant', { body: { name: 'Ann Lee', domain: 'strict.test' } });
    expect(finder.response.status).toBe(402);
    expectConforms('/email_finder/instant', 'post', 402, finder.error);
    expect(finder.error).toMatchObject({ status: 'failed', error: { code: 1099 } });
    const finderForm = new FormData();
    finderForm.append('file', new Blob(['Name,Domain\nAnn Lee,strict.test\n'], { type: 'text/csv' }), 'broke-people.csv');
    const finderBulk = await api.POST('/email_finder/bulk', { body: finderForm as never, bodySerializer: (b) => b as unknown as FormData });
    expect(finderBulk.response.status).toBe(402);
    expectConforms('/email_finder/bulk', 'post', 402, finderBulk.error);
    expect(finderBulk.error).toMatchObject({ status: 'failed', error: { code: 1028, additional_info: { required_credits: 1 } } });
    // Test addresses still answer: they cost nothing.
    const test = await api.POST('/email_verify/instant', { body: { email: 'valid@example.com' } });
    expect(test.response.status).toBe(200);
  }, 30_000);
});
