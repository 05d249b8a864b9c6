import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailchimpCleanedPost } from '@verilead/test-doubles/platforms';
import { createTestApp, type TTestApp } from '../../test/test-app';

/** The ESP webhook addresses are public (the token is the secret): each one takes `webhookMax` posts a window. */
describe('bounce webhook rate limit', () => {
  let t: TTestApp;
  const urls: string[] = [];

  beforeAll(async () => {
    t = await createTestApp({ rateLimit: { authMax: 1_000, publicMax: 1_000, webhookMax: 3, windowMs: 60_000 } });
    for (const email of ['owner@limited-a.test', 'owner@limited-b.test']) {
      const owner = await t.createOwner(email);
      const hook = await t.call({ method: 'POST', url: '/api/v1/bounces/webhooks', token: owner.token, payload: { platform: 'mailchimp' } });
      expect(hook.status, JSON.stringify(hook.body)).toBe(200);
      urls.push(`/api/v1/public/bounces/${String(hook.body.data.url).split('/').pop()}`);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 429 in the failed envelope past the limit of one address, and another address still takes its posts', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      const post = mailchimpCleanedPost(`gone${i}@corp.test`);
      const r = await t.call({ method: 'POST', url: urls[0]!, headers: post.headers, payload: post.body });
      statuses.push(r.status);
      if (r.status === 429) {
        expect(r.body.status).toBe('failed');
        expect(r.body.error.code).toBe('rate_limited');
      }
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    const other = mailchimpCleanedPost('gone@corp.test');
    expect((await t.call({ method: 'POST', url: urls[1]!, headers: other.headers, payload: other.body })).status).toBe(200);
  });
});
