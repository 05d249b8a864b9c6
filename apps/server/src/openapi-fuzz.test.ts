// Issue 10 point 3: a fuzzer over every operation of both OpenAPI documents (/api/v1/openapi.json and
// /v2/openapi.json), as an owner, with malformed path params, queries, bodies and headers. No answer may be
// a 5xx, and unknown paths or wrong methods under /api/v1 and /v2 answer the JSON failed envelope.
// Deterministic (fixed seed) and bounded (a fixed number of cases per operation, app.inject, a local mail world).
import type { InjectOptions } from 'fastify';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorldApp, type TWorldApp } from './features/email-verifier/test-support';
import { outbox } from './platform/mailer/tables';
import { TEST_PASSWORD } from './test/test-app';

type TOperation = { doc: 'v1' | 'v2'; method: string; path: string; op: TOpenApiOperation };
type TOpenApiParameter = { name: string; in: 'path' | 'query' | 'header' | 'cookie'; schema?: { type?: string } };
type TOpenApiOperation = {
  parameters?: TOpenApiParameter[];
  responses?: Record<string, unknown>;
  requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown>; $ref?: string } }> };
};
type TDocument = { paths: Record<string, Record<string, TOpenApiOperation>>; components?: { schemas?: Record<string, { properties?: Record<string, unknown> }> } };

const CASES_PER_OPERATION = 14;
const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** A small deterministic PRNG (mulberry32), so every run sends the same cases. */
function createRandom(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]! };
}

/** The malformed values every field is tried with: bad dates, NUL, lone surrogates, huge strings, wrong types… */
const NASTY_VALUES: readonly unknown[] = [
  '0000-02-29',
  '0000-01-01T00:00:00Z',
  '9999-12-31T23:59:59-14:00',
  '2024-02-30',
  '-000001-01-01',
  'a\u0000b',
  '\u0000',
  'x\ud800y',
  '\udfff',
  'bob&co@x.test',
  'a\u0000@x.test',
  '\ud800@x.test',
  'A'.repeat(100_000),
  '',
  ' ',
  '../../etc/passwd',
  "' OR 1=1 --",
  '%00',
  '=cmd|/C calc!A0',
  -1,
  0,
  1e308,
  -1e308,
  2 ** 63,
  1.5,
  true,
  null,
  [],
  ['a', 'b'],
  [1, 2, 3],
  {},
  { $gt: '' },
];
const NASTY_TEXT: readonly string[] = [
  '0000-02-29',
  '0000-12-31T23:59:59Z',
  '%00',
  'a%00b',
  '%ED%A0%80',
  '%F0%9F',
  encodeURIComponent('A'.repeat(5_000)),
  '-1',
  '1e309',
  'NaN',
  'true',
  '[]',
  '..%2F..%2Fetc',
  '%27%20OR%201%3D1',
  'bob%26co%40x.test',
  '00000000-0000-0000-0000-000000000000',
];
const BOGUS_CONTENT_TYPES = ['text/plain', 'application/xml', 'multipart/form-data', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded', 'application/json; charset=utf-16', 'image/png'];

function listOperations(doc: TDocument, which: 'v1' | 'v2'): TOperation[] {
  const out: TOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (op) out.push({ doc: which, method: method.toUpperCase(), path, op });
    }
  }
  return out;
}

/** Whether an operation's document lists `status` among its responses (or a default / range covering it). */
function isDocumented(op: TOpenApiOperation, status: number): boolean {
  const responses = op.responses ?? {};
  return String(status) in responses || `${String(status)[0]}XX` in responses || 'default' in responses;
}

function bodyFields(doc: TDocument, op: TOpenApiOperation): string[] {
  const contents = Object.values(op.requestBody?.content ?? {});
  const names = new Set<string>();
  for (const c of contents) {
    let schema = c.schema;
    if (schema?.$ref) schema = doc.components?.schemas?.[schema.$ref.split('/').pop() ?? ''];
    for (const k of Object.keys(schema?.properties ?? {})) names.add(k);
  }
  return [...names];
}

