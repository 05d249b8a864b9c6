import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@verilead/contracts';
import { AppError, AppErrorWithStatus } from './app-error';
import { registerErrorHandler } from './error-handler';
import { ERROR_HTTP_STATUS, httpStatusOf } from './http-status';

/** Domain errors carry a code only; the edge's table turns it into the status, save the listed exceptions. */
describe('error codes to HTTP statuses', () => {
  it('gives every code of the contracts a client or server error status', () => {
    for (const code of ERROR_CODES) expect(ERROR_HTTP_STATUS[code], code).toBeGreaterThanOrEqual(400);
    for (const code of ERROR_CODES) expect(ERROR_HTTP_STATUS[code], code).toBeLessThan(600);
  });

  it('answers a code with its status, and an exception with its own', () => {
    expect(httpStatusOf(new AppError('insufficient_credits', 'short'))).toBe(402);
    expect(httpStatusOf(new AppError('account_inactive', 'inactive'))).toBe(403);
    expect(httpStatusOf(new AppErrorWithStatus(401, 'account_inactive', 'inactive'))).toBe(401);
  });

  const app = Fastify({ logger: false });
  beforeAll(async () => {
    registerErrorHandler(app);
    app.get('/conflict', async () => {
      throw new AppError('conflict', 'Busy', { additional_info: { reason: 'busy' } });
    });
    app.get('/exception', async () => {
      throw new AppErrorWithStatus(503, 'internal_error', 'The search failed; please try again');
    });
    await app.ready();
  });
  afterAll(() => app.close());

  it('the error handler answers a domain error with the status of its code and its envelope', async () => {
    const res = await app.inject({ method: 'GET', url: '/conflict' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ status: 'failed', error: { code: 'conflict', message: 'Busy', additional_info: { reason: 'busy' } } });
  });

  it('the error handler answers an exception with the status stated at its throw', async () => {
    const res = await app.inject({ method: 'GET', url: '/exception' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ status: 'failed', error: { code: 'internal_error', message: 'The search failed; please try again' } });
  });
});
