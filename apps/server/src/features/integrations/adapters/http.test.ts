import { createOutboundClient } from '../../../platform/outbound-http/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeServer, type TFakePlatform } from '@verilead/test-doubles/platforms';
import { createJsonClient, parseRetryAfter, RateLimitedError, RemoteAuthError } from './http';

describe('the platforms JSON client', () => {
  let fake: TFakePlatform;
  beforeAll(async () => {
    fake = await startFakeServer({
      seed: { apiKey: 'k', lists: [] },
      authorise: (req) => (req.headers.authorization === 'Bearer k' ? null : { status: 401, body: { message: 'bad key' } }),
      throttle: () => ({ status: 429, headers: { 'retry-after': '0' }, body: {} }),
      route: () => ({ status: 200, body: { ok: true } }),
    });
  });
  afterAll(async () => {
    await fake?.close();
  });
  const client = (key: string, opts: { maxThrottleWaits?: number; maxInlineWaitMs?: number } = {}) =>
    createJsonClient({ credentials: { apiKey: key }, baseUrls: {}, outbound: createOutboundClient({ allowPrivate: true }), ...opts }, { authHeaders: () => ({ authorization: `Bearer ${key}` }), errorMessage: (b) => (b as { message?: string }).message });

  it('waits out a 429 as the platform says and answers the retried request', async () => {
    fake.throttleNext(2);
    const before = fake.requests.length;
    const res = await client('k')({ url: `${fake.baseUrl}/x` });
    expect(res.body).toEqual({ ok: true });
    expect(fake.requests.length - before).toBe(3);
  });

  it('hands a throttle it will not wait for to the caller, with the wait the platform asked for', async () => {
    fake.throttleNext(5);
    const err = await client('k', { maxThrottleWaits: 1 })({ url: `${fake.baseUrl}/x` }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitedError);
    expect((err as RateLimitedError).retryAfterMs).toBe(0);
    fake.throttleNext(0);
  });

  it('answers refused credentials as RemoteAuthError with the platform message', async () => {
    const err = await client('wrong')({ url: `${fake.baseUrl}/x` }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RemoteAuthError);
    expect((err as Error).message).toBe('bad key');
  });

  it('refuses private destinations unless allowed', async () => {
    const guarded = createJsonClient({ credentials: { apiKey: 'k' }, baseUrls: {}, outbound: createOutboundClient({ allowPrivate: false }) }, { authHeaders: () => ({}) });
    await expect(guarded({ url: `${fake.baseUrl}/x` })).rejects.toThrow(/loopback/);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(parseRetryAfter(null)).toBeNull();
    expect(parseRetryAfter('soon')).toBeNull();
  });
});
