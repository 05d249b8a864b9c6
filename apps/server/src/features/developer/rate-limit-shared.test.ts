import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app';
import { createTestApp, type TTestApp } from '../../test/test-app';

/**
 * Two API processes behind a load balancer: each is its own Fastify app with its own Redis connection, on one
 * database and one Redis (REDIS_URL, as on every development and CI machine). An app's limit holds once, not twice.
 */
describe('/v2 rate limits shared through Redis', () => {
  let t: TTestApp;
  const apis: FastifyInstance[] = [];
  let owner: { token: string };

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.createOwner('shared-limit@v2.test');
    for (let i = 0; i < 2; i += 1) {
      const api = await buildApp({ ...t.deps, config: { ...t.deps.config, redisUrl: process.env.REDIS_URL || 'redis://127.0.0.1:6379' }, serveWeb: false });
      await api.ready();
      apis.push(api);
    }
  });
  afterAll(async () => {
    for (const api of apis) await api.close();
    await t?.close();
  });

  it('an app limited to 4 calls a day gets 4 across both processes, then 429 from either', async () => {
    const created = await t.call({ method: 'POST', url: '/api/v1/apps/create', token: owner.token, payload: { name: 'Two processes', rate_limit: { window: 'day', max: 4, scope: 'global' } } });
    expect(created.status).toBe(200);
    const token = created.body.data.token as string;
    const call = (api: FastifyInstance) =>
      api.inject({ method: 'POST', url: '/v2/email_verify/instant', headers: { authorization: `Bearer ${token}` }, payload: { email: 'valid@example.com' } });
    const answers = [];
    for (let i = 0; i < 6; i += 1) answers.push(await call(apis[i % 2]!));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 429, 429]);
    expect(answers.map((a) => a.headers['x-ratelimit-remaining'])).toEqual(['3', '2', '1', '0', '0', '0']);
    expect(Number(answers[4]!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(answers[5]!.body).error.message).toContain('You have reached API rate limit');
  });
});
