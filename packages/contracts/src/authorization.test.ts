import { describe, expect, it } from 'vitest';
import {
  API_AUTHORIZATION,
  MENU_ENTRIES,
  OBJECT_OWNERSHIP,
  OWNER_ONLY_INTEGRATIONS,
  canSeeMemberObject,
  findApiRule,
  getRuleRoles,
  isApiAllowed,
  isPublicApiRoute,
  normalizeApiRouteKey,
} from './index';

describe('authorisation table', () => {
  it('takes the roles of menu routes from the menu table', () => {
    for (const [key, rule] of Object.entries(API_AUTHORIZATION)) {
      if (!rule.menu) continue;
      const entry = MENU_ENTRIES.find((e) => `${e.area}.${e.key}` === rule.menu);
      expect(entry, `${key} names menu ${rule.menu}`).toBeDefined();
      expect(getRuleRoles(rule)).toEqual(entry?.roles);
    }
  });

  it('keeps billing, pricing, coupons and delete for the owner only', () => {
    for (const key of ['POST /payment/buy', 'GET /payment/cards', 'GET /price/slab', 'POST /coupon/apply', 'GET /invoice/list', 'PATCH /user/account']) {
      const [method = '', path = ''] = key.split(' ');
      expect(isApiAllowed(method, path, 'owner'), key).toBe(true);
      expect(isApiAllowed(method, path, 'admin'), key).toBe(false);
      expect(isApiAllowed(method, path, 'analyst'), key).toBe(false);
    }
  });

  it('gives admin, team analytics keys, plan and authentication to owner and admin', () => {
    for (const key of ['POST /admin/member/add', 'POST /admin/edit', 'GET /user/generateapikey', 'POST /user/upgrade', 'POST /user_preferences/sso', 'PUT /admin/settings/prospect']) {
      const [method = '', path = ''] = key.split(' ');
      expect(isApiAllowed(method, path, 'owner'), key).toBe(true);
      expect(isApiAllowed(method, path, 'admin'), key).toBe(true);
      expect(isApiAllowed(method, path, 'analyst'), key).toBe(false);
    }
    expect(isApiAllowed('POST', '/email_verify/instant', 'analyst')).toBe(true);
    expect(isApiAllowed('POST', '/insights/graph', 'analyst')).toBe(true);
  });

  it('matches registered patterns with the prefix, any parameter name and HEAD', () => {
    expect(findApiRule('GET', '/api/v1/apps/:app_id')).toBe(API_AUTHORIZATION['GET /apps/:id']);
    expect(findApiRule('HEAD', '/api/v1/user/profile')).toBe(API_AUTHORIZATION['GET /user/profile']);
    expect(normalizeApiRouteKey('get', '/api/v1/integration/account/{integration}/')).toBe('GET /integration/account/:');
    expect(isPublicApiRoute('POST', '/api/v1/user/login')).toBe(true);
    expect(isPublicApiRoute('GET', '/api/v1/user/profile')).toBe(false);
  });

  it('refuses routes missing from the table (fail closed)', () => {
    expect(findApiRule('POST', '/api/v1/not/in/the/table')).toBeUndefined();
    for (const role of ['owner', 'admin', 'analyst'] as const) expect(isApiAllowed('POST', '/api/v1/not/in/the/table', role)).toBe(false);
  });

  it('keeps owner-only integrations for the owner', () => {
    const ownerOnly = OWNER_ONLY_INTEGRATIONS[0] ?? '';
    expect(isApiAllowed('POST', '/integration/account/:integration', 'owner', { integration: ownerOnly })).toBe(true);
    expect(isApiAllowed('POST', '/integration/account/:integration', 'admin', { integration: ownerOnly })).toBe(false);
    expect(isApiAllowed('POST', '/integration/account/:integration', 'admin', { integration: 'sendgrid' })).toBe(true);
    expect(isApiAllowed('POST', '/integration/account/:integration', 'analyst', { integration: 'sendgrid' })).toBe(false);
  });
});

describe('member object visibility', () => {
  it('lets owners and managers see every member object and an Executive only their own', () => {
    expect(canSeeMemberObject('owner', 'u1', 'u2')).toBe(true);
    expect(canSeeMemberObject('admin', 'u1', 'u2')).toBe(true);
    expect(canSeeMemberObject('analyst', 'u1', 'u2')).toBe(false);
    expect(canSeeMemberObject('analyst', 'u1', 'u1')).toBe(true);
  });

  it('names the object of every by-id list, search and download route', () => {
    for (const key of ['POST /email_verify/list/remove', 'GET /email_verify/bulk/progress_status', 'POST /email_finder/download/result', 'GET /email_finder/instant/queue_status', 'GET /download/result/status']) {
      const rule = API_AUTHORIZATION[key];
      expect(rule?.object, key).toBeDefined();
      expect(OBJECT_OWNERSHIP[rule!.object!.kind], key).toBe('member');
    }
    // Issue 27 point 9: apps (and so guards), webhooks and their deliveries are their creator's, like lists.
    for (const key of ['POST /apps/update', 'GET /apps/:id', 'POST /webhook', 'DELETE /webhook/:id', 'POST /webhook/test', 'POST /webhook/event_logs/redeliver']) {
      expect(OBJECT_OWNERSHIP[API_AUTHORIZATION[key]!.object!.kind], key).toBe('member');
    }
    // The organisation's signing secret signs everyone's webhooks: an Executive reads it but does not rotate it.
    expect(isApiAllowed('GET', '/webhook/token', 'analyst')).toBe(true);
    expect(isApiAllowed('POST', '/webhook/token', 'analyst')).toBe(false);
    expect(isApiAllowed('POST', '/webhook/token', 'admin')).toBe(true);
  });
});
