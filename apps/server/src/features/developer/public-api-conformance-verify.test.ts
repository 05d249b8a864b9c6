import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TCatchAllScore } from '@verilead/contracts';
import { getOrgBalance } from '../../platform/credits/ledger';
import type { TWorldApp } from '../email-verifier/test-support';
import { generatePublicApiTypes, PUBLIC_API_TYPES_PATH } from './generate-public-api-types';
import { conformanceClient, createAppTokenOf, expectConforms, startConformance, stopConformance } from './public-api-conformance-test-support';

// The public API (v2) against its reference document: the typed client and the email verify operations; the finder's are in public-api-conformance-finder.test.ts.

let w: TWorldApp;
let base: string;
let owner: { token: string; userId: string; orgId: string };
let appToken: string;

const createAppToken = (sessionToken: string, body: Record<string, unknown>) => createAppTokenOf(w, sessionToken, body);
const client = (token: string) => conformanceClient(base, token);

beforeAll(async () => {
  ({ w, base, owner, appToken } = await startConformance());
}, 60_000);

afterAll(async () => {
  await stopConformance(w);
});

describe('the typed client', () => {
  it('is generated from the reference document and matches it', async () => {
    expect(await generatePublicApiTypes()).toBe(readFileSync(PUBLIC_API_TYPES_PATH, 'utf8'));
  });

  it('serves the document at /v2/openapi.json with this server as its base', async () => {
    const res = await fetch(`${base}/openapi.json`);
    expect(res.status).toBe(200);
    const served = (await res.json()) as { servers: { url: string }[]; paths: Record<string, unknown> };
    expect(served.servers[0]?.url).toBe('http://app.verilead.test/v2');
    expect(Object.keys(served.paths)).toContain('/email_verify/instant');
  });
});

