import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { registerErrorHandler } from '../errors/error-handler';
import { createTestApp, type TTestApp } from '../../test/test-app';
import { registerAuthorization } from './authorize';

/** A bare app with the authorisation hook and three stub routes: public, owner/admin only, and one missing from the table. */
async function buildProbe(t: TTestApp): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  app.decorateRequest('caller', null);
  registerErrorHandler(app);
  registerAuthorization(app, t.db.db);
  await app.register(
    async (api) => {
      api.post('/user/login', async () => ({ status: 'success', data: { reached: true } }));
      api.post('/admin/member/list', async (req) => ({ status: 'success', data: { role: req.caller?.role } }));
      api.get('/integration/account/:integration', async () => ({ status: 'success', data: { reached: true } }));
      api.get('/not/in/the/table', async () => ({ status: 'success', data: { reached: true } }));
    },
    { prefix: '/api/v1' },
  );
  await app.ready();
  return app;
}

describe('authorisation hook', () => {
  let t: TTestApp;
  let probe: FastifyInstance;
  let owner: string;
  let analyst: string;
  beforeAll(async () => {
    t = await createTestApp();
    owner = (await t.createOwner('owner@authorize.test')).token;
    const add = await t.call({ method: 'POST', url: '/api/v1/admin/member/add', token: owner, payload: { email: 'exec@authorize.test', role: 'analyst' } });
    const setup = await t.mailedToken('exec@authorize.test', '/setup_password');
    await t.call({ method: 'POST', url: '/api/v1/user/password/setup', payload: { token: setup, password: 'Exec-Pass-42' } });
    expect(add.status).toBe(200);
    analyst = (await t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email: 'exec@authorize.test', password: 'Exec-Pass-42' } })).body.data.token;
    probe = await buildProbe(t);
  });
  afterAll(async () => {
    await probe.close();
    await t.close();
  });

  const call = async (method: 'GET' | 'POST', url: string, token?: string) => {
    const res = await probe.inject({ method, url, headers: token ? { authorization: `Bearer ${token}` } : {}, ...(method === 'POST' ? { payload: {} } : {}) });
    return { status: res.statusCode, body: res.json() };
  };

  it('fails closed: a route missing from the table is refused to everyone, the owner too', async () => {
    for (const token of [undefined, owner, analyst]) {
      const res = await call('GET', '/api/v1/not/in/the/table', token);
      expect(res.status).toBe(403);
      expect(res.body.error.message).toMatch(/not in the authorisation table/);
    }
  });

  it('lets public routes through without a token', async () => {
    expect(await call('POST', '/api/v1/user/login')).toMatchObject({ status: 200, body: { data: { reached: true } } });
  });

  it('authenticates and checks the role, with a readable 403', async () => {
    expect((await call('POST', '/api/v1/admin/member/list')).status).toBe(401);
    expect((await call('POST', '/api/v1/admin/member/list', 'vls_unknown-token')).body.error.code).toBe('session_expired');
    expect(await call('POST', '/api/v1/admin/member/list', owner)).toMatchObject({ status: 200, body: { data: { role: 'owner' } } });
    const refused = await call('POST', '/api/v1/admin/member/list', analyst);
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe('You do not have permission to do this: it is for the owner and Managers only (you are Executive).');
  });

  it('keeps owner-only integrations for the owner', async () => {
    expect((await call('GET', '/api/v1/integration/account/hubspot', owner)).status).toBe(200);
    expect((await call('GET', '/api/v1/integration/account/hubspot', analyst)).status).toBe(403);
  });
});