/** One malformed request for an operation (case n of CASES_PER_OPERATION). */
function buildCase(doc: TDocument, o: TOperation, n: number, random: ReturnType<typeof createRandom>): InjectOptions {
  const prefix = o.doc === 'v1' ? (o.path.startsWith('/api/v1') ? '' : '/api/v1') : '/v2';
  const params = o.op.parameters ?? [];
  const url = o.path.replace(/\{([^}]+)\}/g, () => random.pick(NASTY_TEXT));
  const query: string[] = [];
  for (const p of params.filter((x) => x.in === 'query')) {
    const v = random.pick(NASTY_TEXT);
    query.push(`${encodeURIComponent(p.name)}=${v}`);
    // Arrays for scalars: the same parameter twice.
    if (random.next() < 0.3) query.push(`${encodeURIComponent(p.name)}=${random.pick(NASTY_TEXT)}`);
  }
  if (random.next() < 0.2) query.push(`unknown_param=${random.pick(NASTY_TEXT)}`);
  const fullUrl = `${prefix}${url}${query.length ? `?${query.join('&')}` : ''}`;
  const headers: Record<string, string> = {};
  const fields = bodyFields(doc, o.op);
  let payload: string | Buffer | undefined;
  const kind = n % 7;
  if (kind === 0) {
    // Every documented field malformed at once.
    payload = JSON.stringify(Object.fromEntries(fields.map((f) => [f, random.pick(NASTY_VALUES)])));
    headers['content-type'] = 'application/json';
  } else if (kind === 1 || kind === 2) {
    // One field malformed, the others absent.
    const f = fields.length ? random.pick(fields) : 'email';
    payload = JSON.stringify({ [f]: random.pick(NASTY_VALUES) });
    headers['content-type'] = 'application/json';
  } else if (kind === 3) {
    // A body that is not an object at all.
    payload = JSON.stringify(random.pick([[], 'text', 42, null, [{}], true]));
    headers['content-type'] = 'application/json';
  } else if (kind === 4) {
    payload = random.pick(['{"email": "a@', '{"a":1}}', '\u0000\u0001', '<xml/>', '--x\r\nContent-Disposition: form-data; name="file"\r\n\r\n', '']);
    headers['content-type'] = random.pick(['application/json', ...BOGUS_CONTENT_TYPES]);
  } else if (kind === 5) {
    payload = JSON.stringify(Object.fromEntries(fields.map((f) => [f, random.pick(NASTY_VALUES)])));
    headers['content-type'] = random.pick(BOGUS_CONTENT_TYPES);
  } else {
    // Header abuse: odd versions, odd accept, a header with a NUL-free but huge value.
    headers['x-app-version'] = random.pick(['0.0.0', '999999999999999999999.1.1', 'abc', 'A'.repeat(4_000)]);
    headers.accept = random.pick(['text/html', 'application/xml', '*/*']);
    if (fields.length) {
      payload = JSON.stringify(Object.fromEntries(fields.map((f) => [f, random.pick(NASTY_VALUES)])));
      headers['content-type'] = 'application/json';
    }
  }
  return { method: o.method as InjectOptions['method'], url: fullUrl, headers, ...(payload !== undefined && o.method !== 'GET' ? { payload } : {}) };
}

