import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZActivitiesDownloadResponse, ZDownloadResponse } from '@verilead/contracts';
import { buildMultipart, createWorldApp, type TWorldApp } from '../email-verifier/test-support';
import { createDownloadToken, readDownloadToken } from './download-view';
import { isRowInFormat } from './list-export';
import { formatCsvLine, neutraliseCell } from './file-writers';
import { downloads } from './tables';

describe('downloads', () => {
  let w: TWorldApp;
  let owner: { token: string; userId: string; orgId: string };
  beforeAll(async () => {
    w = await createWorldApp();
    owner = await w.t.createOwner('owner@dl.test');
  });
  afterAll(async () => {
    await w?.close();
  });

  it('neutralises formula cells and quotes CSV', () => {
    for (const v of ['=1+1', '+cmd', '-2', '@SUM(A1)', '\tx', '\rx']) expect(neutraliseCell(v)).toBe(`'${v}`);
    expect(neutraliseCell('alice@strict.test')).toBe('alice@strict.test');
    expect(formatCsvLine(['a,b', 'say "hi"', '=x'])).toBe('"a,b","say ""hi""",\'=x\r\n');
  });

  it('puts each row in the right formats', () => {
    const row = (status: string | null, safe: string, extra: Partial<{ duplicate: boolean; syntax_error: boolean }> = {}) => ({
      row_number: 1,
      email: 'a@b.test',
      duplicate: false,
      syntax_error: false,
      status,
      result: { safe_to_send: safe },
      ...extra,
    });
    expect(isRowInFormat(row('valid', 'yes'), 'guaranteed_deliverables')).toBe(true);
    expect(isRowInFormat(row('valid', 'risky'), 'guaranteed_deliverables')).toBe(false);
    expect(isRowInFormat(row('valid', 'risky'), 'deliverables_with_risk')).toBe(true);
    expect(isRowInFormat(row('catch_all', 'risky'), 'deliverables_with_risk')).toBe(true);
    expect(isRowInFormat(row('unknown', 'no'), 'deliverables_with_risk')).toBe(true);
    expect(isRowInFormat(row('invalid', 'no'), 'non_deliverables')).toBe(true);
    expect(isRowInFormat(row(null, 'no', { syntax_error: true }), 'non_deliverables')).toBe(true);
    expect(isRowInFormat(row('valid', 'yes', { duplicate: true }), 'guaranteed_deliverables')).toBe(false);
    expect(isRowInFormat(row('valid', 'yes', { duplicate: true }), 'standard')).toBe(true);
  });

  it('signs expiring tokens', () => {
    const id = '00000000-0000-4000-8000-000000000001';
    const future = createDownloadToken('s', id, new Date(Date.now() + 60_000));
    expect(readDownloadToken('s', future)).toBe(id);
    expect(() => readDownloadToken('other-secret', future)).toThrow(/not valid/);
    expect(() => readDownloadToken('s', createDownloadToken('s', id, new Date(Date.now() - 1_000)))).toThrow(/expired/);
  });

  it('counts and exports the activity log, then expires the file', async () => {
    const count = await w.t.call({ method: 'POST', url: '/api/v1/download/activities', token: owner.token, payload: {} });
    expect(count.status).toBe(200);
    const rows = ZActivitiesDownloadResponse.parse(count.body).data.rows;
    expect(rows).toBeGreaterThan(0); // sign-up and login at least
    expect((await w.t.call({ method: 'POST', url: '/api/v1/download/activities', token: owner.token, payload: { from: 'yesterday' } })).status).toBe(400);
    const confirm = await w.t.call({ method: 'POST', url: '/api/v1/download/activities/confirm', token: owner.token, payload: { file_type: 'csv' } });
    expect(confirm.status).toBe(200);
    const queued = ZDownloadResponse.parse(confirm.body).data;
    expect(queued).toMatchObject({ kind: 'activities', state: 'queued', download_url: null });
    await w.t.deps.queue.runUntilIdle();
    const st = ZDownloadResponse.parse((await w.t.call({ method: 'GET', url: `/api/v1/download/result/status?queue_id=${queued.queue_id}`, token: owner.token })).body).data;
    expect(st).toMatchObject({ state: 'success', rows, progress: 100 });
    // The activity file's link is the spec's public path for it.
    expect(st.download_url).toMatch(/^\/api\/v1\/public\/user_activity_download\?download_token=/);
    const file = await w.t.app.inject({ method: 'GET', url: st.download_url! });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toContain('activities.csv');
    expect(file.body.replace(/^\uFEFF/, '').trim().split('\r\n')).toHaveLength(rows + 1);
    // Once the retention time is over, the state is expired and the link answers 410.
    await w.t.db.db.update(downloads).set({ expiresAt: new Date(Date.now() - 1_000) }).where(eq(downloads.id, st.download_id));
    const expired = await w.t.call({ method: 'GET', url: `/api/v1/download/result/status?queue_id=${queued.queue_id}`, token: owner.token });
    expect(expired.body.data).toMatchObject({ state: 'expired', download_url: null });
    const gone = await w.t.app.inject({ method: 'GET', url: st.download_url! });
    expect(gone.statusCode).toBe(410);
    const bad = await w.t.call({ method: 'GET', url: '/api/v1/download/result/status?queue_id=not-a-uuid', token: owner.token });
    expect(bad.status).toBe(400);
    expect((await w.t.call({ method: 'GET', url: '/api/v1/public/download' })).status).toBe(400);
  });

  it("writes the activity file's times in its owner's time zone", async () => {
    const who = await w.t.createOwner('zones@dl.test');
    // 18:40 UTC on 9 March: 00:10 on the 10th in Kolkata, 14:40 on the 9th in New York.
    await w.t.db.db.execute(
      sql`insert into activities (org_id, user_id, type, description, created_at) values (${who.orgId}, ${who.userId}, 'login', 'Logged in at the boundary', '2026-03-09T18:40:00Z')`,
    );
    const exportLine = async (timezone: string) => {
      expect((await w.t.call({ method: 'POST', url: '/api/v1/user/timezone/edit', token: who.token, payload: { timezone } })).status).toBe(200);
      const confirm = await w.t.call({ method: 'POST', url: '/api/v1/download/activities/confirm', token: who.token, payload: { file_type: 'csv' } });
      expect(confirm.status).toBe(200);
      await w.t.deps.queue.runUntilIdle();
      const st = ZDownloadResponse.parse((await w.t.call({ method: 'GET', url: `/api/v1/download/result/status?queue_id=${confirm.body.data.queue_id}`, token: who.token })).body).data;
      const file = await w.t.app.inject({ method: 'GET', url: st.download_url! });
      const lines = file.body.replace(/^\uFEFF/, '').trim().split('\r\n');
      expect(lines[0]).toBe('created_at,type,description');
      return lines.find((l) => l.endsWith('Logged in at the boundary'));
    };
    expect(await exportLine('Asia/Kolkata')).toBe('2026-03-10T00:10:00+05:30,login,Logged in at the boundary');
    expect(await exportLine('America/New_York')).toBe('2026-03-09T14:40:00-04:00,login,Logged in at the boundary');
  });

  it('cancels an export whose list was removed before it ran', async () => {
    const mp = buildMultipart('gone.txt', 'alice@strict.test\n');
    const up = await w.t.call({ method: 'POST', url: '/api/v1/email_verify/bulk_upload', token: owner.token, payload: mp.payload, headers: mp.headers });
    await w.t.deps.queue.runUntilIdle();
    const ex = await w.t.call({ method: 'POST', url: '/api/v1/download/result', token: owner.token, payload: { list_id: up.body.data.id, file_type: 'xlsx' } });
    expect(ex.status).toBe(200);
    expect((await w.t.call({ method: 'POST', url: '/api/v1/email_verify/list/remove', token: owner.token, payload: { list_id: up.body.data.id } })).status).toBe(200);
    await w.t.deps.queue.runUntilIdle();
    const st = await w.t.call({ method: 'GET', url: `/api/v1/download/result/status?queue_id=${ex.body.data.queue_id}`, token: owner.token });
    expect(st.body.data).toMatchObject({ state: 'cancelled', error: 'The list was removed' });
  });
});

describe('public verify rate limit', () => {
  let w: TWorldApp;
  beforeAll(async () => {
    w = await createWorldApp(undefined, { rateLimit: { authMax: 1_000, publicMax: 2, webhookMax: 1_000, windowMs: 60_000 } });
  });
  afterAll(async () => {
    await w?.close();
  });

  it('answers 429 with Retry-After past the per-IP limit', async () => {
    const call = () => w.t.call({ method: 'POST', url: '/api/v1/public/verify', payload: { email: 'alice@strict.test' }, remoteAddress: '10.1.1.1' });
    expect((await call()).status).toBe(200);
    expect((await call()).status).toBe(200);
    const limited = await call();
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    const other = await w.t.call({ method: 'POST', url: '/api/v1/public/verify', payload: { email: 'alice@strict.test' }, remoteAddress: '10.2.2.2' });
    expect(other.status).toBe(200);
  });
});
