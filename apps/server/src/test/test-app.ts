import type { FastifyInstance, InjectOptions } from 'fastify';
import { desc, eq } from 'drizzle-orm';
import { buildApp } from '../app';
import { loadConfig, type TConfig } from '../config';
import type { TDeps } from '../platform/deps';
import type { TJobDefinition, TJobQueue } from '../platform/jobs/jobs';
import { outbox } from '../platform/mailer/tables';
import { createRuntime, withTestDoubles } from '../runtime';
import { createTestDb, type TTestDb } from './test-db';
import type { TDatabase } from '../platform/db/database';

/** The token of the newest mail to `to` linking to `path`, after running the mail jobs (a background worker may hold one: look again a while). */
export async function findMailedToken(db: TDatabase, queue: TJobQueue, to: string, path: string): Promise<string> {
  for (let i = 0; i < 100; i += 1) {
    await queue.runUntilIdle();
    const rows = await db.db.select().from(outbox).where(eq(outbox.toAddress, to)).orderBy(desc(outbox.createdAt));
    for (const row of rows) {
      const m = new RegExp(`${path.replace(/[/.]/g, '\\$&')}\\?token=([A-Za-z0-9_%-]+)`).exec(row.text);
      if (m?.[1]) return decodeURIComponent(m[1]);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no mail to ${to} with a ${path} link`);
}

export const TEST_PASSWORD = 'Correct-Horse-1';

export type TTestApp = {
  app: FastifyInstance;
  deps: TDeps;
  db: TTestDb;
  /** app.inject with JSON parsing of the answer. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON answers
  call(opts: InjectOptions & { token?: string }): Promise<{ status: number; body: any; headers: Record<string, unknown> }>;
  /** Runs queued jobs (mails) and answers the latest token mailed to `to`, matching `path`. */
  mailedToken(to: string, path: string): Promise<string>;
  /** Signs up, verifies and logs in a fresh owner; answers its token and ids. */
  createOwner(email: string, name?: string): Promise<{ token: string; userId: string; orgId: string }>;
  close(): Promise<void>;
};

/** `extraJobs` builds, from the app's dependency record, job kinds that replace declared ones of the same name (e.g. a webhook job with a longer timeout). */
export async function createTestApp(
  overrides: Partial<TConfig> = {},
  opts: { extraJobs?: (deps: TDeps) => TJobDefinition[]; clock?: () => Date } = {},
): Promise<TTestApp> {
  const db = await createTestDb();
  // Test mode's local fakes are wired as `npm start` wires them (none when the overrides make a production start).
  const config = withTestDoubles(
    loadConfig(
      {},
      {
        appSecret: 'test-secret',
        dataDir: '/nonexistent-test-data',
        configuredPublicUrl: 'http://app.verilead.test',
        logLevel: 'silent',
        rateLimit: { authMax: 10_000, publicMax: 10_000, webhookMax: 10_000, windowMs: 60_000 },
        webDistDir: '/nonexistent-web-dist',
        ...overrides,
      },
    ),
  );
  const runtime: ReturnType<typeof createRuntime> = createRuntime({
    config,
    database: db,
    extraJobs: opts.extraJobs,
    clock: opts.clock,
  });
  const app = await buildApp({ ...runtime, serveWeb: false });
  await app.ready();

  const call: TTestApp['call'] = async ({ token, headers, ...rest }) => {
    const res = await app.inject({ ...rest, headers: { ...(headers ?? {}), ...(token ? { authorization: `Bearer ${token}` } : {}) } });
    let body: unknown = res.body;
    try {
      body = JSON.parse(res.body);
    } catch {
      /* not JSON */
    }
    return { status: res.statusCode, body, headers: res.headers };
  };

  const mailedToken: TTestApp['mailedToken'] = (to, path) => findMailedToken(db, runtime.queue, to, path);

  const createOwner: TTestApp['createOwner'] = async (email, name = 'Test Owner') => {
    const s = await call({ method: 'POST', url: '/api/v1/user/signup', payload: { name, email, password: TEST_PASSWORD, signup_source: 'friends' } });
    if (s.status !== 200) throw new Error(`signup failed: ${JSON.stringify(s.body)}`);
    const vt = await mailedToken(email, '/emailverification');
    await call({ method: 'POST', url: '/api/v1/user/activate', payload: { token: vt } });
    const l = await call({ method: 'POST', url: '/api/v1/user/login', payload: { email, password: TEST_PASSWORD } });
    if (l.status !== 200) throw new Error(`login failed: ${JSON.stringify(l.body)}`);
    return { token: l.body.data.token, userId: l.body.data.user.id, orgId: l.body.data.user.org_id };
  };

  return {
    app,
    deps: runtime,
    db,
    call,
    mailedToken,
    createOwner,
    close: async () => {
      await app.close();
      await runtime.queue.stop();
      runtime.closeMail();
      await db.dispose();
    },
  };
}
