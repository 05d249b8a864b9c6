import Papa from 'papaparse';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isApiAllowed, ZAuditLogResponse } from '@verilead/contracts';
import { recordAudit } from '../../platform/audit/record';
import { selectRows } from '../../platform/db/database';
import { createTestApp, TEST_PASSWORD, type TTestApp } from '../../test/test-app';
import { createAuditRetentionTask } from './service';

type TUser = { token: string; userId: string; orgId: string };

/** The database's own message of a refused statement (drizzle wraps it as the cause). */
const refusalOf = (work: Promise<unknown>): Promise<string> =>
  work.then(
    () => 'accepted',
    (err: { message?: string; cause?: { message?: string } }) => String(err.cause?.message ?? err.message),
  );

describe('audit log', () => {
  let t: TTestApp;
  let owner: TUser;
  let stranger: TUser;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.createOwner('owner@audit.test');
    stranger = await t.createOwner('stranger@audit.test', 'Stella Stranger');
  });
  afterAll(async () => {
    await t?.close();
  });

  const read = async (user: TUser, query = '') => {
    const res = await t.call({ method: 'GET', url: `/api/v1/audit_log${query}`, token: user.token });
    expect(res.status).toBe(200);
    return ZAuditLogResponse.parse(res.body).data;
  };

  it("records an app token rotation and an SSO change, read back by the owner with filters, never by another organisation", async () => {
    const created = await t.call({ method: 'POST', url: '/api/v1/apps/create', token: owner.token, payload: { name: 'CRM sync' } });
    expect(created.status).toBe(200);
    const appId = created.body.data.id as string;
    const rotated = await t.call({ method: 'POST', url: '/api/v1/apps/update', token: owner.token, payload: { app_id: appId, rotate_token: true } });
    expect(rotated.status).toBe(200);
    const sso = await t.call({
      method: 'POST',
      url: '/api/v1/user_preferences/sso',
      token: owner.token,
      payload: { enabled: true, provider: 'oidc', domains: ['audit-acme.example'], client_id: 'client-1', client_secret: 'never-logged-secret', issuer_url: 'https://id.audit-acme.example' },
    });
    expect(sso.status).toBe(200);

    const all = await read(owner, '?limit=100');
    const actions = all.items.map((e) => e.action);
    expect(actions).toContain('app.token_rotated');
    expect(actions).toContain('sso.settings_changed');
    const rotation = all.items.find((e) => e.action === 'app.token_rotated')!;
    expect(rotation).toMatchObject({ action_label: 'App token rotated', actor_id: owner.userId, actor_email: 'owner@audit.test', target_type: 'app', target_id: appId });
    const ssoEntry = all.items.find((e) => e.action === 'sso.settings_changed')!;
    expect(ssoEntry.details).toMatchObject({ enabled: true, provider: 'oidc', domains: ['audit-acme.example'], client_secret_changed: true });
    expect(JSON.stringify(all)).not.toContain('never-logged-secret');

    const onlySso = await read(owner, '?action=sso.settings_changed');
    expect(onlySso.items.map((e) => e.action)).toEqual(['sso.settings_changed']);
    expect(onlySso.total).toBe(1);
    const future = await read(owner, '?from=2099-01-01');
    expect(future.total).toBe(0);
    const byActor = await read(owner, `?actor_id=${owner.userId}&limit=100`);
    expect(byActor.total).toBe(all.total);

    const theirs = await read(stranger, '?limit=100');
    expect(theirs.items.some((e) => e.target_id === appId || e.action === 'sso.settings_changed')).toBe(false);
  });

  it('names the member a change was about (name and e-mail, in the list and the CSV), only for members of its own organisation', async () => {
    const add = await t.call({ method: 'POST', url: '/api/v1/admin/member/add', token: owner.token, payload: { email: 'mia@audit.test', role: 'analyst', name: 'Mia Member' } });
    expect(add.status).toBe(200);
    const memberId = add.body.data.member.member_id as string;
    const edit = await t.call({ method: 'POST', url: '/api/v1/admin/member/edit', token: owner.token, payload: { member_id: memberId, role: 'admin' } });
    expect(edit.status).toBe(200);
    // An entry of this organisation naming another organisation's user (no such change exists; the read must not resolve it).
    await recordAudit(t.db.db, { orgId: owner.orgId, userId: owner.userId }, { action: 'team.member_removed', targetType: 'member', targetId: stranger.userId });

    const roleChange = (await read(owner, '?action=team.member_role_changed')).items[0]!;
    expect(roleChange).toMatchObject({ target_type: 'member', target_id: memberId, target_name: 'Mia Member (mia@audit.test)', details: { from: 'analyst', to: 'admin' } });
    const invite = (await read(owner, '?action=team.member_invited')).items[0]!;
    expect(invite.target_name).toBe('Mia Member (mia@audit.test)');
    const removal = (await read(owner, '?action=team.member_removed')).items[0]!;
    expect(removal).toMatchObject({ target_id: stranger.userId, target_name: null });
    expect(JSON.stringify(await read(owner, '?limit=100'))).not.toContain('stranger@audit.test');

    const res = await t.app.inject({ method: 'GET', url: '/api/v1/audit_log/export?action=team.member_role_changed', headers: { authorization: `Bearer ${owner.token}` } });
    const parsed = Papa.parse<Record<string, string>>(res.body.trim(), { header: true });
    expect(parsed.data[0]).toMatchObject({ target_type: 'member', target_id: memberId, target_name: 'Mia Member (mia@audit.test)' });
  });

  it("names who acted (today's name, among its own organisation's members only; \"Deleted user\" without the erased address)", async () => {
    const own = (await read(owner, '?action=app.token_rotated')).items[0]!;
    expect(own).toMatchObject({ actor_id: owner.userId, actor_email: 'owner@audit.test', actor_name: 'Test Owner' });

    const add = await t.call({ method: 'POST', url: '/api/v1/admin/member/add', token: owner.token, payload: { email: 'dora@audit.test', role: 'analyst', name: 'Dora Departed' } });
    expect(add.status).toBe(200);
    const doraId = add.body.data.member.member_id as string;
    await recordAudit(t.db.db, { orgId: owner.orgId, userId: doraId }, { action: 'webhook.deleted', targetType: 'webhook', targetId: 'by-dora' });
    // An entry of this organisation whose actor id is another organisation's user (no such entry is written; the read must not resolve it).
    await recordAudit(t.db.db, { orgId: owner.orgId, userId: stranger.userId, email: 'someone@audit.test' }, { action: 'webhook.deleted', targetType: 'webhook', targetId: 'by-stranger' });
    const byTarget = async () => new Map((await read(owner, '?action=webhook.deleted&limit=100')).items.map((e) => [e.target_id, e]));
    expect((await byTarget()).get('by-dora')).toMatchObject({ actor_email: 'dora@audit.test', actor_name: 'Dora Departed' });
    expect((await byTarget()).get('by-stranger')).toMatchObject({ actor_id: stranger.userId, actor_email: 'someone@audit.test', actor_name: null });
    expect(JSON.stringify(await read(owner, '?limit=100'))).not.toContain('Stella Stranger');

    // the account deleted (as deleteAccount leaves it: anonymised, the membership kept as removed)
    await t.db.db.execute(sql`update users set deleted_at = now(), name = 'Deleted user', email = ${`deleted-${doraId}@deleted.invalid`} where id = ${doraId}`);
    await t.db.db.execute(sql`update memberships set status = 'removed' where user_id = ${doraId}`);
    expect((await byTarget()).get('by-dora')).toMatchObject({ actor_id: doraId, actor_email: null, actor_name: 'Deleted user' });
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/audit_log/export?action=webhook.deleted', headers: { authorization: `Bearer ${owner.token}` } });
    expect(res.body).not.toContain('dora@audit.test');
    const rows = Papa.parse<Record<string, string>>(res.body.trim(), { header: true }).data;
    expect(rows.find((r) => r.target_id === 'by-dora')).toMatchObject({ actor_email: '', actor_name: 'Deleted user' });
  });

  it('records a failed and a successful sign-in', async () => {
    const bad = await t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email: 'owner@audit.test', password: 'Wrong-Password-9' } });
    expect(bad.status).toBe(401);
    const good = await t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email: 'owner@audit.test', password: TEST_PASSWORD } });
    expect(good.status).toBe(200);
    expect((await read(owner, '?action=auth.sign_in_failed')).total).toBe(1);
    expect((await read(owner, '?action=auth.sign_in')).total).toBeGreaterThanOrEqual(1);
  });

  it('exports the filtered entries as CSV', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/audit_log/export?action=app.token_rotated', headers: { authorization: `Bearer ${owner.token}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="audit-log-\d{4}-\d{2}-\d{2}\.csv"/);
    const parsed = Papa.parse<Record<string, string>>(res.body.trim(), { header: true });
    expect(parsed.data.map((r) => r.action)).toEqual(['app.token_rotated']);
    expect(parsed.data[0]?.actor_email).toBe('owner@audit.test');
  });

  it('is for owners and Managers only, and refuses a bad filter with a readable 400', async () => {
    expect(isApiAllowed('GET', '/api/v1/audit_log', 'owner')).toBe(true);
    expect(isApiAllowed('GET', '/api/v1/audit_log', 'admin')).toBe(true);
    expect(isApiAllowed('GET', '/api/v1/audit_log', 'analyst')).toBe(false);
    expect(isApiAllowed('GET', '/api/v1/audit_log/export', 'analyst')).toBe(false);
    const bad = await t.call({ method: 'GET', url: '/api/v1/audit_log?action=nope', token: owner.token });
    expect(bad.status).toBe(400);
    expect(bad.body.error.reasons[0]).toMatchObject({ field: 'action', messages: ['Please choose an action from the list'] });
  });

  it('is append-only: the database refuses UPDATE and DELETE of an entry', async () => {
    expect(await refusalOf(t.db.db.execute(sql`update audit_log set action = 'auth.sign_in' where org_id = ${owner.orgId}`))).toBe('the audit log is append-only (UPDATE refused)');
    expect(await refusalOf(t.db.db.execute(sql`delete from audit_log where org_id = ${owner.orgId}`))).toBe('the audit log is append-only (DELETE refused)');
  });

  it('deletes entries older than AUDIT_RETENTION_DAYS in the maintenance task and keeps the newer', async () => {
    await recordAudit(t.db.db, { orgId: stranger.orgId, userId: stranger.userId }, { action: 'webhook.deleted', targetType: 'webhook', targetId: 'old-one' });
    await t.db.db.execute(sql`alter table audit_log disable trigger audit_log_append_only`);
    await t.db.db.execute(sql`update audit_log set created_at = now() - interval '40 days' where target_id = 'old-one'`);
    await t.db.db.execute(sql`alter table audit_log enable trigger audit_log_append_only`);
    const before = await selectRows<{ n: number }>(t.db.db, sql`select count(*)::int as n from audit_log`);
    const purged = await createAuditRetentionTask({ database: t.db, retentionDays: 30 }).run();
    expect(purged).toBe(1);
    const after = await selectRows<{ n: number }>(t.db.db, sql`select count(*)::int as n from audit_log`);
    expect(after[0]!.n).toBe(before[0]!.n - 1);
    // the purge's permission ended with its transaction
    expect(await refusalOf(t.db.db.execute(sql`delete from audit_log where org_id = ${owner.orgId}`))).toBe('the audit log is append-only (DELETE refused)');
  });
});
