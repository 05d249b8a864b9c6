import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleServer } from '../../../scripts/server-bundle.mjs';
import { createTestDb, type TTestDb } from './test/test-db';

/**
 * What an idle server holds: `npm start` runs the esbuild bundle (scripts/server-bundle.mjs), and packages that only
 * one use case needs are loaded on that use case's first call, never by a server that just started.
 */
const ON_FIRST_USE = [
  '@faker-js/faker', // the demo directory generator
  '@node-saml/node-saml', // SAML sign-in
  'xml-crypto',
  '@xmldom/xmldom',
  'openid-client', // OpenID Connect sign-in
  'oidc-provider', // the local identity providers (--demo-idp)
  '@electric-sql/pglite', // the embedded database, on PostgreSQL
  'stripe',
  '@paypal/paypal-server-sdk',
  '@hubspot/api-client',
  '@sendgrid/client',
  'axios', // the SDKs' HTTP client
  'undici', // the guarded outbound client, on the first outbound request
  'exceljs', // XLSX files
  'pdfkit', // invoices
  'geoip-country', // /ip/location: ~8 MB of data
  'libphonenumber-js', // form guard phone checks
  'nodemailer', // SMTP mail (SMTP_URL)
  'ioredis', // REDIS_URL
];

/** The npm package of a bare import specifier or of a path or URL inside node_modules (null for our files and Node's). */
function packageOf(ref: string): string | null {
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(ref);
  if (inModules) return inModules[1]!;
  if (ref.startsWith('.') || ref.startsWith('/') || ref.startsWith('node:') || ref.includes(':')) return null;
  const [scope, name] = ref.split('/');
  return scope!.startsWith('@') ? `${scope}/${name}` : scope!;
}

/** The bundle files reachable from `entry` through static imports (and dynamic ones too with `dynamic`), and the packages they import. */
function reachable(entry: string, opts: { dynamic: boolean }): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const code = readFileSync(file, 'utf8');
    const specifiers = [...code.matchAll(/^(?:import|export)\s[^;]*?\bfrom\s*["']([^"']+)["']|^import\s*["']([^"']+)["']/gm)].map((m) => (m[1] ?? m[2])!);
    if (opts.dynamic) specifiers.push(...[...code.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]!));
    for (const spec of specifiers) {
      if (spec.startsWith('.')) visit(join(dirname(file), spec));
      else {
        const pkg = packageOf(spec);
        if (pkg) packages.add(pkg);
      }
    }
  };
  visit(entry);
  return { files, packages };
}

describe('the server bundle', () => {
  let bundle: string;
  beforeAll(async () => {
    bundle = await bundleServer();
  });

  it('keeps dynamic imports dynamic: the entry statically imports none of the packages needed only on first use', () => {
    const eager = reachable(bundle, { dynamic: false });
    // The parser reads esbuild's output: the server's own packages are there, and chunks were split off.
    expect(eager.packages).toContain('fastify');
    expect(eager.packages).toContain('pg-boss');
    const all = reachable(bundle, { dynamic: true });
    expect(all.files.size).toBeGreaterThan(eager.files.size);
    // Each of these is still in the bundle, behind a dynamic import ...
    for (const pkg of ['@faker-js/faker', '@node-saml/node-saml', '@electric-sql/pglite', 'stripe', '@paypal/paypal-server-sdk', '@hubspot/api-client', 'exceljs', 'pdfkit']) {
      expect(all.packages, pkg).toContain(pkg);
    }
    // ... and none is a static import of the entry or of the chunks it loads at start.
    expect(ON_FIRST_USE.filter((pkg) => eager.packages.has(pkg))).toEqual([]);
  });

  // PGlite is one process's embedded database, so the loaded-module check runs the bundle on PostgreSQL (CI's second pass).
  describe.skipIf(!process.env.DATABASE_URL)('an idle server on PostgreSQL', () => {
    let db: TTestDb;
    let dataDir: string;
    beforeAll(async () => {
      db = await createTestDb();
      dataDir = await mkdtemp(join(tmpdir(), 'vl-idle-'));
    });
    afterAll(async () => {
      await db?.dispose();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    /** The bundle as `npm start` runs it (`nodeArgs` before it), on this test's database; resolves once it serves. */
    async function startBundle(port: number, env: Record<string, string>, nodeArgs: string[] = []) {
      const databaseUrl = new URL(process.env.DATABASE_URL!);
      databaseUrl.pathname = `/${db.name}`;
      const child = spawn(process.execPath, [...nodeArgs, bundle, '--role=all'], {
        env: {
          ...process.env,
          DATABASE_URL: databaseUrl.toString(),
          REDIS_URL: '',
          DATA_DIR: dataDir,
          PORT: String(port),
          HOST: '127.0.0.1',
          PROSPECT_DEMO_DIRECTORY: 'false',
          WEB_DIST_DIR: join(dataDir, 'no-web-build'),
          LOG_LEVEL: 'warn',
          ...env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const server = { child, output: '', exited: once(child, 'exit') };
      await new Promise<void>((resolve, reject) => {
        const onData = (chunk: Buffer) => {
          server.output += chunk.toString();
          if (server.output.includes('Verilead is running at')) resolve();
        };
        child.stdout!.on('data', onData);
        child.stderr!.on('data', onData);
        child.once('exit', (code) => reject(new Error(`the server exited (${code}) before it was running:\n${server.output}`)));
      });
      return server;
    }

    it('has loaded none of the packages needed only on first use', async () => {
      const port = await freePort();
      const log = join(dataDir, 'modules.log');
      const moduleLog = fileURLToPath(new URL('./test/module-log.mjs', import.meta.url));
      const { child, exited } = await startBundle(port, { MODULE_LOG: log }, ['--import', moduleLog]);
      try {
        // Idle: serving, the job worker polling. A sign-in with a wrong password goes through the HTTP stack and the database once.
        const login = await fetch(`http://127.0.0.1:${port}/api/v1/user/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'nobody@idle.test', password: 'wrong password' }),
        });
        expect(login.status).toBeGreaterThanOrEqual(400);
        expect(login.status).toBeLessThan(500);
        await new Promise((r) => setTimeout(r, 1_500));
      } finally {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      const loaded = new Set(readFileSync(log, 'utf8').split('\n').map(packageOf).filter((p): p is string => p !== null));
      // The log sees the packages the server runs on (ES modules and CommonJS alike) ...
      expect(loaded).toContain('fastify');
      expect(loaded).toContain('pg');
      expect(loaded).toContain('pg-boss');
      // ... and none of those left for their first use.
      expect(ON_FIRST_USE.filter((pkg) => loaded.has(pkg))).toEqual([]);
    });

    it('stops within its bound when SIGTERM finds a request that never ends', async () => {
      const port = await freePort();
      const server = await startBundle(port, { JOB_SHUTDOWN_TIMEOUT_MS: '500' });
      const { child, exited } = server;
      const client = new Socket();
      try {
        // A client that sends a request's headers and one byte of its 100-byte body, then nothing, and keeps the connection.
        client.connect(port, '127.0.0.1');
        await once(client, 'connect');
        client.write('POST /api/v1/user/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{');
        await new Promise((r) => setTimeout(r, 500));
        child.kill('SIGTERM');
        const [code] = await exited;
        // The HTTP server waits for that request; the stop's own bound ends the process (the request's timeout is minutes).
        expect(code).toBe(1);
        expect(server.output).toContain('shutdown took too long');
      } finally {
        client.destroy();
        if (child.exitCode === null) child.kill('SIGKILL');
      }
    }, 60_000);
  });
});

/** A TCP port nothing listens on right now. */
async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}
