// Issue 27 point 1: the form guard's public client token sits in every page that embeds the widget. It works on
// /v2/form_guard/* only; an Origin header (one of the guard's own) authenticates nothing else. This walks EVERY /v2
// route the app registers (its route table, checked against the /v2 OpenAPI document) with the guard's token and
// its allowed Origin, with bodies that would do real work (addresses the local mail world answers, the owner's real
// lists): each answers 401 or 403 in the failed envelope, with no CORS grant, and no credit, list or file moves.
// The form guard's own routes still answer the widget.
import type { FastifyInstance, InjectOptions } from 'fastify';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCorpus } from '@verilead/mailworld';
import { getOrgBalance, grantCredits } from './platform/credits/ledger';
import { creditTransactions } from './platform/credits/tables';
import { downloads } from './features/downloads/tables';
import { EMPTY_FINDER_COUNTERS } from './features/email-finder/queries';
import { finderLists } from './features/email-finder/tables';
import { EMPTY_COUNTERS } from './features/email-verifier/queries';
import { verifyLists } from './features/email-verifier/tables';
import { createWorldApp, type TWorldApp } from './features/email-verifier/test-support';

const ORIGIN = 'https://shop.guarded.test';
const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

type TRoute = { method: string; path: string };
type TSchema = { properties?: Record<string, unknown>; $ref?: string };
type TOperation = { parameters?: { name: string; in: string }[]; requestBody?: { content?: Record<string, { schema?: TSchema }> } };
type TDocument = { paths: Record<string, Record<string, TOperation>>; components?: { schemas?: Record<string, TSchema> } };

/**
 * Every route the app registered, read from Fastify's own route table (`printRoutes`: one line per route,
 * `path (METHODS)`, a route below another printed as the rest of its path, one level deeper), so a route added
 * later is walked without editing this test.
 */
function listRegisteredRoutes(app: FastifyInstance): TRoute[] {
  const out: TRoute[] = [];
  const parents: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^(.*?)[├└]── (\S+)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    const path = `${parents[depth - 1] ?? ''}${m[2]!}`;
    parents[depth] = path;
    parents.length = depth + 1;
    for (const method of (m[3] ?? '').split(',').map((x) => x.trim())) if (HTTP_METHODS.includes(method)) out.push({ method, path });
  }
  return out;
}

/** The Fastify pattern of a document path (`{id}` → `:id`). */
const toPattern = (docPath: string) => `/v2${docPath.replace(/\{([^}]+)\}/g, ':$1')}`;

