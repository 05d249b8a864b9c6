import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TTestApp } from '../../../test/test-app';
import { encryptSecret } from '../../../platform/secrets/secret-box';
import { startMailchimpFake, type TFakePlatform } from '@verilead/test-doubles/platforms';
import { integrationAccounts, integrationOauthStates } from '../tables';
import { completeConsent } from '../test-support';
import { FAKE_CLIENTS, isOwnLocalFake } from './providers';

/** No OAuth client configured and no ALLOW_PRIVATE_DESTINATIONS: what `npm start` and a production server do with it. */
const NO_CLIENTS = { allowPrivateDestinations: false, integrationOAuth: { mailchimp: { baseUrl: 'https://login.mailchimp.com' }, zoho: {} } };

describe('OAuth without a configured client in production (NODE_ENV=production)', () => {
  let t: TTestApp;
  let owner: { token: string; orgId: string };
  beforeAll(async () => {
    t = await createTestApp({ ...NO_CLIENTS, production: true });
    owner = await t.createOwner('prod-oauth@integrations.test');
  });
  afterAll(async () => {
    if (t) await t.deps.standIns.close();
    await t?.close();
  });

  it('"Connect with Mailchimp" / "Connect with Zoho CRM" answer 503 with what is missing; no fake starts, no state is stored', async () => {
    const chimp = await t.call({ method: 'GET', url: '/api/v1/oauth/mailchimp?name=Main', token: owner.token });
    expect(chimp.status).toBe(503);
    expect(chimp.body.error.code).toBe('integration_not_configured');
    expect(chimp.body.error.message).toMatch(/^Connecting with Mailchimp is not configured on this server/);
    expect(chimp.body.error.message).toContain('MAILCHIMP_CLIENT_ID and MAILCHIMP_CLIENT_SECRET');
    const zoho = await t.call({ method: 'GET', url: '/api/v1/oauth/zoho?name=Main&region=eu', token: owner.token });
    expect(zoho.status).toBe(503);
    expect(zoho.body.error.message).toMatch(/^Connecting with Zoho CRM is not configured on this server/);
    expect(await t.db.db.select().from(integrationOauthStates)).toHaveLength(0);
    // Nothing answers for a local fake: an account claiming one is not exempt from the outbound guard.
    expect(isOwnLocalFake(t.deps, 'mailchimp', { accessToken: 'x', apiEndpoint: 'http://127.0.0.1:1' })).toBe(false);
  });
});

describe('OAuth test mode (no client, not production): the local fakes the server starts itself', () => {
  let t: TTestApp;
  let owner: { token: string; orgId: string; userId: string };
  let other: TFakePlatform;
  beforeAll(async () => {
    t = await createTestApp(NO_CLIENTS);
    owner = await t.createOwner('demo-oauth@integrations.test');
    // A Mailchimp-speaking server on 127.0.0.1 that this server did not start (its token accepted).
    other = await startMailchimpFake({ apiKey: 'unused', lists: [{ id: 'x', name: 'Elsewhere', members: [] }] }, FAKE_CLIENTS.mailchimp);
  });
  afterAll(async () => {
    await other?.close();
    if (t) await t.deps.standIns.close();
    await t?.close();
  });
  const get = (url: string) => t.call({ method: 'GET', url: `/api/v1${url}`, token: owner.token });

  it('connects Mailchimp and Zoho CRM through their own fakes and lists their lists (loopback allowed for exactly those)', async () => {
    const start = await get('/oauth/mailchimp?name=Demo');
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    const own = new URL(start.body.data.authorize_url).origin;
    expect(own).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const back = await completeConsent(start.body.data.authorize_url);
    const done = await get(`/oauth/mailchimp?${new URLSearchParams({ code: back.code!, state: back.state! })}`);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const lists = await get(`/integration/account/mailchimp/${done.body.data.account.id}`);
    expect(lists.status, JSON.stringify(lists.body)).toBe(200);
    expect(lists.body.data.lists.map((l: { name: string }) => l.name)).toEqual(['Demo audience']);
    expect(isOwnLocalFake(t.deps, 'mailchimp', { accessToken: 'x', apiEndpoint: own })).toBe(true);
    expect(isOwnLocalFake(t.deps, 'mailchimp', { accessToken: 'x', apiEndpoint: `${own}/elsewhere` })).toBe(false);

    const z = await get('/oauth/zoho?name=Demo&region=eu');
    expect(z.status, JSON.stringify(z.body)).toBe(200);
    const zBack = await completeConsent(z.body.data.authorize_url);
    const zDone = await get(`/oauth/zoho?${new URLSearchParams(zBack)}`);
    expect(zDone.status, JSON.stringify(zDone.body)).toBe(200);
    const zLists = await get(`/integration/account/zoho/${zDone.body.data.account.id}`);
    expect(zLists.status, JSON.stringify(zLists.body)).toBe(200);
    expect(zLists.body.data.lists.map((l: { name: string }) => l.name)).toEqual(['Demo audience']);
  });

  it('refuses an OAuth account whose endpoint is another loopback server, even one marked `local` (old credentials)', async () => {
    const token = await fetchToken(other);
    const credentials = encryptSecret(t.deps.config.appSecret, JSON.stringify({ apiKey: '', oauth: { accessToken: token, apiEndpoint: new URL(other.baseUrl).origin, dc: 'us19', local: true } }), 'integration-credentials');
    const [row] = await t.db.db.insert(integrationAccounts).values({ orgId: owner.orgId, userId: owner.userId, platform: 'mailchimp', name: 'Planted', credentials, remoteAccount: 'x' }).returning();
    const before = other.requests.length;
    const res = await get(`/integration/account/mailchimp/${row!.id}`);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/^Mailchimp could not be used: The destination 127\.0\.0\.1(:\d+)? resolves to .*such destinations are refused/);
    expect(other.requests.length).toBe(before);
    await t.db.db.delete(integrationAccounts).where(eq(integrationAccounts.id, row!.id));
  });
});

/** A token the other fake accepts: its consent and token endpoints, as a browser and a server would use them. */
async function fetchToken(fake: TFakePlatform): Promise<string> {
  const origin = new URL(fake.baseUrl).origin;
  const consent = await fetch(`${origin}/oauth2/authorize`, { method: 'POST', body: new URLSearchParams({ decision: 'allow', client_id: FAKE_CLIENTS.mailchimp.clientId, redirect_uri: 'http://app.test/cb', state: 's' }), redirect: 'manual' });
  const code = new URL(consent.headers.get('location')!).searchParams.get('code')!;
  const res = await fetch(`${origin}/oauth2/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: 'http://app.test/cb', client_id: FAKE_CLIENTS.mailchimp.clientId, client_secret: FAKE_CLIENTS.mailchimp.clientSecret }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}
