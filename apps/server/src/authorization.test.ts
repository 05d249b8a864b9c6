import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALL_ROLES,
  API_AUTHORIZATION,
  OBJECT_OWNERSHIP,
  findApiRule,
  getRuleRoles,
  isApiAllowed,
  type TMemberObjectKind,
  type TObjectRef,
  type TRole,
} from '@verilead/contracts';
import { downloads } from './features/downloads/tables';
import { EMPTY_FINDER_COUNTERS } from './features/email-finder/queries';
import { finderInstant, finderLists } from './features/email-finder/tables';
import { EMPTY_COUNTERS } from './features/email-verifier/queries';
import { verifyLists } from './features/email-verifier/tables';
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

/**
 * The by-id walk: every route the table marks with a member object (lists, searches, prepared files) is called by
 * the owner, a Manager (admin) and an Executive (analyst) on their own object, on another member's object and on
 * another organisation's object. What a role does not see on the list pages answers 404 by id, like another
 * organisation's id (MEMBER_OBJECT_VISIBILITY); organisation objects (apps, webhooks) are every member's.
 */
describe('authorisation by id: member objects', () => {
  type TWho = TRole | 'stranger';
  let t: TTestApp;
  let storageDir: string;
  const users = {} as Record<TWho, { token: string; userId: string; orgId: string }>;

  async function addMember(ownerToken: string, orgId: string, email: string, role: 'admin' | 'analyst') {
    const add = await t.call({ method: 'POST', url: '/api/v1/admin/member/add', token: ownerToken, payload: { email, role } });
    if (add.status !== 200) throw new Error(`add failed: ${JSON.stringify(add.body)}`);
    const setup = await t.mailedToken(email, '/setup_password');
    await t.call({ method: 'POST', url: '/api/v1/user/password/setup', payload: { token: setup, password: MEMBER_PASSWORD } });
    const res = await t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email, password: MEMBER_PASSWORD } });
    return { token: res.body.data.token as string, userId: res.body.data.user.id as string, orgId };
  }

  beforeAll(async () => {
    storageDir = await mkdtemp(join(tmpdir(), 'vl-authz-'));
    t = await createTestApp({ storageDir, allowPrivateDestinations: true });
    users.owner = await t.createOwner('owner@byid.test');
    users.admin = await addMember(users.owner.token, users.owner.orgId, 'manager@byid.test', 'admin');
    users.analyst = await addMember(users.owner.token, users.owner.orgId, 'exec@byid.test', 'analyst');
    users.stranger = await t.createOwner('stranger@byid.test');
  });
  afterAll(async () => {
    await t.close();
    await rm(storageDir, { recursive: true, force: true });
  });

  /** A fresh object of `kind` created by `who` (inserted directly: the walk is about the gate, not the jobs). */
  async function makeObject(kind: TMemberObjectKind, who: TWho): Promise<string> {
    const { orgId, userId } = users[who];
    const db = t.db.db;
    if (kind === 'verify_list') {
      // The list's uploaded file exists (routes such as list/columns read it), so a 404 can only be the gate's.
      const storageKey = `uploads/${orgId}/walk-${randomUUID()}`;
      const path = join(storageDir, storageKey);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, 'email,name\nalice@walk.test,Alice\n');
      const [row] = await db
        .insert(verifyLists)
        .values({ orgId, userId, name: 'walk', fileName: 'walk.csv', fileType: 'csv', storageKey, sizeBytes: 10, emailColumn: 0, hasHeader: true, state: 'verified', analysisState: 'ready', counters: { ...EMPTY_COUNTERS } })
        .returning();
      return row!.id;
    }
    if (kind === 'finder_list') {
      const [row] = await db
        .insert(finderLists)
        .values({ orgId, userId, name: 'walk', fileName: 'walk.csv', fileType: 'csv', storageKey: `uploads/${orgId}/finder-${randomUUID()}`, sizeBytes: 10, hasHeader: true, header: ['name', 'domain'], mapping: { full_name: 0, domain: 1 }, state: 'processed', counters: { ...EMPTY_FINDER_COUNTERS } })
        .returning();
      return row!.id;
    }
    if (kind === 'finder_search') {
      const [row] = await db.insert(finderInstant).values({ orgId, userId, state: 'failed', input: {}, error: 'walk', fullName: 'Walk Er', domain: 'walk.test' }).returning();
      return row!.id;
    }
    const [row] = await db.insert(downloads).values({ orgId, userId, kind: 'result', fileType: 'csv', columns: ['email'], state: 'queued', fileName: 'walk.csv' }).returning();
    return row!.id;
  }

  /** Calls a by-id route on `id` with the smallest valid body. */
  function callById(method: string, path: string, ref: TObjectRef, id: string, token: string) {
    const extra: Record<string, unknown> = path === '/email_verify/list/export' || path === '/download/result' ? { kind: 'input' } : {};
    if (ref.from === 'query') return t.call({ method: method as 'GET', url: `/api/v1${path}?${ref.field}=${id}`, token });
    return t.call({ method: method as 'POST', url: `/api/v1${path}`, token, payload: { [ref.field]: id, ...extra } });
  }

  it('lets each role reach exactly the objects its list pages show', async () => {
    const memberRoutes = Object.entries(API_AUTHORIZATION).filter(([, rule]) => rule.object && OBJECT_OWNERSHIP[rule.object.kind] === 'member');
    expect(memberRoutes.length).toBeGreaterThanOrEqual(14);
    const problems: string[] = [];
    for (const [key, rule] of memberRoutes) {
      const [method = '', path = ''] = key.split(' ');
      const ref = rule.object!;
      for (const caller of ALL_ROLES) {
        const targets: [string, TWho, boolean][] = [
          ['own', caller, true],
          ...ALL_ROLES.filter((r) => r !== caller).map((r): [string, TWho, boolean] => [`the ${r}'s`, r, caller !== 'analyst']),
          ["another organisation's", 'stranger', false],
        ];
        for (const [label, creator, visible] of targets) {
          const id = await makeObject(ref.kind as TMemberObjectKind, creator);
          const got = await callById(method, path, ref, id, users[caller].token);
          const where = `${key} as ${caller} on ${label} ${ref.kind}: ${got.status} ${got.body?.error?.code ?? ''}`;
          if (got.status >= 500) problems.push(`${where} (server error)`);
          else if (visible && (got.status === 404 || got.status === 403 || got.status === 401)) problems.push(`${where} (should be reachable)`);
          else if (!visible && got.status !== 404) problems.push(`${where} (should be 404)`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it("keeps an Executive's duplicate-name check to their own lists", async () => {
    await makeObject('verify_list', 'owner');
    const asExec = await t.call({ method: 'POST', url: '/api/v1/email_verify/bulk_upload/check_duplicate', token: users.analyst.token, payload: { file_name: 'walk.csv' } });
    expect(asExec.status).toBe(200);
    expect(asExec.body.data.lists.every((l: { id: string }) => typeof l.id === 'string')).toBe(true);
    const ownerIds = (await t.call({ method: 'POST', url: '/api/v1/email_verify/list', token: users.owner.token, payload: { limit: 500 } })).body.data.items
      .filter((l: { file_name: string }) => l.file_name === 'walk.csv')
      .map((l: { id: string }) => l.id);
    const execIds = (await t.call({ method: 'POST', url: '/api/v1/email_verify/list', token: users.analyst.token, payload: { limit: 500 } })).body.data.items.map((l: { id: string }) => l.id);
    for (const l of asExec.body.data.lists as { id: string }[]) expect(execIds).toContain(l.id);
    expect(ownerIds.length).toBeGreaterThan(0);
    const finder = await t.call({ method: 'POST', url: '/api/v1/email_finder/bulk_upload/check_duplicate', token: users.analyst.token, payload: { file_name: 'walk.csv' } });
    expect(finder.status).toBe(200);
    const execFinderIds = (await t.call({ method: 'POST', url: '/api/v1/email_finder/list', token: users.analyst.token, payload: { limit: 500 } })).body.data.items.map((l: { id: string }) => l.id);
    for (const l of finder.body.data.lists as { id: string }[]) expect(execFinderIds).toContain(l.id);
  });

  it("lets every member use the organisation's apps and webhooks, as menus.tsv says (apps edit_app, developer webhook: everyone)", async () => {
    const app = await t.call({ method: 'POST', url: '/api/v1/apps/create', token: users.owner.token, payload: { name: 'Owner app' } });
    expect(app.status).toBe(200);
    const appId = app.body.data.id as string;
    expect((await t.call({ method: 'GET', url: `/api/v1/apps/${appId}`, token: users.analyst.token })).status).toBe(200);
    const renamed = await t.call({ method: 'POST', url: '/api/v1/apps/update', token: users.analyst.token, payload: { app_id: appId, name: 'Renamed by the Executive' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data.name).toBe('Renamed by the Executive');
    expect((await t.call({ method: 'GET', url: `/api/v1/apps/${appId}`, token: users.stranger.token })).status).toBe(404);

    const hook = await t.call({ method: 'POST', url: '/api/v1/webhook', token: users.owner.token, payload: { name: 'Owner hook', url: 'http://127.0.0.1:9/hook', events: ['email_verifier.instant.completed'] } });
    expect(hook.status).toBe(200);
    expect((await t.call({ method: 'GET', url: `/api/v1/webhook/${hook.body.data.id}`, token: users.analyst.token })).status).toBe(200);
    expect((await t.call({ method: 'POST', url: '/api/v1/webhook/token', token: users.analyst.token, payload: {} })).status).toBe(200);
    expect((await t.call({ method: 'GET', url: `/api/v1/webhook/${hook.body.data.id}`, token: users.stranger.token })).status).toBe(404);
  });
});
