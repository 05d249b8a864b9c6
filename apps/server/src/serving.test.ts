import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app';
import { createTestApp, type TTestApp } from './test/test-app';
import { isRedisUpForTests } from './test/reachable';

describe('serving the built web app', () => {
  let t: TTestApp;
  let dist: string;
  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'vl-dist-'));
    const html = '<!doctype html><title>Verilead</title><div id="root"></div>';
    writeFileSync(join(dist, 'index.html'), html);
    writeFileSync(join(dist, 'index.html.gz'), gzipSync(html));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'assets', 'app.js'), 'console.log("app")');
    const hashed = `console.log(${JSON.stringify('x'.repeat(2000))})`;
    writeFileSync(join(dist, 'assets', 'index-AbC123xy.js'), hashed);
    writeFileSync(join(dist, 'assets', 'index-AbC123xy.js.br'), brotliCompressSync(hashed));
    writeFileSync(join(dist, 'assets', 'index-AbC123xy.js.gz'), gzipSync(hashed));
    t = await createTestApp({ webDistDir: dist });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('serves files, falls back to index.html for app paths, and keeps API 404s as envelopes', async () => {
    const app = await buildApp({ ...t.deps, serveWeb: true });
    try {
      const asset = await app.inject({ method: 'GET', url: '/assets/app.js' });
      expect(asset.statusCode).toBe(200);
      expect(asset.body).toContain('console.log');
      for (const url of ['/', '/login?redirect=%2Fprofile', '/user/profile/edit', '/emailverification?token=abc']) {
        const page = await app.inject({ method: 'GET', url });
        expect(page.statusCode, url).toBe(200);
        expect(page.headers['content-type'], url).toContain('text/html');
        expect(page.body, url).toContain('<div id="root">');
      }
      const api = await app.inject({ method: 'GET', url: '/api/v1/unknown' });
      expect(api.statusCode).toBe(404);
      expect(JSON.parse(api.body).error.code).toBe('route_not_found');
      const post = await app.inject({ method: 'POST', url: '/somewhere' });
      expect(post.statusCode).toBe(404);
      // Under /api and /v2 the SPA never answers: unknown paths are JSON 404s, wrong methods JSON 405s.
      for (const [url, status] of [['/v2/unknown', 404], ['/v2', 404], ['/api', 404], ['/api/v1/email_verify/instant', 405], ['/v2/email_verify/instant', 405]] as const) {
        const res = await app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
        expect(res.statusCode, url).toBe(status);
        expect(res.headers['content-type'], url).toContain('application/json');
        expect(JSON.parse(res.body).status, url).toBe('failed');
      }
    } finally {
      await app.close();
    }
  });

  it('puts the security headers on pages, files, API answers and errors alike', async () => {
    const app = await buildApp({ ...t.deps, serveWeb: true });
    try {
      for (const [method, url] of [['GET', '/'], ['GET', '/assets/app.js'], ['GET', '/api/v1/openapi.json'], ['GET', '/v2/unknown'], ['POST', '/api/v1/user/login']] as const) {
        const res = await app.inject({ method, url, ...(method === 'POST' ? { payload: {} } : {}) });
        const csp = String(res.headers['content-security-policy']);
        expect(csp, url).toContain("default-src 'self'");
        expect(csp, url).toContain("frame-ancestors 'self'");
        expect(csp, url).not.toContain('upgrade-insecure-requests');
        expect(res.headers['x-content-type-options'], url).toBe('nosniff');
        expect(res.headers['x-frame-options'], url).toBe('SAMEORIGIN');
        expect(res.headers['strict-transport-security'], url).toContain('max-age=');
        expect(res.headers['cross-origin-embedder-policy'], url).toBeUndefined();
      }
    } finally {
      await app.close();
    }
  });

  it('serves hashed assets precompressed and immutable for a year', async () => {
    const app = await buildApp({ ...t.deps, serveWeb: true });
    try {
      const br = await app.inject({ method: 'GET', url: '/assets/index-AbC123xy.js', headers: { 'accept-encoding': 'br, gzip' } });
      expect(br.statusCode).toBe(200);
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const gz = await app.inject({ method: 'GET', url: '/assets/index-AbC123xy.js', headers: { 'accept-encoding': 'gzip' } });
      expect(gz.headers['content-encoding']).toBe('gzip');
      const plain = await app.inject({ method: 'GET', url: '/assets/index-AbC123xy.js' });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toContain('console.log');
    } finally {
      await app.close();
    }
  });

  it('serves index.html and app paths with no-cache, so a new release is picked up at once', async () => {
    const app = await buildApp({ ...t.deps, serveWeb: true });
    try {
      for (const url of ['/', '/index.html', '/login', '/email_verifier/lists/abc']) {
        const page = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
        expect(page.statusCode, url).toBe(200);
        expect(page.headers['cache-control'], url).toBe('no-cache');
        expect(page.headers['content-type'], url).toContain('text/html');
      }
    } finally {
      await app.close();
    }
  });
});

const redisUp = await isRedisUpForTests();

describe.skipIf(!redisUp)('rate limits in Redis (shared across processes)', () => {
  it('counts requests of two app instances together', async () => {
    const ns = randomBytes(4).toString('hex');
    const a = await createTestApp({ redisUrl: 'redis://127.0.0.1:6379', rateLimit: { authMax: 3, publicMax: 3, webhookMax: 3, windowMs: 60_000 } });
    const b = await buildApp({ ...a.deps, config: { ...a.deps.config }, serveWeb: false });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i += 1) {
        const target = i % 2 === 0 ? a.app : b;
        const r = await target.inject({
          method: 'POST',
          url: '/api/v1/user/forgot-password',
          payload: { email: `x-${ns}@example.test` },
          remoteAddress: `10.9.${Number.parseInt(ns.slice(0, 2), 16)}.${Number.parseInt(ns.slice(2, 4), 16)}`,
        });
        statuses.push(r.statusCode);
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
    } finally {
      await b.close();
      await a.close();
    }
  });
});
