import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TTestApp } from '../../test/test-app';
import { INVALID_TOKEN } from '../developer/public-api/errors';

/** Calls to /mcp without a known token count in the per-IP window /v2 keeps for them (3 per minute here). */
describe('the MCP server without a known token', () => {
  let t: TTestApp;
  beforeAll(async () => {
    t = await createTestApp({ rateLimit: { authMax: 10_000, publicMax: 3, webhookMax: 10_000, windowMs: 60_000 } });
  });
  afterAll(async () => {
    await t?.close();
  });

  const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
  const mcp = (ip: string, authorization?: string) =>
    t.call({
      method: 'POST',
      url: '/mcp',
      remoteAddress: ip,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(authorization ? { authorization } : {}) },
      payload: initialize,
    });

  it('answers 401 until the per-IP window is used up, shared with /v2, then 429 with Retry-After; another IP is unaffected', async () => {
    const ip = '198.51.100.7';
    const v2 = await t.call({ method: 'POST', url: '/v2/email_verify/instant', remoteAddress: ip, headers: { authorization: 'Bearer ak_guess_1' }, payload: { email: 'a@b.test' } });
    expect(v2.status).toBe(401);
    const statuses: number[] = [];
    for (const authorization of ['Bearer ak_guess_2', undefined]) statuses.push((await mcp(ip, authorization)).status);
    expect(statuses).toEqual([401, 401]);
    const over = await mcp(ip, 'Bearer ak_guess_3');
    expect(over.status).toBe(429);
    expect(over.headers['retry-after']).toBeDefined();
    expect(over.headers['x-ratelimit-limit']).toBe('3');
    expect(over.body.error.message).toContain('rate limit');
    const elsewhere = await mcp('198.51.100.8', 'Bearer ak_guess_4');
    expect(elsewhere.status).toBe(401);
    expect(elsewhere.body).toEqual({ status: 'failed', error: { code: 'invalid_token', message: INVALID_TOKEN } });
  });
});
