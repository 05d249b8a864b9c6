import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { registerAuthorization } from '../../platform/auth/authorize';
import { registerErrorHandler } from '../../platform/errors/error-handler';
import { createTestApp, type TTestApp } from '../../test/test-app';
import { createOperatorGuard } from './guard';
import { createOperatorLink } from './operator-auth';

/**
 * Deny by default: the authorisation layer checks the operator session of every `operator` route of the table, so an
 * /ops route registered without its own guard (here: all of them) still refuses everyone but an operator.
 */
describe('operator routes at the authorisation layer', () => {
  let t: TTestApp;
  let probe: FastifyInstance;
  let bare: FastifyInstance;
  let customer: string;
  let operator: string;

  const build = async (withOperatorCheck: boolean) => {
    const app = Fastify({ logger: false });
    app.decorateRequest('caller', null);
    app.decorateRequest('operator', null);
    registerErrorHandler(app);
    registerAuthorization(app, t.db.db, withOperatorCheck ? { authenticateOperator: createOperatorGuard(t.deps.database).authenticate } : {});
    await app.register(
      async (api) => {
        // No onRequest guard on purpose.
        api.get('/ops/me', async (req) => ({ status: 'success', data: { operator: req.operator?.email ?? null } }));
        api.post('/ops/operators/:id/disable', async () => ({ status: 'success', data: { reached: true } }));
      },
      { prefix: '/api/v1' },
    );
    await app.ready();
    return app;
  };

  beforeAll(async () => {
    t = await createTestApp();
    customer = (await t.createOwner('owner@guard-ops.test')).token;
    const link = await createOperatorLink(t.deps, { email: 'op@guard-ops.test', invitedBy: null });
    const set = await t.call({ method: 'POST', url: '/api/v1/ops/session/set_password', payload: { token: new URL(link.url).searchParams.get('token'), password: 'Operator-Pass-1' } });
    operator = set.body.data.token as string;
    probe = await build(true);
    bare = await build(false);
  });
  afterAll(async () => {
    await probe?.close();
    await bare?.close();
    await t?.close();
  });

  const call = async (app: FastifyInstance, method: 'GET' | 'POST', url: string, token?: string) => {
    const res = await app.inject({ method, url, headers: token ? { authorization: `Bearer ${token}` } : {}, ...(method === 'POST' ? { payload: {} } : {}) });
    return { status: res.statusCode, body: res.json() };
  };

  it('refuses an unguarded operator route without a token (401), with a customer session (403) or a forged operator token (401)', async () => {
    for (const [method, url] of [['GET', '/api/v1/ops/me'], ['POST', '/api/v1/ops/operators/00000000-0000-4000-8000-000000000000/disable']] as const) {
      expect((await call(probe, method, url)).status, url).toBe(401);
      const asCustomer = await call(probe, method, url, customer);
      expect(asCustomer.status, url).toBe(403);
      expect(asCustomer.body.error.message).toMatch(/operator console/);
      expect((await call(probe, method, url, 'vlo_forged')).status, url).toBe(401);
    }
    expect(await call(probe, 'GET', '/api/v1/ops/me', operator)).toMatchObject({ status: 200, body: { data: { operator: 'op@guard-ops.test' } } });
  });

  it('refuses operator routes to everyone, operators too, when the server was given no operator check', async () => {
    for (const token of [undefined, customer, operator]) expect((await call(bare, 'GET', '/api/v1/ops/me', token)).status).toBe(403);
  });
});
