import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TTestApp } from '../../test/test-app';
import { outbox } from '../mailer/tables';
import { describeMissingPublicUrl, readRequestBaseUrl } from './public-url';

/** No OAuth client configured and not production: Mailchimp's consent goes through the local fake (test mode). */
const TEST_MODE_OAUTH = { integrationOAuth: { mailchimp: { baseUrl: 'https://login.mailchimp.com' }, zoho: {} } };

async function readLastMailText(t: TTestApp, to: string): Promise<string> {
  return vi.waitFor(
    async () => {
      await t.deps.queue.runUntilIdle();
      const [row] = await t.db.db.select().from(outbox).where(eq(outbox.toAddress, to)).orderBy(desc(outbox.createdAt)).limit(1);
      if (!row) throw new Error(`no mail to ${to}`);
      return row.text;
    },
    { timeout: 10_000, interval: 50 },
  );
}

describe('links without PUBLIC_URL follow the address the request was made to', () => {
  let t: TTestApp;
  let owner: { token: string };
  beforeAll(async () => {
    t = await createTestApp({ configuredPublicUrl: undefined, ...TEST_MODE_OAUTH });
    owner = await t.createOwner('links@public-url.test');
  });
  afterAll(async () => {
    if (t) await t.deps.standIns.close();
    await t?.close();
  });

  const serverOf = async (headers: Record<string, string>) => {
    const res = await t.call({ method: 'GET', url: '/v2/openapi.json', headers });
    expect(res.status).toBe(200);
    return (res.body as { servers: { url: string }[] }).servers.map((s) => s.url);
  };

  it("the /v2 reference's server is the address it was read at (127.0.0.1 and localhost alike)", async () => {
    expect(await serverOf({ host: '127.0.0.1:4321' })).toEqual(['http://127.0.0.1:4321/v2']);
    expect(await serverOf({ host: 'localhost:4321' })).toEqual(['http://localhost:4321/v2']);
  });

  it('a Host header naming another site is not used (a forged Host cannot reach links): the fallback is localhost', async () => {
    expect(await serverOf({ host: 'evil.example' })).toEqual([`http://localhost:${t.deps.config.port}/v2`]);
    // Without TRUST_PROXY, forwarded headers are ignored.
    expect(await serverOf({ host: '127.0.0.1:4321', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' })).toEqual(['http://127.0.0.1:4321/v2']);
  });

  it("Mailchimp's consent returns to the address the app was opened at", async () => {
    const start = await t.call({ method: 'GET', url: '/api/v1/oauth/mailchimp?name=Main', token: owner.token, headers: { host: '127.0.0.1:4321' } });
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    expect(new URL(start.body.data.authorize_url).searchParams.get('redirect_uri')).toBe('http://127.0.0.1:4321/integrations/mailchimp/connect');
  });

  it('a link mailed while answering a request with a body (password reset) starts with that address', async () => {
    const res = await t.call({ method: 'POST', url: '/api/v1/user/forgot-password', payload: { email: 'links@public-url.test' }, headers: { host: '127.0.0.1:4321' } });
    expect(res.status).toBe(200);
    expect(await readLastMailText(t, 'links@public-url.test')).toMatch(/http:\/\/127\.0\.0\.1:4321\/resetpassword\?token=/);
  });
});

describe('links with PUBLIC_URL, and behind a trusted proxy', () => {
  it('PUBLIC_URL wins over the address of the request', async () => {
    const t = await createTestApp({ configuredPublicUrl: 'https://verify.example.test' });
    try {
      const res = await t.call({ method: 'GET', url: '/v2/openapi.json', headers: { host: '127.0.0.1:4321' } });
      expect(res.body.servers).toEqual([{ url: 'https://verify.example.test/v2' }]);
    } finally {
      await t.close();
    }
  });

  it('TRUST_PROXY takes X-Forwarded-Host and -Proto', async () => {
    const t = await createTestApp({ configuredPublicUrl: undefined, trustProxy: true });
    try {
      const res = await t.call({ method: 'GET', url: '/v2/openapi.json', headers: { host: '10.0.0.5:3000', 'x-forwarded-host': 'app.example.test', 'x-forwarded-proto': 'https' } });
      expect(res.body.servers).toEqual([{ url: 'https://app.example.test/v2' }]);
    } finally {
      await t.close();
    }
  });

  it('reads only plain host names; says at start what happens without PUBLIC_URL', () => {
    expect(readRequestBaseUrl({ trustProxy: true }, { protocol: 'http', host: 'a b/../c' })).toBeNull();
    expect(readRequestBaseUrl({ trustProxy: false }, { protocol: 'https', host: '[::1]:8443' })).toBe('https://[::1]:8443');
    expect(describeMissingPublicUrl({ configuredPublicUrl: 'https://x.test', port: 3000, trustProxy: false })).toBeNull();
    expect(describeMissingPublicUrl({ configuredPublicUrl: undefined, port: 3000, trustProxy: false })).toBe(
      "PUBLIC_URL is not set: links are built from the address each request was made to (its Host header; this machine's own names and addresses only), " +
        'and e-mails sent by background jobs link to http://localhost:3000. Set PUBLIC_URL to the address people use.',
    );
  });
});
