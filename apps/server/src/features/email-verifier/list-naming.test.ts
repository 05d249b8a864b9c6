import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantCredits } from '../../platform/credits/ledger';
import { buildMultipart, createWorldApp, type TWorldApp } from './test-support';

type TUser = { token: string; userId: string; orgId: string };

describe('list names and the recent instant results', () => {
  let w: TWorldApp;
  let owner: TUser;
  let other: TUser;
  const upload = (user: TUser, name: string, fields: Record<string, string> = {}) => {
    const mp = buildMultipart(name, 'email\nalice@strict.test\n', fields);
    return w.t.call({ method: 'POST', url: '/api/v1/email_verify/bulk_upload', token: user.token, payload: mp.payload, headers: mp.headers });
  };
  const checkDuplicate = (user: TUser, fileName: string) =>
    w.t.call({ method: 'POST', url: '/api/v1/email_verify/bulk_upload/check_duplicate', token: user.token, payload: { file_name: fileName } });

  beforeAll(async () => {
    w = await createWorldApp();
    owner = await w.t.createOwner('owner@names.test');
    other = await w.t.createOwner('other@names.test');
    await w.t.db.transaction((tx) => grantCredits(tx, { orgId: owner.orgId, amount: 100, reason: 'Test top-up' }));
  });
  afterAll(async () => {
    await w?.close();
  });

  it('names a re-uploaded file "name (2)", then "(3)", and suggests the next free name before the upload', async () => {
    expect((await checkDuplicate(owner, 'leads.csv')).body.data).toMatchObject({ is_duplicate: false, suggested_name: 'leads' });
    expect((await upload(owner, 'leads.csv')).body.data.name).toBe('leads');
    expect((await checkDuplicate(owner, 'leads.csv')).body.data).toMatchObject({ is_duplicate: true, suggested_name: 'leads (2)' });
    expect((await upload(owner, 'leads.csv')).body.data.name).toBe('leads (2)');
    // An explicit name that is taken gets the next free number too (API callers get unique names).
    expect((await upload(owner, 'other.csv', { list_name: 'leads' })).body.data.name).toBe('leads (3)');
    expect((await upload(owner, 'x.csv', { list_name: 'LEADS (2)' })).body.data.name).toBe('LEADS (2) (2)');
    expect((await checkDuplicate(owner, 'leads.csv')).body.data.suggested_name).toBe('leads (4)');
    // Names are unique per organisation: another organisation starts over.
    expect((await upload(other, 'leads.csv')).body.data.name).toBe('leads');
  });

  it('lists in Quick Validation only the verifications made in the app when asked for source=app', async () => {
    const inApp = await w.t.call({ method: 'POST', url: '/api/v1/email_verify/instant', token: owner.token, payload: { email: 'alice@strict.test' } });
    expect(inApp.status).toBe(200);
    const created = await w.t.call({ method: 'POST', url: '/api/v1/apps/create', token: owner.token, payload: { name: 'CRM', type: 'server' } });
    const viaApi = await w.t.call({
      method: 'POST',
      url: '/v2/email_verify/instant',
      headers: { authorization: `Bearer ${created.body.data.token}` },
      payload: { email: 'john.smith@strict.test' },
    });
    expect(viaApi.status, JSON.stringify(viaApi.body)).toBe(200);
    const all = await w.t.call({ method: 'GET', url: '/api/v1/email_verify/instant/recent', token: owner.token });
    expect(all.body.data.items.map((i: { email: string }) => i.email)).toEqual(['john.smith@strict.test', 'alice@strict.test']);
    const app = await w.t.call({ method: 'GET', url: '/api/v1/email_verify/instant/recent?source=app', token: owner.token });
    expect(app.body.data.items.map((i: { email: string }) => i.email)).toEqual(['alice@strict.test']);
    const api = await w.t.call({ method: 'GET', url: '/api/v1/email_verify/instant/recent?source=api', token: owner.token });
    expect(api.body.data.items.map((i: { email: string }) => i.email)).toEqual(['john.smith@strict.test']);
    const bad = await w.t.call({ method: 'GET', url: '/api/v1/email_verify/instant/recent?source=mobile', token: owner.token });
    expect(bad.status).toBe(400);
  });
});
