import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SSO_ONLY_MESSAGE, ZLoginResponse, ZSsoConfigResponse, ZSsoStartResponse } from '@verilead/contracts';
import { createTestApp, TEST_PASSWORD, type TTestApp } from '../../test/test-app';
import { createSamlResponse, followLocalOidcLogin, parseAuthnRequest, startChallengeDns, startLocalOidcIdp, startLocalSamlIdp, type TChallengeDns, type TLocalOidcIdp, type TLocalSamlIdp } from '@verilead/test-doubles/identity';
import { issueOnetoolToken } from './service';

const APP = 'http://app.verilead.test';
const CALLBACK = `${APP}/sso/signin`;

describe('single sign-on API', () => {
  let t: TTestApp;
  let oidc: TLocalOidcIdp;
  let samlIdp: TLocalSamlIdp;
  let dns: TChallengeDns;
  let acme: { token: string; userId: string; orgId: string };
  let samlOrg: { token: string; userId: string; orgId: string };
  let samlOther: { token: string; userId: string; orgId: string };

  beforeAll(async () => {
    oidc = await startLocalOidcIdp({
      clients: [
        { clientId: 'google-client', clientSecret: 'google-secret', redirectUris: [CALLBACK] },
        { clientId: 'acme-client', clientSecret: 'acme-secret', redirectUris: [CALLBACK] },
        { clientId: 'ms-client', clientSecret: 'ms-secret', redirectUris: [CALLBACK] },
      ],
    });
    samlIdp = await startLocalSamlIdp();
    dns = await startChallengeDns();
    t = await createTestApp({
      dnsServers: dns.dnsServers,
      sso: {
        google: { issuer: oidc.issuer, clientId: 'google-client', clientSecret: 'google-secret' },
        microsoft: { issuer: oidc.issuer, clientId: 'ms-client', clientSecret: 'ms-secret' },
      },
    });
    acme = await t.createOwner('owner@acme.test');
    samlOrg = await t.createOwner('owner@samlco.test');
    const a = await t.call({
      method: 'POST',
      url: '/api/v1/user_preferences/sso',
      token: acme.token,
      payload: { enabled: true, provider: 'oidc', domains: ['acme.test'], issuer_url: oidc.issuer, client_id: 'acme-client', client_secret: 'acme-secret', default_role: 'analyst' },
    });
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    const s = await t.call({
      method: 'POST',
      url: '/api/v1/user_preferences/sso',
      token: samlOrg.token,
      payload: { enabled: true, provider: 'saml', domains: ['samlco.test'], sso_url: samlIdp.ssoUrl, certificate: samlIdp.certificate },
    });
    expect(s.status, JSON.stringify(s.body)).toBe(200);
    // A second organisation on the same identity provider (same signing certificate).
    samlOther = await t.createOwner('owner@samlother.test');
    const o = await t.call({
      method: 'POST',
      url: '/api/v1/user_preferences/sso',
      token: samlOther.token,
      payload: { enabled: true, provider: 'saml', domains: ['samlother.test'], sso_url: samlIdp.ssoUrl, certificate: samlIdp.certificate },
    });
    expect(o.status, JSON.stringify(o.body)).toBe(200);
    // Each organisation proves its domain with the TXT record its settings show (domain-claims.test.ts walks this).
    for (const [owner, domain] of [[acme, 'acme.test'], [samlOrg, 'samlco.test'], [samlOther, 'samlother.test']] as const) {
      const claim = (await t.call({ method: 'GET', url: '/api/v1/user_preferences/sso', token: owner.token })).body.data.domain_claims[0];
      dns.publishTxt(claim.txt_name, [claim.txt_value]);
      const verified = await t.call({ method: 'POST', url: '/api/v1/user_preferences/sso/domains/verify', token: owner.token, payload: { domain } });
      expect(verified.body.data, JSON.stringify(verified.body)).toMatchObject({ domain, status: 'verified' });
    }
  });
  afterAll(async () => {
    await t.close();
    await oidc.stop();
    await samlIdp.stop();
    await dns.stop();
  });

  async function startOrg(email: string): Promise<string> {
    const res = await t.call({ method: 'POST', url: '/api/v1/sso/signin', payload: { email } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return ZSsoStartResponse.parse(res.body).data.redirect_url;
  }

  async function oidcCallback(redirectUrl: string, email: string) {
    const back = await followLocalOidcLogin(redirectUrl, email, APP);
    expect(back.origin + back.pathname).toBe(CALLBACK);
    return Object.fromEntries(back.searchParams) as Record<string, string>;
  }

  it('discovers SSO by e-mail domain and validates the query', async () => {
    const yes = ZSsoConfigResponse.parse((await t.call({ method: 'GET', url: '/api/v1/sso/config?email=someone@ACME.test' })).body).data;
    expect(yes).toEqual({ sso_enabled: true, sso_only: false, protocol: 'oidc', social_providers: ['google', 'microsoft'] });
    const no = (await t.call({ method: 'GET', url: '/api/v1/sso/config?email=someone@other.test' })).body.data;
    expect(no.sso_enabled).toBe(false);
    const social = await t.call({ method: 'GET', url: '/api/v1/sso/config' });
    expect(social.body.data).toMatchObject({ sso_enabled: false, social_providers: ['google', 'microsoft'] });
    const bad = await t.call({ method: 'GET', url: '/api/v1/sso/config?email=not-an-email' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.reasons[0].field).toBe('email');
    const none = await t.call({ method: 'POST', url: '/api/v1/sso/signin', payload: { email: 'x@other.test' } });
    expect(none.status).toBe(404);
    expect(none.body.error.code).toBe('sso_not_configured');
  });

  it('signs a new user in through the organisation OIDC provider just in time, with the default role; the answer is single use', async () => {
    const url = await startOrg('new.person@acme.test');
    expect(url).toContain(oidc.issuer);
    expect(url).toContain('code_challenge_method=S256');
    const params = await oidcCallback(url, 'new.person@acme.test');
    const res = await t.call({ method: 'POST', url: '/api/v1/sso/activate', payload: params });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const login = ZLoginResponse.parse(res.body).data;
    expect(login.user.email).toBe('new.person@acme.test');
    expect(login.user.org_id).toBe(acme.orgId);
    expect(login.user.user_role).toBe('analyst');
    const profile = await t.call({ method: 'GET', url: '/api/v1/user/profile', token: login.token });
    expect(profile.status).toBe(200);
    const again = await t.call({ method: 'POST', url: '/api/v1/sso/activate', payload: params });
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe('sso_failed');
  });

  it('refuses a tampered state, a wrong provider endpoint and an IdP error', async () => {
    const params = await oidcCallback(await startOrg('other.person@acme.test'), 'other.person@acme.test');
    expect((await t.call({ method: 'POST', url: '/api/v1/sso/activate', payload: { ...params, state: 'forged-state' } })).status).toBe(400);
    expect((await t.call({ method: 'POST', url: '/api/v1/sso/google/activate', payload: params })).status).toBe(400);
    const denied = await t.call({ method: 'POST', url: '/api/v1/sso/activate', payload: { state: 'x', error: 'access_denied' } });
    expect(denied.body.error.message).toBe('The sign-in was cancelled.');
    expect((await t.call({ method: 'POST', url: '/api/v1/sso/bogus/activate', payload: params })).status).toBe(400);
  });

  it('refuses an account of another organisation through this organisation SSO, and a domain another organisation claims', async () => {
    const claimed = await t.call({ method: 'POST', url: '/api/v1/user_preferences/sso', token: acme.token, payload: { enabled: true, provider: 'oidc', domains: ['acme.test', 'samlco.test'], issuer_url: oidc.issuer, client_id: 'acme-client' } });
    expect(claimed.status).toBe(409);
    expect(claimed.body.error.reasons[0].field).toBe('domains');
    await t.createOwner('someone@shared.test');
    const both = await t.call({ method: 'POST', url: '/api/v1/user_preferences/sso', token: acme.token, payload: { enabled: true, provider: 'oidc', domains: ['acme.test', 'shared.test'], issuer_url: oidc.issuer, client_id: 'acme-client' } });
    const shared = both.body.data.domain_claims.find((c: { domain: string }) => c.domain === 'shared.test');
    dns.publishTxt(shared.txt_name, [shared.txt_value]);
    expect((await t.call({ method: 'POST', url: '/api/v1/user_preferences/sso/domains/verify', token: acme.token, payload: { domain: 'shared.test' } })).body.data.status).toBe('verified');
    try {
      const params = await oidcCallback(await startOrg('someone@shared.test'), 'someone@shared.test');
      const res = await t.call({ method: 'POST', url: '/api/v1/sso/activate', payload: params });
      expect(res.status).toBe(403);
      expect(res.body.error.message).toMatch(/another organisation/);
    } finally {
      await t.call({ method: 'POST', url: '/api/v1/user_preferences/sso', token: acme.token, payload: { enabled: true, provider: 'oidc', domains: ['acme.test'], issuer_url: oidc.issuer, client_id: 'acme-client' } });
    }
  });

  it('signs in with Google: a new e-mail gets its own organisation, an existing one its account', async () => {
    const start = await t.call({ method: 'POST', url: '/api/v1/sso/google', payload: {} });
    expect(start.status).toBe(200);
    const params = await oidcCallback(start.body.data.redirect_url, 'fresh@gmail.test');
    const res = await t.call({ method: 'POST', url: '/api/v1/sso/google/activate', payload: params });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.user.user_role).toBe('owner');
    expect(res.body.data.user.org_id).not.toBe(acme.orgId);
    const s2 = await t.call({ method: 'POST', url: '/api/v1/sso/google' });
    expect(s2.status, JSON.stringify(s2.body)).toBe(200);
    const p2 = await oidcCallback(s2.body.data.redirect_url, 'owner@acme.test');
    const r2 = await t.call({ method: 'POST', url: '/api/v1/sso/google/activate', payload: p2 });
    expect(r2.status).toBe(200);
    expect(r2.body.data.user.id).toBe(acme.userId);
    const ms = await t.call({ method: 'POST', url: '/api/v1/sso/microsoft', payload: { email: 'owner@acme.test' } });
    expect(ms.body.data.redirect_url).toContain('client_id=ms-client');
    const p3 = await oidcCallback(ms.body.data.redirect_url, 'owner@acme.test');
    // A state started for Microsoft does not finish as Google.
    expect((await t.call({ method: 'POST', url: '/api/v1/sso/google/activate', payload: p3 })).status).toBe(400);
    const ms2 = await t.call({ method: 'POST', url: '/api/v1/sso/microsoft' });
    const p4 = await oidcCallback(ms2.body.data.redirect_url, 'owner@acme.test');
    const r4 = await t.call({ method: 'POST', url: '/api/v1/sso/microsoft/activate', payload: p4 });
    expect(r4.body.data.user.id).toBe(acme.userId);
  });

  it('answers a clear message when a social provider is not set up on this server', async () => {
    const bare = await createTestApp();
    try {
      const ms = await bare.call({ method: 'POST', url: '/api/v1/sso/microsoft', payload: {} });
      expect(ms.status).toBe(404);
      expect(ms.body.error.message).toMatch(/Microsoft is not set up/);
      expect((await bare.call({ method: 'GET', url: '/api/v1/sso/config' })).body.data.social_providers).toEqual([]);
    } finally {
      await bare.close();
    }
  });

  it('"SSO only" refuses password login for members (not the owner) with the message', async () => {
    const add = await t.call({ method: 'POST', url: '/api/v1/admin/member/add', token: acme.token, payload: { email: 'pw.member@acme.test', role: 'analyst', name: 'Pw Member' } });
    expect(add.status, JSON.stringify(add.body)).toBe(200);
    const setup = await t.mailedToken('pw.member@acme.test', '/setup_password');
    expect((await t.call({ method: 'POST', url: '/api/v1/user/password/setup', payload: { token: setup, password: TEST_PASSWORD } })).status).toBe(200);
    const before = await t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email: 'pw.member@acme.test', password: TEST_PASSWORD } });
    expect(before.status).toBe(200);
    await t.call({ method: 'POST', url: '/api/v1/user_preferences/sso', token: acme.token, payload: { enabled: true, enforce: true, provider: 'oidc', domains: ['acme.test'], issuer_url: oidc.issuer, client_id: 'acme-client' } });
    try {
      const refused = await t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email: 'pw.member@acme.test', password: TEST_PASSWORD } });
      expect(refused.status).toBe(403);
      expect(refused.body.error).toMatchObject({ code: 'sso_required', message: SSO_ONLY_MESSAGE });
      const wrong = await t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email: 'pw.member@acme.test', password: 'Wrong-Password-9' } });
      expect(wrong.status).toBe(401);
      expect((await t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email: 'owner@acme.test', password: TEST_PASSWORD } })).status).toBe(200);
      expect((await t.call({ method: 'GET', url: '/api/v1/sso/config?email=pw.member@acme.test' })).body.data.sso_only).toBe(true);
      const viaGoogle = await t.call({ method: 'POST', url: '/api/v1/sso/google' });
      const p = await oidcCallback(viaGoogle.body.data.redirect_url, 'pw.member@acme.test');
      const g = await t.call({ method: 'POST', url: '/api/v1/sso/google/activate', payload: p });
      expect(g.body.error?.code).toBe('sso_required');
      const viaSso = await oidcCallback(await startOrg('pw.member@acme.test'), 'pw.member@acme.test');
      expect((await t.call({ method: 'POST', url: '/api/v1/sso/activate', payload: viaSso })).status).toBe(200);
    } finally {
      await t.call({ method: 'POST', url: '/api/v1/user_preferences/sso', token: acme.token, payload: { enabled: true, enforce: false, provider: 'oidc', domains: ['acme.test'], issuer_url: oidc.issuer, client_id: 'acme-client' } });
    }
  });

  describe('SAML', () => {
    async function samlRequest(email: string) {
      const url = new URL(await startOrg(email));
      expect(url.href.startsWith(samlIdp.ssoUrl)).toBe(true);
      return parseAuthnRequest(url.searchParams.get('SAMLRequest')!);
    }
    async function postAcs(samlResponse: string) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/v1/sso/saml/acs/${samlOrg.orgId}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ SAMLResponse: samlResponse, RelayState: '' }).toString(),
      });
      expect(res.statusCode).toBe(303);
      return new URL(String(res.headers.location));
    }

    it('logs in through a signed response just in time, and refuses the same response again', async () => {
      const request = await samlRequest('jit@samlco.test');
      expect(request.acsUrl).toBe(`${APP}/api/v1/sso/saml/acs/${samlOrg.orgId}`);
      const response = createSamlResponse({ idpEntityId: samlIdp.entityId, request, email: 'jit@samlco.test', name: 'Jit User' });
      const back = await postAcs(response);
      const ticket = back.searchParams.get('ticket');
      expect(ticket, back.href).toBeTruthy();
      const res = await t.call({ method: 'POST', url: '/api/v1/sso/activate', payload: { ticket } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.user).toMatchObject({ email: 'jit@samlco.test', org_id: samlOrg.orgId, user_role: 'analyst' });
      expect((await t.call({ method: 'POST', url: '/api/v1/sso/activate', payload: { ticket } })).status).toBe(400);
      const replay = await postAcs(response);
      expect(replay.searchParams.get('ticket')).toBeNull();
      expect(replay.searchParams.get('sso_error')).toBeTruthy();
    });

    it('refuses a tampered response, a foreign key, a wrong audience and an unknown request id', async () => {
      const r1 = await samlRequest('a@samlco.test');
      const good = createSamlResponse({ idpEntityId: samlIdp.entityId, request: r1, email: 'a@samlco.test' });
      const tampered = Buffer.from(Buffer.from(good, 'base64').toString('utf8').replaceAll('a@samlco.test', 'owner@samlco.test')).toString('base64');
      expect((await postAcs(tampered)).searchParams.get('sso_error')).toMatch(/could not be verified/);
      const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const foreign = createSamlResponse({ idpEntityId: samlIdp.entityId, request: r1, email: 'a@samlco.test', key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() });
      expect((await postAcs(foreign)).searchParams.get('sso_error')).toMatch(/could not be verified/);
      const r2 = await samlRequest('b@samlco.test');
      const wrongAudience = createSamlResponse({ idpEntityId: samlIdp.entityId, request: { ...r2, issuer: 'https://someone-else.example/sp' }, email: 'b@samlco.test' });
      expect((await postAcs(wrongAudience)).searchParams.get('sso_error')).toMatch(/could not be verified/);
      const unknown = createSamlResponse({ idpEntityId: samlIdp.entityId, request: { ...r2, id: '_never-sent' }, email: 'b@samlco.test' });
      expect((await postAcs(unknown)).searchParams.get('sso_error')).toMatch(/could not be verified/);
      // A failed answer uses up its request; a fresh, untouched answer works.
      const r3 = await samlRequest('b@samlco.test');
      const ok = await postAcs(createSamlResponse({ idpEntityId: samlIdp.entityId, request: r3, email: 'b@samlco.test' }));
      expect(ok.searchParams.get('ticket')).toBeTruthy();
    });

    it("refuses a signed answer whose Destination or Recipient is another organisation's ACS, or that answers another organisation's request", async () => {
      const otherAcs = `${APP}/api/v1/sso/saml/acs/${samlOther.orgId}`;
      const elsewhere = /addressed to another sign-in address/;
      const r1 = await samlRequest('c@samlco.test');
      const both = createSamlResponse({ idpEntityId: samlIdp.entityId, request: { ...r1, acsUrl: otherAcs }, email: 'c@samlco.test' });
      expect((await postAcs(both)).searchParams.get('sso_error')).toMatch(elsewhere);
      const r2 = await samlRequest('c@samlco.test');
      const destination = createSamlResponse({ idpEntityId: samlIdp.entityId, request: r2, destination: otherAcs, email: 'c@samlco.test' });
      expect((await postAcs(destination)).searchParams.get('sso_error')).toMatch(elsewhere);
      const r3 = await samlRequest('c@samlco.test');
      const recipient = createSamlResponse({ idpEntityId: samlIdp.entityId, request: r3, recipient: otherAcs, email: 'c@samlco.test' });
      expect((await postAcs(recipient)).searchParams.get('sso_error')).toMatch(elsewhere);
      // A request the other organisation sent, answered for this organisation's audience and ACS.
      const theirs = await samlRequest('d@samlother.test');
      const ours = { entityId: `${APP}/api/v1/sso/saml/metadata/${samlOrg.orgId}`, acsUrl: `${APP}/api/v1/sso/saml/acs/${samlOrg.orgId}` };
      const crossed = createSamlResponse({ idpEntityId: samlIdp.entityId, request: { id: theirs.id, issuer: ours.entityId, acsUrl: ours.acsUrl }, email: 'c@samlco.test' });
      expect((await postAcs(crossed)).searchParams.get('sso_error')).toMatch(/could not be verified/);
      const r4 = await samlRequest('c@samlco.test');
      const ok = await postAcs(createSamlResponse({ idpEntityId: samlIdp.entityId, request: r4, email: 'c@samlco.test' }));
      expect(ok.searchParams.get('sso_error')).toBeNull();
      expect(ok.searchParams.get('ticket')).toMatch(/^vlt_/);
    });

    it('answers SP metadata for the organisation and 404 for an unknown one', async () => {
      const meta = await t.app.inject({ method: 'GET', url: `/api/v1/sso/saml/metadata/${samlOrg.orgId}` });
      expect(meta.statusCode).toBe(200);
      expect(meta.body).toContain(`/api/v1/sso/saml/acs/${samlOrg.orgId}`);
      const other = await t.app.inject({ method: 'GET', url: '/api/v1/sso/saml/metadata/00000000-0000-4000-8000-000000000000' });
      expect(other.statusCode).toBe(404);
      const none = await t.app.inject({ method: 'POST', url: `/api/v1/sso/saml/acs/${acme.orgId}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'SAMLResponse=x' });
      expect(none.statusCode).toBe(404);
      const bad = await t.app.inject({ method: 'POST', url: '/api/v1/sso/saml/acs/not-a-uuid', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'SAMLResponse=x' });
      expect(bad.statusCode).toBe(400);
    });
  });

  it('one-tool token: issued by the operator, checked without use, then logs in once', async () => {
    const refused = await t.call({ method: 'POST', url: '/api/v1/ops/onetool_token', payload: { email: 'owner@samlco.test' }, headers: { 'x-ops-secret': 'wrong' } });
    expect(refused.status).toBe(403);
    const issued = await t.call({ method: 'POST', url: '/api/v1/ops/onetool_token', payload: { email: 'owner@samlco.test' }, headers: { 'x-ops-secret': 'test-secret' } });
    expect(issued.body.data.url).toMatch(/^http:\/\/app\.verilead\.test\/onetool_login\?token=vlo_/);
    const token = issued.body.data.token as string;
    expect((await issueOnetoolToken(t.deps, 'nobody@samlco.test').catch((e: Error) => e.message))).toBe('No active user with this e-mail');
    const v = await t.call({ method: 'POST', url: '/api/v1/onetool/verify_token', payload: { token } });
    expect(v.body.data).toEqual({ valid: true, email: 'owner@samlco.test' });
    expect((await t.call({ method: 'GET', url: `/api/v1/sso/config?token=${token}` })).body.data.sso_enabled).toBe(true);
    const l = await t.call({ method: 'POST', url: '/api/v1/onetool/login', payload: { token } });
    expect(l.status).toBe(200);
    expect(l.body.data.user.id).toBe(samlOrg.userId);
    const again = await t.call({ method: 'POST', url: '/api/v1/onetool/login', payload: { token } });
    expect(again.status).toBe(400);
    expect((await t.call({ method: 'POST', url: '/api/v1/onetool/verify_token', payload: { token } })).body.data.valid).toBe(false);
    expect((await t.call({ method: 'POST', url: '/api/v1/onetool/login', payload: { token: 'short' } })).status).toBe(400);
  });
});
