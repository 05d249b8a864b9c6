import { createOutboundClient } from '../../../platform/outbound-http/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TIntegration } from '@verilead/contracts';
import { FAKES, type TFakePlatform } from '@verilead/test-doubles/platforms';
import { RateLimitedError, RemoteAuthError } from './http';
import { createHubspotAdapter } from './hubspot';
import { createMailerliteAdapter } from './mailerlite';
import { createSendgridAdapter } from './sendgrid';
import type { TAdapterContext, TIntegrationAdapter } from './types';

const KEY = 'SG.sdk-test-key';
const SDK_PLATFORMS = [
  { platform: 'hubspot', create: createHubspotAdapter },
  { platform: 'sendgrid', create: createSendgridAdapter },
  { platform: 'mailerlite', create: createMailerliteAdapter },
] as const satisfies { platform: TIntegration; create: (ctx: TAdapterContext) => TIntegrationAdapter }[];

/** The SDK-backed adapters against their fakes: the SDK never retries, and its errors become ours. */
describe.each(SDK_PLATFORMS)('$platform through its official SDK', ({ platform, create }) => {
  let fake: TFakePlatform;
  beforeAll(async () => {
    fake = await FAKES[platform]!({ apiKey: KEY, lists: [{ id: '101', name: 'Newsletter', members: [] }] });
  });
  afterAll(async () => {
    await fake?.close();
  });
  const adapter = (apiKey: string, opts: Partial<TAdapterContext> = {}) => create({ credentials: { apiKey }, baseUrls: { [platform]: fake.baseUrl }, outbound: createOutboundClient({ allowPrivate: true }), ...opts });

  it('calls the injected base URL and reads the lists', async () => {
    const before = fake.requests.length;
    expect((await adapter(KEY).listLists()).map((l) => l.name)).toEqual(['Newsletter']);
    expect(fake.requests.length).toBeGreaterThan(before);
  });

  it('hands the throttling signal to the job as RateLimitedError after one request (no SDK retry)', async () => {
    fake.throttleNext(3);
    const before = fake.requests.length;
    const err = await adapter(KEY, { maxInlineWaitMs: 0 })
      .listLists()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitedError);
    expect((err as RateLimitedError).retryAfterMs).toBeGreaterThan(0);
    expect(fake.requests.length - before).toBe(1);
    fake.throttleNext(0);
  });

  it('waits out a short throttle in process and answers the retried call', async () => {
    fake.throttleNext(1);
    const before = fake.throttled;
    expect(await adapter(KEY, { maxInlineWaitMs: 5_000 }).listLists()).toHaveLength(1);
    expect(fake.throttled).toBe(before + 1);
  });

  it('answers refused credentials with RemoteAuthError', async () => {
    await expect(adapter('SG.wrong').verifyCredentials()).rejects.toBeInstanceOf(RemoteAuthError);
  });
});
