import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_ROLES, findApiRule, getRuleRoles, isApiAllowed, type TRole } from '@verilead/contracts';
import { createTestApp, TEST_PASSWORD, type TTestApp } from './test/test-app';

const MEMBER_PASSWORD = 'Walker-Pass-42';
type TMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type TRoute = { method: TMethod; path: string; params: string[] };
type TAnswer = { status: number; body: { error?: { code?: string } } };

/**
 * The whole-table walk: every route of the OpenAPI document is called as owner, Manager (admin),
 * Executive (analyst), a member of another organisation and an inactive member, and each answer is
 * checked against the authorisation table. Bodies are empty, so an authorised call may answer 400;
 * what matters is the gate: authorised roles never get 403, others always do, and nothing answers 500.
 */
describe('authorisation table walk', () => {
  let t: TTestApp;
  let routes: TRoute[] = [];
  const tokens = {} as Record<TRole | 'stranger' | 'inactive', string>;
  const emails = {} as Record<TRole | 'stranger' | 'inactive', string>;

  async function addMember(ownerToken: string, email: string, role: 'admin' | 'analyst') {
    const add = await t.call({ method: 'POST', url: '/api/v1/admin/member/add', token: ownerToken, payload: { email, role } });
    if (add.status !== 200) throw new Error(`add failed: ${JSON.stringify(add.body)}`);
    const setup = await t.mailedToken(email, '/setup_password');
    await t.call({ method: 'POST', url: '/api/v1/user/password/setup', payload: { token: setup, password: MEMBER_PASSWORD } });
    return { id: add.body.data.member.member_id as string, token: await login(email, MEMBER_PASSWORD) };
  }
  async function login(email: string, password: string): Promise<string> {
    const res = await t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email, password } });
    if (res.status !== 200) throw new Error(`login ${email} failed: ${JSON.stringify(res.body)}`);
    return res.body.data.token;
  }

  beforeAll(async () => {
    t = await createTestApp();
    const owner = await t.createOwner('owner@walk.test');
    tokens.owner = owner.token;
    emails.owner = 'owner@walk.test';
    tokens.admin = (await addMember(owner.token, 'manager@walk.test', 'admin')).token;
    tokens.analyst = (await addMember(owner.token, 'exec@walk.test', 'analyst')).token;
    const inactive = await addMember(owner.token, 'inactive@walk.test', 'admin');
    tokens.inactive = inactive.token;
    const off = await t.call({ method: 'POST', url: '/api/v1/admin/member/update_status', token: owner.token, payload: { member_id: inactive.id, status: 'inactive' } });
    expect(off.status).toBe(200);
    tokens.stranger = (await t.createOwner('stranger@walk.test')).token;
    Object.assign(emails, { admin: 'manager@walk.test', analyst: 'exec@walk.test', inactive: 'inactive@walk.test', stranger: 'stranger@walk.test' });

    const doc = (await t.call({ method: 'GET', url: '/api/v1/openapi.json' })).body as { paths: Record<string, Record<string, unknown>> };
    routes = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops)
        .filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
        .map((m) => ({ method: m.toUpperCase() as TMethod, path, params: [...path.matchAll(/\{([^}]+)\}/g)].map((x) => x[1] ?? '') })),
    );
  });
  afterAll(async () => {
    await t.close();
  });

  /** A fresh token for calls that end the session (logout), so the walk keeps its tokens. */
  async function tokenFor(who: TRole | 'stranger' | 'inactive', route: TRoute): Promise<string> {
    if (route.method === 'GET' && route.path.endsWith('/user/logout') && who !== 'inactive') {
      return login(emails[who], who === 'owner' || who === 'stranger' ? TEST_PASSWORD : MEMBER_PASSWORD);
    }
    return tokens[who];
  }

  async function callRoute(route: TRoute, token: string | undefined, paramValue = '00000000-0000-4000-8000-000000000000'): Promise<TAnswer> {
    const url = route.path.replace(/\{[^}]+\}/g, paramValue);
    return t.call({ method: route.method, url, ...(token ? { token } : {}), ...(route.method === 'GET' ? {} : { payload: {} }) });
  }

  it('has every documented route in the table', () => {
    expect(routes.length).toBeGreaterThan(20);
    // the walk covers the admin area and the owner-only routes it must refuse to others
    expect(routes.some((r) => r.method === 'POST' && r.path === '/api/v1/admin/member/add')).toBe(true);
    expect(routes.some((r) => r.method === 'PATCH' && r.path === '/api/v1/user/account')).toBe(true);
    const missing = routes.filter((r) => !findApiRule(r.method, r.path)).map((r) => `${r.method} ${r.path}`);
    expect(missing, `routes missing from packages/contracts/src/authorization.ts:\n${missing.join('\n')}`).toEqual([]);
  });

  it('answers every route as the table says for owner, Manager and Executive', async () => {
    const problems: string[] = [];
    for (const route of routes) {
      const rule = findApiRule(route.method, route.path);
      if (!rule) continue;
      for (const role of ALL_ROLES) {
        const res = await callRoute(route, await tokenFor(role, route));
        const allowed = isApiAllowed(route.method, route.path, role);
        const key = `${route.method} ${route.path} as ${role}: ${res.status} ${res.body?.error?.code ?? ''}`;
        if (res.status >= 500) problems.push(`${key} (server error)`);
        else if (allowed && res.status === 403 && res.body?.error?.code === 'forbidden') problems.push(`${key} (authorised but refused)`);
        else if (allowed && res.status === 401) problems.push(`${key} (authorised but not authenticated)`);
        else if (!allowed && res.status !== 403) problems.push(`${key} (should be 403)`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('lets anyone call public routes and asks for login everywhere else', async () => {
    const problems: string[] = [];
    for (const route of routes) {
      const rule = findApiRule(route.method, route.path);
      if (!rule) continue;
      const res = await callRoute(route, undefined);
      const key = `${route.method} ${route.path} without login: ${res.status}`;
      if (res.status >= 500) problems.push(`${key} (server error)`);
      else if (rule.access === 'public' && (res.status === 401 || res.status === 403)) problems.push(`${key} (public but refused)`);
      else if (rule.access !== 'public' && res.status !== 401) problems.push(`${key} (should be 401)`);
    }
    expect(problems).toEqual([]);
  });

  it('refuses an inactive member on every route that needs login', async () => {
    const problems: string[] = [];
    for (const route of routes) {
      const rule = findApiRule(route.method, route.path);
      if (!rule || rule.access === 'public') continue;
      const res = await callRoute(route, tokens.inactive);
      if (res.status !== 401 || res.body?.error?.code !== 'account_inactive') problems.push(`${route.method} ${route.path}: ${res.status} ${res.body?.error?.code ?? ''}`);
    }
    expect(problems).toEqual([]);
  });

  it("gives a member of another organisation the table's answer and 404 for ids they do not own", async () => {
    const problems: string[] = [];
    for (const route of routes) {
      const rule = findApiRule(route.method, route.path);
      if (!rule) continue;
      const res = await callRoute(route, await tokenFor('stranger', route));
      const key = `${route.method} ${route.path} as another organisation's owner: ${res.status}`;
      if (res.status >= 500) problems.push(`${key} (server error)`);
      else if (!getRuleRoles(rule).includes('owner') && res.status !== 403) problems.push(`${key} (should be 403)`);
      else if (route.params.length > 0 && getRuleRoles(rule).includes('owner') && ![400, 404].includes(res.status)) problems.push(`${key} (an id of no object of theirs must answer 404)`);
    }
    expect(problems).toEqual([]);
  });
});
