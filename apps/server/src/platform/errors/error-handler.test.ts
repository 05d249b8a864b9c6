import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseUnavailable, registerErrorHandler } from './error-handler';

/** What a request meets when PostgreSQL drops or refuses its connection: 503 with Retry-After, never a 500. */
describe('error handler: the database went away', () => {
  const app = Fastify({ logger: false });
  const throwing: Record<string, () => unknown> = {
    // pg's error when PostgreSQL ends the backend (pg_terminate_backend, a failover): SQLSTATE 57P01.
    terminated: () => Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
    // Drizzle wraps the driver's error as its cause.
    wrapped: () => Object.assign(new Error('Failed query: select 1'), { cause: new Error('Connection terminated unexpectedly') }),
    refused: () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
    // A query error is a bug on our side, still a 500.
    bug: () => Object.assign(new Error('column "nope" does not exist'), { code: '42703' }),
  };
  beforeAll(async () => {
    registerErrorHandler(app);
    for (const [name, make] of Object.entries(throwing)) {
      app.get(`/${name}`, async () => {
        throw make();
      });
    }
    await app.ready();
  });
  afterAll(() => app.close());

  for (const name of ['terminated', 'wrapped', 'refused']) {
    it(`${name}: 503 service_unavailable with Retry-After`, async () => {
      const res = await app.inject({ method: 'GET', url: `/${name}` });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json()).toEqual({
        status: 'failed',
        error: { code: 'service_unavailable', message: 'The service is briefly unavailable; please try again in a few seconds' },
      });
    });
  }

  it('a query error is still 500 internal_error', async () => {
    const res = await app.inject({ method: 'GET', url: '/bug' });
    expect(res.statusCode).toBe(500);
    expect(res.json().error.code).toBe('internal_error');
    expect(isDatabaseUnavailable(throwing.bug!())).toBe(false);
  });
});
