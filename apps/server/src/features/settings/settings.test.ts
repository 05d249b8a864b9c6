import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZEvSettingsResponse, ZSsoSettingsResponse, ZUserPreferencesResponse, ZWbListResponse } from '@verilead/contracts';
import { createTestApp, type TTestApp } from '../../test/test-app';
import { getVerifierPreferences } from './service';

describe('settings API', () => {
  let t: TTestApp;
  let owner: { token: string; userId: string; orgId: string };
  const ev = '/api/v1/user_preferences/email_verification_settings';
  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.createOwner('owner@settings.test');
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers defaults, then stores each ev setting with its modification time', async () => {
    const d = ZUserPreferencesResponse.parse((await t.call({ method: 'GET', url: '/api/v1/user_preferences', token: owner.token })).body).data;
    expect(d.ev_settings).toEqual({ setting_last_modified_on: null, default_email_verify_mode: 'highest_accuracy', can_show_email_verify_mode: false, auto_pilot_status: false, gibberish_threshold_value: 'high' });
    expect(d.ef_settings).toMatchObject({ include_role_email: true, strict_domain_check: false });
    const a = await t.call({ method: 'PUT', url: `${ev}/autopilot`, token: owner.token, payload: { auto_pilot_status: true } });
    expect(ZEvSettingsResponse.parse(a.body).data.auto_pilot_status).toBe(true);
    expect(a.body.data.setting_last_modified_on).not.toBeNull();
    await t.call({ method: 'PUT', url: `${ev}/accuracy`, token: owner.token, payload: { default_email_verify_mode: 'fastest_turnaround', can_show_email_verify_mode: true } });
    const g = await t.call({ method: 'PUT', url: `${ev}/gibberish_threshold`, token: owner.token, payload: { gibberish_threshold_value: 'low' } });
    expect(g.body.data).toMatchObject({ auto_pilot_status: true, default_email_verify_mode: 'fastest_turnaround', can_show_email_verify_mode: true, gibberish_threshold_value: 'low' });
    for (const [url, payload] of [
      [`${ev}/autopilot`, { auto_pilot_status: 'yes' }],
      [`${ev}/accuracy`, { default_email_verify_mode: 'slow' }],
      [`${ev}/gibberish_threshold`, { gibberish_threshold_value: 'extreme' }],
      ['/api/v1/user_preferences/notification_settings/update', {}],
      ['/api/v1/user_preferences/email_finder_settings', { include_role_email: 'no' }],
      ['/api/v1/user_preferences/prospect_settings/enrich', { person_enrich_settings: { phones: 'fax', emails: 'all' } }],
    ] as const) {
      const res = await t.call({ method: 'PUT', url, token: owner.token, payload });
      expect(res.status, url).toBe(400);
      expect(res.body.error.reasons.length, url).toBeGreaterThan(0);
    }
  });

  it('stores notification, finder and prospect settings', async () => {
    const n = await t.call({ method: 'PUT', url: '/api/v1/user_preferences/notification_settings/update', token: owner.token, payload: { low_credit_notification: false } });
    expect(n.body.data).toMatchObject({ notifications: true, low_credit_notification: false });
    const f = await t.call({ method: 'PUT', url: '/api/v1/user_preferences/email_finder_settings', token: owner.token, payload: { strict_domain_check: true } });
    expect(f.body.data).toMatchObject({ include_role_email: true, strict_domain_check: true });
    const p = await t.call({ method: 'PUT', url: '/api/v1/user_preferences/prospect_settings/enrich', token: owner.token, payload: { person_enrich_settings: { phones: 'mobile_only', emails: 'business_only' } } });
    expect(p.body.data.person_enrich_settings).toEqual({ phones: 'mobile_only', emails: 'business_only' });
    const all = await t.call({ method: 'GET', url: '/api/v1/user_preferences', token: owner.token });
    expect(all.body.data.notification_settings.low_credit_notification).toBe(false);
    expect(all.body.data.ef_settings.strict_domain_check).toBe(true);
  });

  it('keeps the allow / block list and hands it to the verifier', async () => {
    const add = await t.call({ method: 'PUT', url: `${ev}/wb_list`, token: owner.token, payload: { action: 'add', list_type: 'block', entries: ['Spam.Example', 'bad@spam.example'] } });
    expect(add.status).toBe(200);
    await t.call({ method: 'PUT', url: `${ev}/wb_list`, token: owner.token, payload: { action: 'add', list_type: 'allow', entries: ['ceo@partner.example'] } });
    const list = ZWbListResponse.parse((await t.call({ method: 'GET', url: `${ev}/wb_list?list_type=block`, token: owner.token })).body).data;
    expect(list.items.map((i) => i.value)).toEqual(['bad@spam.example', 'spam.example']);
    expect(list).toMatchObject({ allow_count: 1, block_count: 2 });
    expect(list.setting_last_modified_on).not.toBeNull();
    const prefs = await getVerifierPreferences(t.db.db, owner);
    expect(prefs.wbList.block.sort()).toEqual(['bad@spam.example', 'spam.example']);
    // Moving an entry to the other list.
    await t.call({ method: 'PUT', url: `${ev}/wb_list`, token: owner.token, payload: { action: 'add', list_type: 'allow', entries: ['spam.example'] } });
    const after = await t.call({ method: 'GET', url: `${ev}/wb_list?search=spam`, token: owner.token });
    expect(after.body.data).toMatchObject({ allow_count: 2, block_count: 1 });
    const removed = await t.call({ method: 'PUT', url: `${ev}/wb_list`, token: owner.token, payload: { action: 'remove', list_type: 'allow', entries: ['spam.example'] } });
    expect(removed.body.data.allow_count).toBe(1);
    for (const payload of [{ action: 'add', list_type: 'block', entries: ['not a domain'] }, { action: 'add', list_type: 'grey', entries: ['a.example'] }, { action: 'add', list_type: 'block', entries: [] }]) {
      expect((await t.call({ method: 'PUT', url: `${ev}/wb_list`, token: owner.token, payload })).status).toBe(400);
    }
    expect((await t.call({ method: 'GET', url: `${ev}/wb_list?limit=7`, token: owner.token })).status).toBe(400);
  });

  it('validates and stores SSO settings without ever answering the secret', async () => {
    const empty = ZSsoSettingsResponse.parse((await t.call({ method: 'GET', url: '/api/v1/user_preferences/sso', token: owner.token })).body).data;
    expect(empty).toMatchObject({ enabled: false, provider: null, has_client_secret: false });
    const bad = await t.call({ method: 'POST', url: '/api/v1/user_preferences/sso', token: owner.token, payload: { enabled: true, provider: 'oidc', domains: ['acme.example'], client_id: 'x' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.reasons[0].field).toBe('issuer_url');
    const noSecret = await t.call({ method: 'POST', url: '/api/v1/user_preferences/sso', token: owner.token, payload: { enabled: true, provider: 'oidc', domains: ['acme.example'], client_id: 'x', issuer_url: 'https://id.acme.example' } });
    expect(noSecret.status).toBe(400);
    const okRes = await t.call({
      method: 'POST',
      url: '/api/v1/user_preferences/sso',
      token: owner.token,
      payload: { enabled: true, provider: 'oidc', domains: ['Acme.example'], client_id: 'client-1', client_secret: 's3cret-value', issuer_url: 'https://id.acme.example' },
    });
    expect(okRes.status).toBe(200);
    expect(okRes.body.data).toMatchObject({ enabled: true, provider: 'oidc', domains: ['acme.example'], client_id: 'client-1', has_client_secret: true });
    expect(JSON.stringify(okRes.body)).not.toContain('s3cret-value');
    const rows = await t.db.db.execute(`select client_secret_enc from org_sso_settings` as never);
    expect(JSON.stringify(rows)).not.toContain('s3cret-value');
  });
});
