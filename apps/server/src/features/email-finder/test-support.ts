import { buildApp } from '../../app';
import { loadConfig, type TConfig } from '../../config';
import { createRuntime } from '../../runtime';
import { createTestDb } from '../../test/test-db';
import { findMailedToken, TEST_PASSWORD, type TTestApp } from '../../test/test-app';
import { createEmailFinderJobs } from './jobs';

/**
 * Like createTestApp, with the finder's jobs (declared in src/runtime.ts) replaced by ones with the given
 * concurrency (through extraJobs).
 */
export async function createFinderTestApp(overrides: Partial<TConfig> = {}, opts: { concurrency?: number } = {}): Promise<TTestApp> {
  const db = await createTestDb();
  const config = loadConfig(
    {},
    {
      appSecret: 'test-secret',
      dataDir: '/nonexistent-test-data',
      configuredPublicUrl: 'http://app.verilead.test',
      logLevel: 'silent',
      rateLimit: { authMax: 10_000, publicMax: 10_000, windowMs: 60_000 },
      webDistDir: '/nonexistent-web-dist',
      ...overrides,
    },
  );
  const runtime: ReturnType<typeof createRuntime> = createRuntime({
    config,
    database: db,
    extraJobs: createEmailFinderJobs({ database: db, config, getQueue: () => runtime.queue, concurrency: opts.concurrency }),
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