describe('the OpenAPI fuzzer', () => {
  let w: TWorldApp;
  let owner: { token: string; userId: string; orgId: string };
  let appToken: string;
  const ownerEmail = 'fuzz-owner@fuzz.test';

  beforeAll(async () => {
    w = await createWorldApp(undefined, { verifierConnectTimeoutMs: 300, verifierReplyTimeoutMs: 300 });
    owner = await w.t.createOwner(ownerEmail);
    const created = await w.t.call({ method: 'POST', url: '/api/v1/apps/create', token: owner.token, payload: { name: 'Fuzz', type: 'server', rate_limit: { window: 'minute', max: 1_000_000, scope: 'global' } } });
    appToken = created.body.data.token;
    expect(appToken).toMatch(/^vla_/);
  }, 60_000);
  afterAll(async () => {
    await w?.close();
  });

  /** Sends a case as the owner (session or app token); logs in again when a case ended the session. */
  async function send(o: TOperation, opts: InjectOptions) {
    const token = o.doc === 'v1' ? owner.token : appToken;
    const res = await w.t.app.inject({ ...opts, headers: { ...(opts.headers as Record<string, string>), authorization: `Bearer ${token}` } });
    if (o.doc === 'v1' && res.statusCode === 401) {
      const login = await w.t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email: ownerEmail, password: TEST_PASSWORD } });
      if (login.status === 200) owner.token = login.body.data.token;
    }
    return res;
  }

  it('answers no 5xx to malformed input on any operation of either document', async () => {
    const v1 = (await w.t.call({ method: 'GET', url: '/api/v1/openapi.json' })).body as TDocument;
    const v2 = (await w.t.call({ method: 'GET', url: '/v2/openapi.json' })).body as TDocument;
    const operations = [...listOperations(v1, 'v1'), ...listOperations(v2, 'v2')];
    expect(operations.filter((o) => o.doc === 'v1').length).toBeGreaterThan(80);
    expect(operations.filter((o) => o.doc === 'v2').length).toBe(20);
    const random = createRandom(0x5eed10);
    const failures: string[] = [];
    // Issue 27 point 15: every status an operation answers is one its document lists (drift is a failure).
    const undocumented = new Set<string>();
    for (const o of operations) {
      // Operations that end the session or the account are tried on the way out, not in the middle.
      const doc = o.doc === 'v1' ? v1 : v2;
      for (let n = 0; n < CASES_PER_OPERATION; n++) {
        const opts = buildCase(doc, o, n, random);
        const res = await send(o, opts);
        if (!isDocumented(o.op, res.statusCode)) undocumented.add(`${o.doc} ${o.method} ${o.path}: ${res.statusCode}`);
        if (res.statusCode >= 500) failures.push(`${res.statusCode} ${opts.method} ${String(opts.url).slice(0, 160)} ${String(opts.payload ?? '').slice(0, 120)} → ${res.body.slice(0, 200)}`);
        else if (o.doc === 'v1' && res.statusCode >= 400 && res.headers['content-type']?.toString().includes('application/json')) {
          const body = JSON.parse(res.body) as { status?: string; error?: { message?: string } };
          if (body.status !== 'failed' || !body.error?.message) failures.push(`${res.statusCode} ${opts.method} ${o.path}: not the failed envelope: ${res.body.slice(0, 200)}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect([...undocumented].sort()).toEqual([]);
  }, 600_000);

  it('answers the named classes with a clean 4xx: year-0000 dates, addresses the mailer refuses, NUL and lone surrogates', async () => {
    const v1 = (path: string, init: Omit<InjectOptions, 'url'> = { method: 'GET' }) => w.t.call({ ...init, url: `/api/v1${path}`, token: owner.token });
    const dated: [string, string, Record<string, unknown>?][] = [
      ['GET', '/email_finder/history?from=0000-02-29'],
      ['GET', '/email_finder/history?to=0001-01-01T00:00:00%2B14:00'],
      ['POST', '/email_finder/history/download', { from: '0000-02-29' }],
      ['POST', '/user/activities', { from: '0000-02-29' }],
      ['POST', '/download/activities', { from: '0000-02-29' }],
      ['GET', '/user/credits_and_limits/transactions?from=0000-02-29'],
      ['POST', '/webhook/event_logs', { from: '0000-01-01T00:00:00Z' }],
    ];
    for (const [method, path, payload] of dated) {
      const res = await v1(path, { method: method as InjectOptions['method'], ...(payload ? { payload } : {}) });
      expect(res.status, path).toBe(400);
      expect(res.body.error.message, path).toMatch(/date/i);
    }
    // One address grammar for routes and mailer: what sign-up, member add and e-mail change accept is mailed.
    const signUp = await w.t.call({ method: 'POST', url: '/api/v1/user/signup', payload: { name: 'Bob Co', email: 'bob&co@fuzz.test', password: TEST_PASSWORD, signup_source: 'friends' } });
    expect(signUp.status, JSON.stringify(signUp.body)).toBe(200);
    const member = await v1('/admin/member/add', { method: 'POST', payload: { email: 'sales&ops@fuzz.test', role: 'analyst' } });
    expect(member.status, JSON.stringify(member.body)).toBe(200);
    const change = await v1('/user/email/edit', { method: 'POST', payload: { email: 'fuzz&owner@fuzz.test', password: TEST_PASSWORD } });
    expect(change.status, JSON.stringify(change.body)).toBe(200);
    await w.t.deps.queue.runUntilIdle();
    for (const to of ['bob&co@fuzz.test', 'sales&ops@fuzz.test', 'fuzz&owner@fuzz.test']) {
      expect((await w.t.db.db.select().from(outbox).where(eq(outbox.toAddress, to))).length, to).toBe(1);
    }
    for (const bad of ['bob,co@fuzz.test', '"bob"@fuzz.test', 'bob<x>@fuzz.test']) {
      const res = await w.t.call({ method: 'POST', url: '/api/v1/user/signup', payload: { name: 'Bob Co', email: bad, password: TEST_PASSWORD, signup_source: 'friends' } });
      expect(res.status, bad).toBe(400);
    }
    // A fresh app token: the fuzzer above may have used up the first one's rate limit.
    const fresh = (await w.t.call({ method: 'POST', url: '/api/v1/apps/create', token: owner.token, payload: { name: 'Fuzz classes', type: 'server' } })).body.data.token as string;
    for (const email of ['a\u0000b@strict.test', 'x\ud800@strict.test']) {
      const one = await v1('/email_verify/instant', { method: 'POST', payload: { email } });
      expect(one.status, JSON.stringify(email)).toBe(400);
      expect(one.body.status).toBe('failed');
      const two = await w.t.call({ method: 'POST', url: '/v2/email_verify/instant', headers: { authorization: `Bearer ${fresh}` }, payload: { email } });
      expect(two.status, JSON.stringify(email)).toBe(400);
      // The reference document's validation failure: { status: 'failed', error: { code, message, reasons } }.
      expect(two.body).toMatchObject({ status: 'failed', error: { message: expect.any(String) } });
    }
    // A timeout that is not a number is a 400, not a 1 ms timeout answered 524.
    for (const timeout of [true, [], ' ', '1e3']) {
      const res = await w.t.call({ method: 'POST', url: '/v2/email/verify/role', headers: { authorization: `Bearer ${fresh}` }, payload: { email: 'a@strict.test', timeout } });
      expect(res.status, JSON.stringify(timeout)).toBe(400);
    }
  });

  // Issue 27 point 10: a body the client cut short is the client's error on every upload route of either document.
  it('answers a multipart body cut short with a 4xx on every upload operation of either document', async () => {
    const v1 = (await w.t.call({ method: 'GET', url: '/api/v1/openapi.json' })).body as TDocument;
    const v2 = (await w.t.call({ method: 'GET', url: '/v2/openapi.json' })).body as TDocument;
    const uploads = [...listOperations(v1, 'v1'), ...listOperations(v2, 'v2')].filter((o) => o.op.requestBody?.content?.['multipart/form-data']);
    expect(uploads.map((o) => `${o.doc} ${o.path}`).sort()).toEqual(
      ['v1 /api/v1/email_finder/bulk_upload', 'v1 /api/v1/email_verify/bulk_upload', 'v1 /api/v1/email_verify/bulk_upload/preview', 'v2 /email_finder/bulk', 'v2 /email_verify/bulk'].sort(),
    );
    const cut = '--cut\r\nContent-Disposition: form-data; name="file"; filename="people.csv"\r\nContent-Type: text/csv\r\n\r\nName,Domain,email\nAda Lovelace,strict.test,ada@strict.test\n';
    const answers: string[] = [];
    for (const o of uploads) {
      const res = await send(o, { method: 'POST', url: `${o.doc === 'v1' ? '' : '/v2'}${o.path}`, headers: { 'content-type': 'multipart/form-data; boundary=cut' }, payload: cut });
      answers.push(`${o.doc} ${o.path}: ${res.statusCode >= 400 && res.statusCode < 500 ? '4xx' : res.statusCode} ${JSON.parse(res.body).status}`);
    }
    expect(answers).toEqual(uploads.map((o) => `${o.doc} ${o.path}: 4xx failed`));
  });

  it('answers NUL characters in upload file names and form fields with a clean 400', async () => {
    const b = 'fuzzboundary';
    const build = (listName: string, fileName: string) =>
      Buffer.from(
        `--${b}\r\nContent-Disposition: form-data; name="list_name"\r\n\r\n${listName}\r\n--${b}\r\nContent-Disposition: form-data; name="full_name_column"\r\n\r\n0\r\n` +
          `--${b}\r\nContent-Disposition: form-data; name="domain_column"\r\n\r\n1\r\n--${b}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\n` +
          `Content-Type: text/csv\r\n\r\nname,domain,email\r\nAda Lovelace,strict.test,ada@strict.test\r\n--${b}--\r\n`,
      );
    for (const url of ['/api/v1/email_verify/bulk_upload', '/api/v1/email_finder/bulk_upload']) {
      for (const [listName, fileName] of [['a\u0000b', 'ok.csv'], ['ok', 'a\u0000b.csv']]) {
        const res = await w.t.call({ method: 'POST', url, token: owner.token, payload: build(listName!, fileName!), headers: { 'content-type': `multipart/form-data; boundary=${b}` } });
        expect(res.status, `${url} ${JSON.stringify([listName, fileName])}`).toBe(400);
        expect(res.body.error.message).toMatch(/not allowed/);
      }
    }
  });

  it('answers unknown paths and wrong methods under /api/v1 and /v2 with the JSON failed envelope (404 or 405)', async () => {
    const cases: [string, string, number][] = [
      ['GET', '/api/v1/no/such/route', 404],
      ['POST', '/api/v1/no/such/route', 404],
      ['GET', '/api/v1', 404],
      ['GET', '/v2/no/such/route', 404],
      ['GET', '/v2', 404],
      ['DELETE', '/api/v1/email_verify/instant', 405],
      ['GET', '/api/v1/email_verify/instant', 405],
      ['PUT', '/v2/email_verify/instant', 405],
      ['GET', '/v2/email_verify/instant', 405],
    ];
    for (const [method, url, status] of cases) {
      const res = await w.t.app.inject({ method: method as InjectOptions['method'], url, headers: { authorization: `Bearer ${url.startsWith('/v2') ? appToken : owner.token}`, accept: 'text/html' } });
      expect(res.statusCode, `${method} ${url}`).toBe(status);
      expect(res.headers['content-type'], `${method} ${url}`).toMatch(/application\/json/);
      expect(JSON.parse(res.body), `${method} ${url}`).toMatchObject({ status: 'failed', error: { message: expect.any(String) } });
    }
  });
});
