import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TIntegration } from '@verilead/contracts';
import { loadConfig } from './config';
import { getAdapter } from './features/integrations/service';
import { ADAPTERS } from './features/integrations/adapters/registry';
import type { TCredentials } from './features/integrations/adapters/types';
import { buildOidcStart, discoverOidc, finishOidc, type TOidcConfig } from './features/sso/oidc';
import { PUBLIC_STANDIN, refusedButStandIn, startSwitchableDns, startVictim, type TSwitchableDns, type TVictim } from './platform/outbound-http/test-support';
import { createTestApp, type TTestApp } from './test/test-app';
import { startChallengeDns, type TChallengeDns } from '@verilead/test-doubles/identity';

/**
 * Issue 27 (points 6 and 7): every outbound destination a user can set, walked with every form an attacker uses to
 * reach this server's network — loopback in all its spellings, private ranges, cloud metadata, IPv6 forms embedding
 * IPv4, a name resolving to loopback, DNS rebinding between the check and the request, and a redirect from an allowed
 * host to a private one. Each is refused with a readable message and the loopback "victim" never sees a connection.
 * The allowed path runs without the internet: 127.0.0.2 plays a public host (test-support's address judgement), and
 * names are answered by a DNS server on loopback (OUTBOUND_DNS_SERVERS).
 */

let victim: TVictim & { standIn: { requests: string[] } };
let dns: TSwitchableDns;
/** Where the SSO domain's ownership record is published (a domain counts for sign-in only once proved). */
let challengeDns: TChallengeDns;
let t: TTestApp;
let owner: { token: string; orgId: string; userId: string };
const P = () => victim.port;

/** The forms of one destination; `https` spells them for fields that only take https (OIDC issuers). */
function forms(scheme: 'http' | 'https' = 'http'): string[] {
  const p = P();
  const loopbackHttp = scheme === 'https' ? 'https' : 'http';
  return [
    `${loopbackHttp}://127.0.0.1:${p}`,
    `${loopbackHttp}://localhost:${p}`,
    `${scheme}://127.1:${p}`,
    `${scheme}://2130706433:${p}`,
    `${scheme}://0x7f.0.0.1:${p}`,
    `${scheme}://0177.0.0.1:${p}`,
    `${scheme}://10.0.0.1:${p}`,
    `${scheme}://192.168.1.1:${p}`,
    `${scheme}://172.16.0.1:${p}`,
    `${scheme}://169.254.169.254`,
    `${scheme}://metadata.attacker.test`,
    `${scheme}://[::1]:${p}`,
    `${scheme}://[::ffff:127.0.0.1]:${p}`,
    `${scheme}://[64:ff9b::7f00:1]:${p}`,
    `${scheme}://[2002:7f00:1::1]:${p}`,
    `${scheme}://internal.attacker.test:${p}`,
  ];
}

const REFUSED = /such destinations are refused\. A self-hosted server that must call private destinations can allow them with ALLOW_PRIVATE_DESTINATIONS=true\./;

beforeAll(async () => {
  victim = await startVictim((req, res) => {
    if (req.url?.startsWith('/redirect')) {
      res.writeHead(302, { location: `http://127.0.0.1:${victim.port}/stolen` });
      return res.end();
    }
    if (req.url === '/hook') return res.end('ok');
    idpHandler(req, res);
  });
  dns = await startSwitchableDns({
    localhost: ['127.0.0.1'],
    'internal.attacker.test': ['127.0.0.1'],
    'metadata.attacker.test': ['169.254.169.254'],
    'rebind.attacker.test': [PUBLIC_STANDIN],
    'public.partner.test': [PUBLIC_STANDIN],
  });
  challengeDns = await startChallengeDns();
  // Test mode off: in test mode a key-based platform is answered by its local fake, whatever base the user typed.
  t = await createTestApp({
    allowPrivateDestinations: false,
    paymentsTestMode: false,
    outboundDnsServers: dns.servers,
    dnsServers: challengeDns.dnsServers,
    outboundTestHooks: { isRefused: refusedButStandIn },
  });
  owner = await t.createOwner('owner@outbound.test');
});
afterAll(async () => {
  await t?.close();
  await victim?.close();
  await dns?.stop();
  await challengeDns?.stop();
});

