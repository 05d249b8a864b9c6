import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TIntegration } from '@verilead/contracts';
import { createTestApp, type TTestApp } from '../../test/test-app';

/** The ten platforms connected with a key (besides Mailchimp, which has OAuth and a key). */
const KEY_PLATFORMS = ['hubspot', 'active_campaign', 'sendgrid', 'mailerlite', 'moosend', 'clevertap', 'lemlist', 'go_high_level', 'kit', 'apollo'] as const satisfies TIntegration[];

describe('integrations in test mode (no INTEGRATION_BASE_URLS, no ALLOW_PRIVATE_WEBHOOKS): every key-based platform has its local stand-in', () => {
  let t: TTestApp;
  let owner: { token: string };
  beforeAll(async () => {
    t = await createTestApp({ paymentsTestMode: true, allowPrivateDestinations: false, integrationBaseUrls: {} });
    owner = await t.createOwner('test-mode@integrations.test');
  });
  afterAll(async () => {
    if (t) await t.deps.standIns.close();
    await t?.close();
  });
  const call = (method: 'GET' | 'POST', url: string, payload?: unknown) => t.call({ method, url: `/api/v1${url}`, token: owner.token, ...(payload ? { payload } : {}) });

  it('says test mode and gives each platform its stand-in credentials', async () => {
    const res = await call('GET', '/integration/test_mode');
    expect(res.status).toBe(200);
    expect(res.body.data.test_mode).toBe(true);
    expect(Object.keys(res.body.data.credentials).sort()).toEqual([...KEY_PLATFORMS, 'mailchimp'].sort());
    expect(res.body.data.credentials.clevertap).toMatchObject({ account_id: 'W88-R65-9Z7Z', region: 'in1' });
  });

  it.each(KEY_PLATFORMS)('%s connects with the stand-in credentials and lists its demo list', async (platform) => {
    const creds = (await call('GET', '/integration/test_mode')).body.data.credentials[platform];
    const res = await call('POST', `/integration/account/${platform}`, { name: 'Demo', ...creds, ...(platform === 'kit' ? { paid_plan_confirmed: true } : {}) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const lists = await call('GET', `/integration/account/${platform}/${res.body.data.id}`);
    expect(lists.status, JSON.stringify(lists.body)).toBe(200);
    expect(lists.body.data.lists.map((l: { name: string }) => l.name)).toContain(platform === 'clevertap' ? 'App Launched (last 30 days)' : 'Demo contacts');
    // A wrong key is refused by the stand-in as by the platform.
    const wrong = await call('POST', `/integration/account/${platform}`, { name: 'Wrong', ...creds, api_key: 'wrong-key', ...(platform === 'kit' ? { paid_plan_confirmed: true } : {}) });
    expect(wrong.status).toBe(400);
  });
});

describe('integrations outside test mode', () => {
  it('answer no test mode and no credentials (production, or PAYMENTS_TEST_MODE=false)', async () => {
    const t = await createTestApp({ paymentsTestMode: false });
    try {
      const owner = await t.createOwner('live@integrations.test');
      const res = await t.call({ method: 'GET', url: '/api/v1/integration/test_mode', token: owner.token });
      expect(res.body.data).toEqual({ test_mode: false, credentials: {} });
    } finally {
      await t.close();
    }
  });
});