describe('a form guard client token on the /v2 API', () => {
  let w: TWorldApp;
  let owner: { token: string; userId: string; orgId: string };
  let guardToken: string;
  let verifyListId: string;
  let finderListId: string;
  let doc: TDocument;
  let registered: TRoute[];

  beforeAll(async () => {
    w = await createWorldApp(makeCorpus(20, 3), { verifierConnectTimeoutMs: 500, verifierReplyTimeoutMs: 500 });
    owner = await w.t.createOwner('guard-owner@guarded.test');
    await w.t.deps.database.transaction((tx) => grantCredits(tx, { orgId: owner.orgId, amount: 500, reason: 'Test top-up' }));
    const guard = await w.t.call({
      method: 'POST',
      url: '/api/v1/apps/create',
      token: owner.token,
      payload: { name: 'Signup guard', type: 'client', allowed_origins: [ORIGIN], form_guard: { fields: { email: true, phone: false, name: false } } },
    });
    expect(guard.status, JSON.stringify(guard.body)).toBe(200);
    guardToken = guard.body.data.token;
    // The owner's real lists: a route that let the token through would cancel, remove or export them.
    const db = w.t.db.db;
    const [vl] = await db
      .insert(verifyLists)
      .values({ orgId: owner.orgId, userId: owner.userId, name: 'kept', fileName: 'kept.csv', fileType: 'csv', storageKey: `uploads/${owner.orgId}/kept`, sizeBytes: 10, emailColumn: 0, hasHeader: true, state: 'verified', analysisState: 'ready', counters: { ...EMPTY_COUNTERS } })
      .returning();
    verifyListId = vl!.id;
    const [fl] = await db
      .insert(finderLists)
      .values({ orgId: owner.orgId, userId: owner.userId, name: 'kept', fileName: 'kept.csv', fileType: 'csv', storageKey: `uploads/${owner.orgId}/kept-finder`, sizeBytes: 10, hasHeader: true, header: ['name', 'domain'], mapping: { full_name: 0, domain: 1 }, state: 'processed', counters: { ...EMPTY_FINDER_COUNTERS } })
      .returning();
    finderListId = fl!.id;
    doc = (await w.t.call({ method: 'GET', url: '/v2/openapi.json' })).body as TDocument;
    registered = listRegisteredRoutes(w.t.app).filter((r) => r.path.startsWith('/v2/'));
    // Jobs run (an upload let through would be analysed and verified, and charged).
    await w.t.deps.queue.start();
  }, 60_000);
  afterAll(async () => {
    await w?.t.deps.queue.stop();
    await w?.close();
  });

  /** The body fields an operation documents (its JSON or multipart schema, refs resolved). */
  function documentedFields(op: TOperation | undefined): { fields: string[]; multipart: boolean } {
    const content = op?.requestBody?.content ?? {};
    const fields = new Set<string>();
    for (const c of Object.values(content)) {
      let schema = c.schema;
      if (schema?.$ref) schema = doc.components?.schemas?.[schema.$ref.split('/').pop() ?? ''];
      for (const k of Object.keys(schema?.properties ?? {})) fields.add(k);
    }
    return { fields: [...fields], multipart: 'multipart/form-data' in content };
  }

  /** A request that would do real, paid work if the token were let through. */
  function buildRequest(route: TRoute): InjectOptions {
    const docPath = route.path.slice('/v2'.length).replace(/:([^/]+)/g, '{$1}');
    const op = doc.paths[docPath]?.[route.method.toLowerCase()];
    const listId = route.path.includes('finder') ? finderListId : verifyListId;
    const values: Record<string, unknown> = { email: 'alice@strict.test', name: 'Ada Lovelace', domain: 'strict.test', list_id: listId, qid: '00000000-0000-4000-8000-000000000000', timeout: 5_000, queue: false, ignore_result: true };
    const headers = { authorization: `Bearer ${guardToken}`, origin: ORIGIN };
    const query = (op?.parameters ?? []).filter((p) => p.in === 'query').map((p) => `${p.name}=${encodeURIComponent(String(values[p.name] ?? 'x'))}`);
    const url = `${route.path.replace(/:([^/]+)/g, listId)}${query.length ? `?${query.join('&')}` : ''}`;
    const { fields, multipart } = documentedFields(op);
    if (multipart) {
      const boundary = 'guardwalk';
      const csv = route.path.includes('finder') ? 'Name,Domain\nAda Lovelace,strict.test\n' : 'email\nalice@strict.test\n';
      const payload = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="walk.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`;
      return { method: route.method as InjectOptions['method'], url, headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload };
    }
    if (route.method === 'GET') return { method: 'GET', url, headers };
    const body = Object.fromEntries((fields.length ? fields : ['email', 'list_id']).map((f) => [f, values[f] ?? 'x']));
    return { method: route.method as InjectOptions['method'], url, headers, payload: body };
  }

  it('walks every registered /v2 route, and the document names each one outside the form guard', () => {
    const guardRoutes = registered.filter((r) => r.path.startsWith('/v2/form_guard/'));
    const apiRoutes = registered.filter((r) => !r.path.startsWith('/v2/form_guard/') && r.path !== '/v2/openapi.json' && r.path !== '/v2/*');
    expect(guardRoutes.map((r) => `${r.method} ${r.path}`).sort()).toEqual(['GET /v2/form_guard/config', 'POST /v2/form_guard/validate']);
    const documented = Object.entries(doc.paths).flatMap(([p, item]) => Object.keys(item).filter((m) => HTTP_METHODS.includes(m.toUpperCase())).map((m) => `${m.toUpperCase()} ${toPattern(p)}`));
    expect(documented.length).toBe(20);
    expect(apiRoutes.map((r) => `${r.method} ${r.path}`).sort()).toEqual(documented.sort());
  });

  it('answers 401 or 403 in the failed envelope on every route outside /v2/form_guard, with no CORS grant, and moves nothing', async () => {
    const db = w.t.db.db;
    const balanceBefore = await getOrgBalance(db, owner.orgId);
    const ledgerBefore = (await db.select({ n: count() }).from(creditTransactions).where(eq(creditTransactions.orgId, owner.orgId)))[0]!.n;
    const routes = registered.filter((r) => !r.path.startsWith('/v2/form_guard/') && r.path !== '/v2/openapi.json' && r.path !== '/v2/*');
    expect(routes.length).toBeGreaterThanOrEqual(20);
    const problems: string[] = [];
    for (const route of routes) {
      const res = await w.t.app.inject(buildRequest(route));
      const where = `${route.method} ${route.path}: ${res.statusCode} ${res.body.slice(0, 160)}`;
      if (res.statusCode !== 401 && res.statusCode !== 403) {
        problems.push(`${where} (should be 401 or 403)`);
        continue;
      }
      const body = JSON.parse(res.body) as { status?: string; error?: { code?: number; message?: string } };
      if (body.status !== 'failed' || typeof body.error?.message !== 'string' || !/form guard/.test(body.error.message)) problems.push(`${where} (not the failed envelope naming the form guard)`);
      // The /v2 document lists the answer (issue 27 point 15: the cancel routes did not document 401).
      const op = doc.paths[route.path.slice('/v2'.length).replace(/:([^/]+)/g, '{$1}')]?.[route.method.toLowerCase()] as { responses?: Record<string, unknown> } | undefined;
      if (!op?.responses?.[String(res.statusCode)]) problems.push(`${where} (status not in the /v2 document)`);
      if (res.headers['access-control-allow-origin'] !== undefined) problems.push(`${where} (CORS granted to ${String(res.headers['access-control-allow-origin'])})`);
    }
    expect(problems).toEqual([]);
    // Nothing moved: no charge, no ledger row, the owner's lists neither cancelled nor removed, no file prepared.
    expect(await getOrgBalance(db, owner.orgId)).toBe(balanceBefore);
    expect((await db.select({ n: count() }).from(creditTransactions).where(eq(creditTransactions.orgId, owner.orgId)))[0]!.n).toBe(ledgerBefore);
    expect((await db.select().from(verifyLists).where(eq(verifyLists.id, verifyListId)))[0]).toMatchObject({ state: 'verified' });
    expect((await db.select().from(finderLists).where(eq(finderLists.id, finderListId)))[0]).toMatchObject({ state: 'processed' });
    expect((await db.select({ n: count() }).from(verifyLists).where(eq(verifyLists.orgId, owner.orgId)))[0]!.n).toBe(1);
    expect((await db.select({ n: count() }).from(downloads).where(eq(downloads.orgId, owner.orgId)))[0]!.n).toBe(0);
  }, 120_000);

  it('is refused on the app API too, Origin or not', async () => {
    for (const url of ['/api/v1/user/credits_and_limits', '/api/v1/apps/list']) {
      const res = await w.t.call({ method: 'GET', url, headers: { authorization: `Bearer ${guardToken}`, origin: ORIGIN } });
      expect(res.status, url).toBe(401);
      expect(res.body).toMatchObject({ status: 'failed', error: { message: expect.any(String) } });
    }
  });

  it('still works on the form guard routes from its origin (and is charged there only)', async () => {
    const headers = { authorization: `Bearer ${guardToken}`, origin: ORIGIN };
    const config = await w.t.call({ method: 'GET', url: `/v2/form_guard/config?page_url=${encodeURIComponent(`${ORIGIN}/signup`)}`, headers });
    expect(config.status, JSON.stringify(config.body)).toBe(200);
    expect(config.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(config.body).toMatchObject({ status: 'success', data: { fields: { email: true } } });
    const before = await getOrgBalance(w.t.db.db, owner.orgId);
    const validate = await w.t.call({
      method: 'POST',
      url: '/v2/form_guard/validate',
      headers,
      payload: { request_id: 'req_guard_walk_1', page_url: `${ORIGIN}/signup`, type: 'email', value: 'alice@strict.test' },
    });
    expect(validate.status, JSON.stringify(validate.body)).toBe(200);
    expect(validate.body).toMatchObject({ status: 'success' });
    expect(await getOrgBalance(w.t.db.db, owner.orgId)).toBe(before - 1);
    // From another origin the guard refuses (its own origin check), without CORS for that origin.
    const elsewhere = await w.t.call({ method: 'GET', url: `/v2/form_guard/config?page_url=${encodeURIComponent('https://evil.test/x')}`, headers: { ...headers, origin: 'https://evil.test' } });
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.headers['access-control-allow-origin']).toBeUndefined();
  });
});
