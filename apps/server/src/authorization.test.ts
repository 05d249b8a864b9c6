import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALL_ROLES,
  API_AUTHORIZATION,
  DEFAULT_APP_RATE_LIMIT,
  OBJECT_OWNERSHIP,
  findApiRule,
  getRuleRoles,
  isApiAllowed,
  type TMemberObjectKind,
  type TObjectRef,
  type TRole,
  ZFormGuardSettings,
} from '@verilead/contracts';
import { apps } from './features/developer/tables';
import { downloads } from './features/downloads/tables';
import { EMPTY_FINDER_COUNTERS } from './features/email-finder/queries';
import { finderInstant, finderLists } from './features/email-finder/tables';
import { EMPTY_COUNTERS } from './features/email-verifier/queries';
import { verifyLists } from './features/email-verifier/tables';
import { webhookDeliveries, webhooks } from './features/webhooks/tables';
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
    expect(missing, `routes missing from packages/contracts/src/authorization-table.ts:\n${missing.join('\n')}`).toEqual([]);
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
      // Operator console routes refuse every customer token with 403 (features/ops-console guard), inactive or not.
      if (!rule || rule.access === 'public' || rule.access === 'operator') continue;
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
 * organisation's id (MEMBER_OBJECT_VISIBILITY); apps (and so form guards), webhooks and their deliveries are member
 * objects too (issue 27 point 9).
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
      const [row] = await db.insert(finderInstant).values({ orgId, userId, state: 'failed', input: { name: { first: 'Walk', middle: null, last: 'Er' }, domain: 'walk.test', companyName: null }, error: 'walk', fullName: 'Walk Er', domain: 'walk.test' }).returning();
      return row!.id;
    }
    if (kind === 'app') {
      // A form guard (a client app with guard settings): the walk's updates then change a guard's origins.
      const [row] = await db
        .insert(apps)
        .values({ orgId, userId, name: 'walk', type: 'client', tokenHash: `walk-${randomUUID()}`, tokenHint: 'vla_walk', rateLimit: DEFAULT_APP_RATE_LIMIT, allowedOrigins: ['https://shop.walk.test'], formGuard: ZFormGuardSettings.parse({}) })
        .returning();
      return row!.id;
    }
    if (kind === 'webhook') return (await insertWalkWebhook(who)).id;
    if (kind === 'webhook_delivery') {
      const webhook = await insertWalkWebhook(who);
      const [row] = await db
        .insert(webhookDeliveries)
        .values({ orgId, webhookId: webhook.id, eventId: randomUUID(), eventType: 'email_verifier.instant.completed', body: {}, status: 'failed' })
        .returning();
      return row!.id;
    }
    const [row] = await db.insert(downloads).values({ orgId, userId, kind: 'result', fileType: 'csv', columns: ['email'], state: 'queued', fileName: 'walk.csv' }).returning();
    return row!.id;
  }

  async function insertWalkWebhook(who: TWho) {
    const { orgId, userId } = users[who];
    const [row] = await t.db.db.insert(webhooks).values({ orgId, createdBy: userId, name: 'walk', url: 'http://127.0.0.1:9/walk', events: ['email_verifier.instant.completed'] }).returning();
    return row!;
  }

  /** The smallest valid body beside the id for by-id routes that change something (so a refusal is the gate's). */
  const BY_ID_EXTRA: Record<string, Record<string, unknown>> = {
    'POST /email_verify/list/export': { kind: 'input' },
    'POST /download/result': { kind: 'input' },
    'POST /apps/update': { rotate_token: true, allowed_origins: ['https://taken.walk.test'] },
    'POST /webhook': { name: 'repointed', url: 'http://127.0.0.1:9/taken', events: ['email_verifier.instant.completed'] },
    'PUT /email_verify/list/keep_verified': { schedule: 'off' },
    'PUT /integration/list_sync': { auto_verify: false },
  };

  /** Calls a by-id route on `id` with the smallest valid body. */
  function callById(method: string, path: string, ref: TObjectRef, id: string, token: string) {
    const extra = BY_ID_EXTRA[`${method} ${path}`] ?? {};
    if (ref.from === 'query') return t.call({ method: method as 'GET', url: `/api/v1${path}?${ref.field}=${id}`, token });
    if (ref.from === 'params') return t.call({ method: method as 'GET', url: `/api/v1${path.replace(`:${ref.field}`, id)}`, token });
    return t.call({ method: method as 'POST', url: `/api/v1${path}`, token, payload: { [ref.field]: id, ...extra } });
  }

  it('lets each role reach exactly the objects its list pages show', async () => {
    const memberRoutes = Object.entries(API_AUTHORIZATION).filter(([, rule]) => rule.object && OBJECT_OWNERSHIP[rule.object.kind] === 'member');
    expect(memberRoutes.length).toBeGreaterThanOrEqual(21);
    // Issue 27 point 9: apps and guards, webhooks and their deliveries are walked like lists.
    for (const kind of ['app', 'webhook', 'webhook_delivery']) expect(memberRoutes.some(([, rule]) => rule.object?.kind === kind), kind).toBe(true);
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

// Issue 27 point 9: an Executive keeps the apps and webhook menus (menus.tsv: everyone) but acts only on the apps,
  // guards and webhooks they created. Another member's answers 404, as another organisation's: the Executive does
  // not see it on the list pages either (MEMBER_OBJECT_VISIBILITY); owners and Managers act on all.
  it("lets an Executive act on their own apps, guards and webhooks only, and owners and Managers on all", async () => {
    const call = (who: TWho, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: Record<string, unknown>) =>
      t.call({ method, url: `/api/v1${url}`, token: users[who].token, ...(payload ? { payload } : {}) });
    const guardSettings = { fields: { email: true, phone: false, name: false } };
    const production = await call('owner', 'POST', '/apps/create', { name: 'Production' });
    expect(production.status).toBe(200);
    const prodId = production.body.data.id as string;
    const prodToken = production.body.data.token as string;
    const guard = await call('owner', 'POST', '/apps/create', { name: 'Signup guard', type: 'client', allowed_origins: ['https://shop.byid.test'], form_guard: guardSettings });
    expect(guard.status).toBe(200);
    const guardId = guard.body.data.id as string;
    const hook = await call('owner', 'POST', '/webhook', { name: 'Owner hook', url: 'http://127.0.0.1:9/hook', events: ['email_verifier.instant.completed'] });
    expect(hook.status).toBe(200);
    const hookId = hook.body.data.id as string;

    // The Executive: the owner's production token is not theirs to rotate, the guard's origins not theirs to change,
    // the webhook not theirs to repoint, test or delete; nor is the organisation's signing secret theirs to rotate.
    const attempts = [
      await call('analyst', 'GET', `/apps/${prodId}`),
      await call('analyst', 'POST', '/apps/update', { app_id: prodId, rotate_token: true }),
      await call('analyst', 'POST', '/apps/update', { app_id: prodId, status: 'inactive' }),
      await call('analyst', 'POST', '/apps/update', { app_id: guardId, allowed_origins: ['https://evil.byid.test'] }),
      await call('analyst', 'POST', '/apps/update', { app_id: guardId, form_guard: { fields: { email: false, phone: true, name: false } } }),
      await call('analyst', 'GET', `/webhook/${hookId}`),
      await call('analyst', 'POST', '/webhook', { webhook_id: hookId, name: 'Taken', url: 'http://127.0.0.1:9/taken', events: ['email_verifier.instant.completed'] }),
      await call('analyst', 'POST', '/webhook/test', { webhook_id: hookId }),
      await call('analyst', 'DELETE', `/webhook/${hookId}`),
    ];
    expect(attempts.map((r) => r.status)).toEqual(attempts.map(() => 404));
    for (const r of attempts) expect(r.body).toMatchObject({ status: 'failed', error: { code: 'not_found' } });
    const rotateSecret = await call('analyst', 'POST', '/webhook/token', {});
    expect(rotateSecret.status).toBe(403);
    expect(rotateSecret.body).toMatchObject({ status: 'failed', error: { code: 'forbidden' } });
    // Nothing moved: the owner's token still works, the guard keeps its origin, the webhook its address.
    expect((await t.call({ method: 'GET', url: '/v2/email_verify/getcredits', headers: { authorization: `Bearer ${prodToken}` } })).status).toBe(200);
    const guardNow = await call('owner', 'GET', `/apps/${guardId}`);
    expect(guardNow.body.data.allowed_origins).toEqual(['https://shop.byid.test']);
    expect(guardNow.body.data.form_guard.fields.email).toBe(true);
    expect((await call('owner', 'GET', `/webhook/${hookId}`)).body.data).toMatchObject({ name: 'Owner hook', url: 'http://127.0.0.1:9/hook', status: 'active' });
    // The Executive's list pages show only their own (so a 404 by id is what they see anyway).
    const execApps = (await call('analyst', 'GET', '/apps/list')).body.data.items as { id: string }[];
    expect(execApps.map((a) => a.id)).not.toContain(prodId);
    expect(execApps.map((a) => a.id)).not.toContain(guardId);
    const execHooks = (await call('analyst', 'GET', '/webhook/list')).body.data.items as { id: string }[];
    expect(execHooks.map((h) => h.id)).not.toContain(hookId);
    expect(((await call('analyst', 'GET', '/webhook/name_list')).body.data.items as { id: string }[]).map((h) => h.id)).not.toContain(hookId);

    // Their own: created, seen, changed, rotated and deleted.
    const mine = await call('analyst', 'POST', '/apps/create', { name: 'Exec guard', type: 'client', allowed_origins: ['https://exec.byid.test'], form_guard: guardSettings });
    expect(mine.status).toBe(200);
    const rotated = await call('analyst', 'POST', '/apps/update', { app_id: mine.body.data.id, rotate_token: true, allowed_origins: ['https://exec2.byid.test'] });
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.token).toMatch(/^vla_/);
    const execAppsNow = (await call('analyst', 'GET', '/apps/list')).body.data.items as { id: string }[];
    expect(execAppsNow.map((a) => a.id)).toContain(mine.body.data.id);
    expect(execAppsNow.map((a) => a.id)).not.toContain(prodId);
    const myHook = await call('analyst', 'POST', '/webhook', { name: 'Exec hook', url: 'http://127.0.0.1:9/exec', events: ['email_verifier.instant.completed'] });
    expect(myHook.status).toBe(200);
    const repointed = await call('analyst', 'POST', '/webhook', { webhook_id: myHook.body.data.id, name: 'Exec hook', url: 'http://127.0.0.1:9/exec2', events: ['email_verifier.instant.completed'] });
    expect(repointed.status).toBe(200);
    const execHooksNow = ((await call('analyst', 'GET', '/webhook/list')).body.data.items as { id: string }[]).map((h) => h.id);
    expect(execHooksNow).toContain(myHook.body.data.id);
    expect(execHooksNow).not.toContain(hookId);
    expect((await call('analyst', 'GET', '/webhook/token')).status).toBe(200);

    // Owners and Managers act on everyone's, the Executive's included.
    expect((await call('admin', 'POST', '/apps/update', { app_id: mine.body.data.id, allowed_origins: ['https://managed.byid.test'] })).status).toBe(200);
    expect((await call('admin', 'POST', '/apps/update', { app_id: prodId, rotate_token: true })).status).toBe(200);
    expect((await call('admin', 'POST', '/webhook', { webhook_id: hookId, name: 'Managed', url: 'http://127.0.0.1:9/managed', events: ['email_verifier.instant.completed'] })).status).toBe(200);
    expect((await call('admin', 'POST', '/webhook/token', {})).status).toBe(200);
    expect((await call('owner', 'DELETE', `/webhook/${myHook.body.data.id}`)).status).toBe(200);
    expect((await call('analyst', 'GET', `/webhook/${myHook.body.data.id}`)).status).toBe(404);
    // Another organisation sees none of them.
    expect((await call('stranger', 'GET', `/apps/${mine.body.data.id}`)).status).toBe(404);
    expect((await call('stranger', 'GET', `/webhook/${hookId}`)).status).toBe(404);
  });
});