describe('every reference operation (email verify)', () => {
  it('getcredits: 200 and 401, with rate-limit headers', async () => {
    const ok = await client(appToken).GET('/email_verify/getcredits');
    expect(ok.response.status).toBe(200);
    expect(ok.response.headers.get('x-ratelimit-limit')).toBe('1000');
    expect(ok.response.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
    expect(ok.response.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/);
    expectConforms('/email_verify/getcredits', 'get', 200, ok.data);
    const bad = await client('vla_not-a-token').GET('/email_verify/getcredits');
    expect(bad.response.status).toBe(401);
    expect(bad.response.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
    expectConforms('/email_verify/getcredits', 'get', 401, bad.error);
    expect((bad.error as unknown as { error: { code: number } }).error.code).toBe(1000);
  });

  it('instant: a mail-world verdict, validation, bad token, timeout', async () => {
    const api = client(appToken);
    const ok = await api.POST('/email_verify/instant', { body: { email: 'alice@strict.test' } });
    expect(ok.response.status).toBe(200);
    expectConforms('/email_verify/instant', 'post', 200, ok.data);
    expect(ok.data).toMatchObject({ status: 'success', data: { email_address: 'alice@strict.test', status: 'valid', safe_to_send: 'yes' } });
    expect((ok.data as { data: object }).data).not.toHaveProperty('catch_all_score');

    // A catch_all verdict carries Verilead's added field: the score and its evidence.
    const caught = await api.POST('/email_verify/instant', { body: { email: 'qxzkvbrt@acceptall.test' } });
    expect(caught.response.status).toBe(200);
    expectConforms('/email_verify/instant', 'post', 200, caught.data);
    const caughtData = (caught.data as { data: { status: string; catch_all_score: TCatchAllScore } }).data;
    expect(caughtData.status).toBe('catch_all');
    expect(caughtData.catch_all_score.score).toBeLessThan(10);
    expect(caughtData.catch_all_score.evidence.map((e) => e.kind)).toContain('gibberish');

    const missing = await api.POST('/email_verify/instant', { body: {} as never });
    expect(missing.response.status).toBe(400);
    expectConforms('/email_verify/instant', 'post', 400, missing.error);
    expect(missing.error).toMatchObject({ status: 'failed', error: { message: 'validation failed', reasons: [{ field: ['email'], location: 'body', types: ['any.required'] }] } });

    const bad = await client('nope').POST('/email_verify/instant', { body: { email: 'alice@strict.test' } });
    expect(bad.response.status).toBe(401);
    expectConforms('/email_verify/instant', 'post', 401, bad.error);

    const slow = await api.POST('/email_verify/instant', { body: { email: 'dave@tarpit.test', timeout: 200 } });
    expect(slow.response.status).toBe(524);
    expectConforms('/email_verify/instant', 'post', 524, slow.error);
    expect(slow.error).toMatchObject({ error: { message: 'Timeout Occurred', additional_info: { resource_name: 'email', resource_value: 'dave@tarpit.test' } } });
  });

  it('instant: test addresses answer fixed verdicts and cost nothing', async () => {
    const before = await getOrgBalance(w.t.deps.database.db, owner.orgId);
    for (const [email, status] of [
      ['valid@example.com', 'valid'],
      ['invalid@example.com', 'invalid'],
      ['catch_all@example.com', 'catch_all'],
      ['unknown@example.com', 'unknown'],
    ] as const) {
      const res = await client(appToken).POST('/email_verify/instant', { body: { email } });
      expect(res.response.status).toBe(200);
      expectConforms('/email_verify/instant', 'post', 200, res.data);
      expect(res.data).toMatchObject({ data: { email_address: email, status } });
    }
    expect(await getOrgBalance(w.t.deps.database.db, owner.orgId)).toBe(before);
  });

  it('instant: an app over its daily credit limit gets 1017', async () => {
    const limited = await createAppToken(owner.token, { name: 'Limited', credit_limit: { type: 'daily', value: 1 } });
    const first = await client(limited).POST('/email_verify/instant', { body: { email: 'john.smith@strict.test' } });
    expect(first.response.status).toBe(200);
    const second = await client(limited).POST('/email_verify/instant', { body: { email: 'peter@initech.test' } });
    expect(second.response.status).toBe(200);
    expectConforms('/email_verify/instant', 'post', 200, second.data);
    expect(second.data).toEqual({ status: 'failed', error: { code: 1017, message: expect.stringContaining('daily verify limit') } });
  });

  const singles = [
    ['/email/verify/catchall', 'anyone@acceptall.test', 'catchall', 'yes'],
    ['/email/verify/disposable', 'temp123@mailinator.com', 'disposable', 'yes'],
    ['/email/verify/business', 'alice@strict.test', 'business_account', 'yes'],
    ['/email/verify/free', 'john.smith@gmail.com', 'free_account', 'yes'],
    ['/email/verify/role', 'info@strict.test', 'role_account', 'yes'],
    ['/email/verify/gibberish', 'valid@example.com', 'gibberish', 'no'],
  ] as const;
  for (const [path, email, field, expected] of singles) {
    it(`${path}: 200, 400 and 401`, async () => {
      const ok = await client(appToken).POST(path, { body: { email } });
      expect(ok.response.status).toBe(200);
      expectConforms(path, 'post', 200, ok.data);
      expect(ok.data).toMatchObject({ status: 'success', data: { email_address: email, [field]: expected } });
      const missing = await client(appToken).POST(path, { body: {} as never });
      expect(missing.response.status).toBe(400);
      expectConforms(path, 'post', 400, missing.error);
      const bad = await client('vla_x').POST(path, { body: { email } });
      expect(bad.response.status).toBe(401);
      expectConforms(path, 'post', 401, bad.error);
    });
  }

  it('catchall: 524 on timeout', async () => {
    // slowpoke.test answers every command after 700 ms: tarpit.test, which an earlier test timed out on, is paused once
    // its sessions time out, and a paused host answers at once (200), so on a slow machine it made this test flaky.
    const slow = await client(appToken).POST('/email/verify/catchall', { body: { email: 'catchall.timeout@slowpoke.test', timeout: 200 } });
    expect(slow.response.status).toBe(524);
    expectConforms('/email/verify/catchall', 'post', 524, slow.error);
  });

  it('bulk → progress → download → cancel → remove, and their error answers', async () => {
    const api = client(appToken);
    const csv = 'email\nalice@strict.test\nno.such.user@strict.test\nanyone@acceptall.test\n';
    const upload = async (token: string) => {
      const form = new FormData();
      form.append('file', new Blob([csv], { type: 'text/csv' }), 'api-list.csv');
      return client(token).POST('/email_verify/bulk', { body: form as never, bodySerializer: (b) => b as unknown as FormData });
    };
    const bulk = await upload(appToken);
    expect(bulk.response.status).toBe(200);
    expectConforms('/email_verify/bulk', 'post', 200, bulk.data);
    const listId = (bulk.data as { data: { list_id: string } }).data.list_id;

    const noFile = await api.POST('/email_verify/bulk', { body: new FormData() as never, bodySerializer: (b) => b as unknown as FormData });
    expect(noFile.response.status).toBe(400);
    expectConforms('/email_verify/bulk', 'post', 400, noFile.error);
    const badBulk = await upload('vla_bad');
    expect(badBulk.response.status).toBe(401);
    expectConforms('/email_verify/bulk', 'post', 401, badBulk.error);

    // Every answer on the way conforms; the list's job runs on the worker until the answer says completed.
    const progress = await vi.waitFor(
      async () => {
        const p = await api.GET('/email_verify/bulk/progress_status', { params: { query: { list_id: listId } } });
        expect(p.response.status).toBe(200);
        expectConforms('/email_verify/bulk/progress_status', 'get', 200, p.data);
        expect((p.data as { data: { progress_status: string } }).data.progress_status).toBe('completed');
        return p.data;
      },
      { timeout: 20_000, interval: 100 },
    );
    expect(progress).toEqual({ status: 'success', data: { progress_status: 'completed', percentile: 100 } });
    const unknownList = await api.GET('/email_verify/bulk/progress_status', { params: { query: { list_id: '00000000-0000-4000-8000-000000000000' } } });
    expectConforms('/email_verify/bulk/progress_status', 'get', 200, unknownList.data);
    expect(unknownList.data).toMatchObject({ status: 'failed', error: { code: 1008 } });
    const noId = await api.GET('/email_verify/bulk/progress_status', { params: { query: { list_id: '' } } });
    expect(noId.response.status).toBe(400);
    expectConforms('/email_verify/bulk/progress_status', 'get', 400, noId.error);
    const badProgress = await client('x').GET('/email_verify/bulk/progress_status', { params: { query: { list_id: listId } } });
    expect(badProgress.response.status).toBe(401);
    expectConforms('/email_verify/bulk/progress_status', 'get', 401, badProgress.error);

    const download = await api.POST('/download/result', { body: { list_id: listId } });
    expect(download.response.status).toBe(200);
    expectConforms('/download/result', 'post', 200, download.data);
    const url = (download.data as { data: { url: string } }).data.url;
    expect(url).toMatch(/^http:\/\/app\.verilead\.test\/api\/v1\/public\/download\?download_token=/);
    const file = await fetch(`http://127.0.0.1:${new URL(base).port}${url.slice('http://app.verilead.test'.length)}`);
    expect(file.status).toBe(200);
    expect(await file.text()).toContain('alice@strict.test');
    const missingList = await api.POST('/download/result', { body: { list_id: '00000000-0000-4000-8000-000000000000' } });
    expectConforms('/download/result', 'post', 200, missingList.data);
    expect(missingList.data).toMatchObject({ status: 'failed', error: { code: 1029, message: 'List is not available' } });
    const noBody = await api.POST('/download/result', { body: {} as never });
    expect(noBody.response.status).toBe(400);
    expectConforms('/download/result', 'post', 400, noBody.error);
    const badDownload = await client('x').POST('/download/result', { body: { list_id: listId } });
    expect(badDownload.response.status).toBe(401);
    expectConforms('/download/result', 'post', 401, badDownload.error);

    // A verified list is not cancellable (1116); an unknown one is not available (1029).
    const notRunning = await api.POST('/email_verify/list/cancel', { body: { list_id: listId } });
    expectConforms('/email_verify/list/cancel', 'post', 200, notRunning.data);
    expect(notRunning.data).toMatchObject({ status: 'failed', error: { code: 1116 } });
    const cancelUnknown = await api.POST('/email_verify/list/cancel', { body: { list_id: '00000000-0000-4000-8000-000000000000' } });
    expectConforms('/email_verify/list/cancel', 'post', 200, cancelUnknown.data);
    expect(cancelUnknown.data).toMatchObject({ error: { code: 1029 } });
    const cancelNoId = await api.POST('/email_verify/list/cancel', { body: {} as never });
    expect(cancelNoId.response.status).toBe(400);
    expectConforms('/email_verify/list/cancel', 'post', 400, cancelNoId.error);

    // A running list (tarpit addresses take seconds each) is cancelled.
    const slowForm = new FormData();
    slowForm.append('file', new Blob(['email\ndave@tarpit.test\nerin@timeout.test\nalice@strict.test\n'], { type: 'text/csv' }), 'slow.csv');
    const slow = await api.POST('/email_verify/bulk', { body: slowForm as never, bodySerializer: (b) => b as unknown as FormData });
    expect(slow.response.status).toBe(200);
    const slowId = (slow.data as { data: { list_id: string } }).data.list_id;
    const cancelled = await api.POST('/email_verify/list/cancel', { body: { list_id: slowId } });
    expect(cancelled.response.status).toBe(200);
    expectConforms('/email_verify/list/cancel', 'post', 200, cancelled.data);
    expect(cancelled.data).toMatchObject({ status: 'success', data: { name: 'slow.csv', source: 'upload' } });

    const removed = await api.POST('/email_verify/list/remove', { body: { list_id: listId, ignore_result: true } });
    expect(removed.response.status).toBe(200);
    expectConforms('/email_verify/list/remove', 'post', 200, removed.data);
    expect(removed.data).toMatchObject({ status: 'success', data: { name: 'api-list.csv' } });
    const again = await api.POST('/email_verify/list/remove', { body: { list_id: listId } });
    expectConforms('/email_verify/list/remove', 'post', 200, again.data);
    expect(again.data).toMatchObject({ status: 'failed', error: { code: 1029 } });
    const removeNoId = await api.POST('/email_verify/list/remove', { body: {} as never });
    expect(removeNoId.response.status).toBe(400);
    expectConforms('/email_verify/list/remove', 'post', 400, removeNoId.error);
    const badRemove = await client('x').POST('/email_verify/list/remove', { body: { list_id: listId } });
    expect(badRemove.response.status).toBe(401);
    expectConforms('/email_verify/list/remove', 'post', 401, badRemove.error);
  }, 60_000);

});