describe('webhook destinations', () => {
  it('refuses every private form when saved, with the reason on the url field', async () => {
    const answers = [];
    for (const url of forms()) {
      const res = await t.call({ method: 'POST', url: '/api/v1/webhook', token: owner.token, payload: { name: 'Hook', url: `${url}/hook`, events: ['email_verifier.bulk.completed'] } });
      answers.push({ url, status: res.status, refused: REFUSED.test(res.body.error?.message ?? ''), field: res.body.error?.reasons?.[0]?.field });
    }
    expect(answers.filter((a) => a.status !== 400 || !a.refused || a.field !== 'url')).toEqual([]);
    expect(victim.connections()).toBe(0);
  });

  it('delivers to a public host, and refuses it once its name is rebound to loopback (checked again at delivery)', async () => {
    dns.set('rebind.attacker.test', [PUBLIC_STANDIN]);
    const saved = await t.call({ method: 'POST', url: '/api/v1/webhook', token: owner.token, payload: { name: 'Rebind', url: `http://rebind.attacker.test:${P()}/hook`, events: ['email_verifier.bulk.completed'] } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const delivered = await t.call({ method: 'POST', url: '/api/v1/webhook/test', token: owner.token, payload: { webhook_id: saved.body.data.id } });
    expect(delivered.body.data).toMatchObject({ status: 'success', attempts: [{ attempt: 1, status_code: 200 }] });
    expect(victim.standIn.requests).toContain('POST /hook');

    dns.set('rebind.attacker.test', ['127.0.0.1']);
    const rebound = await t.call({ method: 'POST', url: '/api/v1/webhook/test', token: owner.token, payload: { webhook_id: saved.body.data.id } });
    expect(rebound.body.data.status).toBe('failed');
    expect(rebound.body.data.attempts[0].error).toMatch(/^The destination rebind\.attacker\.test resolves to 127\.0\.0\.1, .*refused/);
    expect(victim.connections()).toBe(0);
  });

  it('does not follow a redirect from an allowed host to a private one', async () => {
    const saved = await t.call({ method: 'POST', url: '/api/v1/webhook', token: owner.token, payload: { name: 'Redirect', url: `http://public.partner.test:${P()}/redirect`, events: ['email_verifier.bulk.completed'] } });
    expect(saved.status).toBe(200);
    const res = await t.call({ method: 'POST', url: '/api/v1/webhook/test', token: owner.token, payload: { webhook_id: saved.body.data.id } });
    expect(res.body.data.status).toBe('failed');
    expect(res.body.data.attempts[0]).toMatchObject({ status_code: 302, error: 'HTTP 302 (a redirect; redirects are not followed)' });
    expect(victim.connections()).toBe(0);
  });
});

describe('integration API bases', () => {
  const rt = () => ({ config: t.deps.config, storage: t.deps.storage, standIns: t.deps.standIns });
  const platforms = Object.keys(ADAPTERS) as TIntegration[];
  /** The adapter of `platform` with its API at `base`: the operator's base URL, the account's API URL or OAuth endpoint. */
  const adapterAt = (platform: TIntegration, base: string) => {
    const credentials: TCredentials = { apiKey: 'key', apiUrl: base, accountId: 'account', region: 'us1' };
    if (platform === 'mailchimp' || platform === 'zoho') credentials.oauth = { accessToken: 'token', apiEndpoint: base, accountsServer: base, refreshToken: 'refresh' };
    const config = { ...t.deps.config, integrationBaseUrls: platform === 'active_campaign' || credentials.oauth ? {} : { [platform]: base } };
    return getAdapter({ ...rt(), config }, platform, credentials);
  };

  it("refuses ActiveCampaign's account API URL in every private form when connecting", async () => {
    const answers = [];
    for (const url of forms()) {
      const res = await t.call({ method: 'POST', url: '/api/v1/integration/account/active_campaign', token: owner.token, payload: { name: 'AC', api_key: 'key', api_url: url } });
      answers.push({ url, status: res.status, refused: REFUSED.test(res.body.error?.message ?? '') });
    }
    expect(answers.filter((a) => a.status !== 400 || !a.refused)).toEqual([]);
    expect(victim.connections()).toBe(0);
  });

  it('refuses every adapter (SDK-based ones included) at every private form of its base', async () => {
    const reached: string[] = [];
    for (const platform of platforms) {
      for (const url of forms()) {
        const adapter = await adapterAt(platform, url);
        const outcome = await adapter.verifyCredentials().then(
          () => 'answered',
          (err: Error) => err.message,
        );
        if (!REFUSED.test(outcome)) reached.push(`${platform} ${url}: ${outcome}`);
      }
    }
    expect(reached).toEqual([]);
    expect(victim.connections()).toBe(0);
  });

  it('refuses every adapter whose base, allowed, redirects to loopback or is rebound to it', async () => {
    dns.set('rebind.attacker.test', ['127.0.0.1']);
    const answered: string[] = [];
    for (const platform of platforms) {
      for (const base of [`http://public.partner.test:${P()}/redirect`, `http://rebind.attacker.test:${P()}`]) {
        const outcome = await (await adapterAt(platform, base)).verifyCredentials().then(
          () => 'answered',
          (err: Error) => err.message,
        );
        if (!/redirects are not followed|refused|status code 302/.test(outcome)) answered.push(`${platform} ${base}: ${outcome}`);
      }
    }
    expect(answered).toEqual([]);
    expect(victim.requests).toEqual([]);
    expect(victim.connections()).toBe(0);
  });
});

// ---------- OpenID Connect ----------

/** The stand-in public IdP (at http://localhost:P as its outbound resolver sees it): discovery documents naming other endpoints. */
function idpHandler(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) {
  const issuer = `http://localhost:${victim.port}`;
  const json = (body: unknown) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const doc = (path: string, endpoints: Record<string, string>) =>
    json({ issuer: `${issuer}${path}`, authorization_endpoint: `${issuer}${path}/auth`, response_types_supported: ['code'], subject_types_supported: ['public'], id_token_signing_alg_values_supported: ['RS256'], ...endpoints });
  const victimUrl = `http://127.0.0.1:${victim.port}`;
  if (req.url === '/token-elsewhere/.well-known/openid-configuration') return doc('/token-elsewhere', { token_endpoint: `${victimUrl}/token`, jwks_uri: 'http://169.254.169.254/jwks' });
  if (req.url === '/userinfo-elsewhere/.well-known/openid-configuration') {
    return doc('/userinfo-elsewhere', { token_endpoint: `${issuer}/userinfo-elsewhere/token`, jwks_uri: `${issuer}/userinfo-elsewhere/jwks`, userinfo_endpoint: `http://[::ffff:127.0.0.1]:${victim.port}/userinfo` });
  }
  if (req.url === '/userinfo-elsewhere/token') {
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const now = Math.floor(Date.now() / 1000);
    // No e-mail in the ID token: the client asks the userinfo endpoint, which points at loopback.
    const idToken = `${b64({ alg: 'RS256', typ: 'JWT' })}.${b64({ iss: `${issuer}/userinfo-elsewhere`, aud: 'client', sub: 'someone', iat: now, exp: now + 300, nonce: lastNonce })}.c2ln`;
    return json({ access_token: 'at', token_type: 'Bearer', id_token: idToken, expires_in: 300 });
  }
  res.writeHead(404);
  res.end();
}
let lastNonce = '';

/** Publishes the organisation's TXT record for the domain and verifies it, so the domain starts SSO sign-ins. */
async function proveDomain(token: string, domain: string): Promise<void> {
  const settings = await t.call({ method: 'GET', url: '/api/v1/user_preferences/sso', token });
  const claim = (settings.body.data.domain_claims as { domain: string; txt_name: string; txt_value: string }[]).find((c) => c.domain === domain);
  if (!claim) throw new Error(`no claim of ${domain}`);
  challengeDns.publishTxt(claim.txt_name, [claim.txt_value]);
  const verified = await t.call({ method: 'POST', url: '/api/v1/user_preferences/sso/domains/verify', token, payload: { domain } });
  expect(verified.body.data.status).toBe('verified');
}

describe('OpenID Connect issuers and the endpoints they name', () => {
  it('refuses an organisation issuer in every private form when anyone starts an SSO sign-in for its domain', async () => {
    const acme = await t.createOwner('owner@issuer-acme.test');
    const answers = [];
    for (const [i, url] of forms('https').entries()) {
      const saved = await t.call({
        method: 'POST',
        url: '/api/v1/user_preferences/sso',
        token: acme.token,
        payload: { enabled: true, provider: 'oidc', domains: ['issuer-acme.test'], issuer_url: `${url}/`, client_id: 'acme', ...(i === 0 ? { client_secret: 'secret' } : {}) },
      });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      if (i === 0) await proveDomain(acme.token, 'issuer-acme.test');
      const res = await t.call({ method: 'POST', url: '/api/v1/sso/signin', payload: { email: 'someone@issuer-acme.test' } });
      answers.push({ url, status: res.status, refused: REFUSED.test(res.body.error?.message ?? ''), message: res.body.error?.message });
    }
    expect(answers.filter((a) => a.status !== 400 || !a.refused)).toEqual([]);
    expect(victim.connections()).toBe(0);
  });

  /** The outbound configuration of these calls: `localhost` resolves to the public stand-in, as a public IdP would. */
  const oidcConfig = (): TOidcConfig => ({
    ...loadConfig({}, { appSecret: 'x', dataDir: '/nonexistent' }),
    allowPrivateDestinations: false,
    outboundDnsServers: [],
    outboundTestHooks: { isRefused: refusedButStandIn, lookup: async (h) => (h === 'localhost' ? [{ address: PUBLIC_STANDIN, family: 4 }] : [{ address: '127.0.0.1', family: 4 }]) },
    sso: { google: null, microsoft: null },
  });

  it('refuses a token endpoint the discovery document points at loopback (the issuer itself allowed)', async () => {
    const settings = { issuer: `http://localhost:${P()}/token-elsewhere`, clientId: 'client', clientSecret: 'secret' };
    const config = await discoverOidc(settings, oidcConfig());
    const start = await buildOidcStart(config, 'http://app.verilead.test/sso/signin');
    await expect(
      finishOidc(config, { redirectUri: 'http://app.verilead.test/sso/signin', params: { code: 'code', state: start.state }, state: start.state, nonce: start.nonce, codeVerifier: start.codeVerifier }),
    ).rejects.toThrow(/refused: The destination 127\.0\.0\.1 resolves to 127\.0\.0\.1, .*such destinations are refused/);
    expect(victim.standIn.requests).toContain('GET /token-elsewhere/.well-known/openid-configuration');
    expect(victim.connections()).toBe(0);
  });

  it('refuses a userinfo endpoint the discovery document points at an IPv4-mapped loopback', async () => {
    const settings = { issuer: `http://localhost:${P()}/userinfo-elsewhere`, clientId: 'client', clientSecret: 'secret' };
    const config = await discoverOidc(settings, oidcConfig());
    const start = await buildOidcStart(config, 'http://app.verilead.test/sso/signin');
    lastNonce = start.nonce;
    await expect(
      finishOidc(config, { redirectUri: 'http://app.verilead.test/sso/signin', params: { code: 'code', state: start.state }, state: start.state, nonce: start.nonce, codeVerifier: start.codeVerifier }),
    ).rejects.toThrow('The identity provider did not share your e-mail address');
    expect(victim.standIn.requests).toContain('POST /userinfo-elsewhere/token');
    expect(victim.connections()).toBe(0);
  });

  it('does not follow a discovery document that redirects to loopback', async () => {
    await expect(discoverOidc({ issuer: `http://localhost:${P()}/redirect`, clientId: 'client', clientSecret: 'secret' }, oidcConfig())).rejects.toThrow(
      'The identity provider could not be reached. Please try again later or ask your administrator.',
    );
    expect(victim.standIn.requests).toContain('GET /redirect/.well-known/openid-configuration');
    expect(victim.connections()).toBe(0);
  });
});
