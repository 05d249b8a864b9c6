import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZSsoDomainClaimResponse, ZSsoSettingsResponse, type TSsoDomainClaim } from '@verilead/contracts';
import { SERVER_ROOT } from '../../config';
import { selectRows } from '../../platform/db/database';
import { orgSsoSettings } from './tables';
import { createTestApp, type TTestApp } from '../../test/test-app';
import { followLocalOidcLogin, startChallengeDns, startLocalOidcIdp, type TChallengeDns, type TLocalOidcIdp } from '@verilead/test-doubles/identity';

const APP = 'http://app.verilead.test';
const CALLBACK = `${APP}/sso/signin`;
type TOwner = { token: string; userId: string; orgId: string };

describe('single sign-on domains: proved by a DNS TXT record before they count', () => {
  let t: TTestApp;
  let oidc: TLocalOidcIdp;
  let dns: TChallengeDns;
  let owner: TOwner;
  let rival: TOwner;

  beforeAll(async () => {
    oidc = await startLocalOidcIdp({
      clients: [
        { clientId: 'org-client', clientSecret: 'org-secret', redirectUris: [CALLBACK] },
        { clientId: 'google-client', clientSecret: 'google-secret', redirectUris: [CALLBACK] },
      ],
    });
    dns = await startChallengeDns();
    t = await createTestApp({ dnsServers: dns.dnsServers, sso: { google: { issuer: oidc.issuer, clientId: 'google-client', clientSecret: 'google-secret' }, microsoft: null } });
    owner = await t.createOwner('owner@owner-co.test');
    rival = await t.createOwner('owner@rival-co.test');
  });
  afterAll(async () => {
    await t.close();
    await oidc.stop();
    await dns.stop();
  });

  function saveSso(who: TOwner, domains: string[], extra: Record<string, unknown> = {}) {
    return t.call({
      method: 'POST',
      url: '/api/v1/user_preferences/sso',
      token: who.token,
      payload: { enabled: true, provider: 'oidc', domains, issuer_url: oidc.issuer, client_id: 'org-client', client_secret: 'org-secret', default_role: 'admin', ...extra },
    });
  }
  async function claimOf(who: TOwner, domain: string): Promise<TSsoDomainClaim> {
    const res = await t.call({ method: 'GET', url: '/api/v1/user_preferences/sso', token: who.token });
    const claim = ZSsoSettingsResponse.parse(res.body).data.domain_claims.find((c) => c.domain === domain);
    if (!claim) throw new Error(`no claim of ${domain}`);
    return claim;
  }
  function verify(who: TOwner, domain: string) {
    return t.call({ method: 'POST', url: '/api/v1/user_preferences/sso/domains/verify', token: who.token, payload: { domain } });
  }
  async function discover(email: string): Promise<boolean> {
    return (await t.call({ method: 'GET', url: `/api/v1/sso/config?email=${encodeURIComponent(email)}` })).body.data.sso_enabled as boolean;
  }
  /** Signs `email` in at the local IdP after starting the organisation's SSO as `startAs`; answers the activation. */
  async function orgSignIn(startAs: string, email: string) {
    const start = await t.call({ method: 'POST', url: '/api/v1/sso/signin', payload: { email: startAs } });
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    const back = await followLocalOidcLogin(start.body.data.redirect_url, email, APP);
    return t.call({ method: 'POST', url: '/api/v1/sso/activate', payload: Object.fromEntries(back.searchParams) });
  }
  async function userCount(email: string): Promise<number> {
    const rows = await selectRows<{ n: number }>(t.db.db, sql`select count(*)::int as n from users where email = ${email}`);
    return rows[0]!.n;
  }

  it('refuses free-mail, disposable and public-suffix domains with a clear 400 on the domains field', async () => {
    for (const [domain, words] of [
      ['gmail.com', /gmail\.com is a free or disposable e-mail provider/],
      ['outlook.com', /free or disposable/],
      ['yahoo.com', /free or disposable/],
      ['mail.gmail.com', /free or disposable/],
      ['mailinator.com', /free or disposable/],
      ['co.uk', /co\.uk is a public suffix/],
      ['github.io', /github\.io is a public suffix/],
      ['127.0.0.1', /IP address/],
    ] as const) {
      const res = await saveSso(owner, ['owner-co.test', domain]);
      expect(res.status, domain).toBe(400);
      expect(res.body.error.message).toMatch(words);
      expect(res.body.error.reasons[0].field).toBe('domains');
    }
    expect((await t.call({ method: 'GET', url: '/api/v1/user_preferences/sso', token: owner.token })).body.data.domains).toEqual([]);
  });

  it('a claimed domain is pending: no discovery, no sign-in start, and the TXT record to publish', async () => {
    const res = await saveSso(owner, ['owner-co.test']);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const claim = ZSsoSettingsResponse.parse(res.body).data.domain_claims;
    expect(claim).toEqual([
      {
        domain: 'owner-co.test',
        status: 'pending',
        txt_name: '_verilead-challenge.owner-co.test',
        txt_value: expect.stringMatching(/^verilead-domain-verification=[0-9a-f]{32}$/),
        verified_at: null,
        checked_at: null,
        failure: null,
      },
    ]);
    expect(await discover('someone@owner-co.test')).toBe(false);
    const start = await t.call({ method: 'POST', url: '/api/v1/sso/signin', payload: { email: 'someone@owner-co.test' } });
    expect(start.status).toBe(404);
    expect(start.body.error.code).toBe('sso_not_configured');
  });

  it('verifying without the record keeps it pending with the reason; a wrong token says so', async () => {
    const missing = ZSsoDomainClaimResponse.parse((await verify(owner, 'owner-co.test')).body).data;
    expect(missing).toMatchObject({ status: 'pending', verified_at: null, failure: 'No TXT record found for _verilead-challenge.owner-co.test.' });
    expect(missing.checked_at).not.toBeNull();
    dns.publishTxt('_verilead-challenge.owner-co.test', ['verilead-domain-verification=0123456789abcdef0123456789abcdef']);
    const wrong = ZSsoDomainClaimResponse.parse((await verify(owner, 'owner-co.test')).body).data;
    expect(wrong.status).toBe('pending');
    expect(wrong.failure).toBe(`The TXT record at _verilead-challenge.owner-co.test holds verilead-domain-verification=0123456789abcdef0123456789abcdef, not this organisation's value ${wrong.txt_value}.`);
    // The stored state is what the screen shows after a reload.
    expect((await claimOf(owner, 'owner-co.test')).failure).toBe(wrong.failure);
    expect(await discover('someone@owner-co.test')).toBe(false);
  });

  it("the IdP of an organisation cannot bring in addresses of a domain it has not proved (no member, no user created)", async () => {
    // owner-co.test proved, victim.test only claimed: the org's IdP asserts an address at victim.test.
    const saved = await saveSso(owner, ['owner-co.test', 'victim.test']);
    expect(saved.status).toBe(200);
    const ours = await claimOf(owner, 'owner-co.test');
    dns.publishTxt(ours.txt_name, [ours.txt_value]);
    expect((await verify(owner, 'owner-co.test')).body.data.status).toBe('verified');
    expect(await discover('boss@victim.test')).toBe(false);
    const res = await orgSignIn('someone@owner-co.test', 'boss@victim.test');
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'sso_failed', message: 'Your e-mail domain is not one your organisation signs in with. Please ask your administrator.' });
    expect(await userCount('boss@victim.test')).toBe(0);
  });

  it('signing in with Google at a domain an organisation only claimed makes an organisation of its own, not a member', async () => {
    expect((await saveSso(rival, ['rival-co.test', 'pending-social.test'], { provider: 'google' })).status).toBe(200);
    const start = await t.call({ method: 'POST', url: '/api/v1/sso/google', payload: {} });
    const back = await followLocalOidcLogin(start.body.data.redirect_url, 'new.person@pending-social.test', APP);
    const res = await t.call({ method: 'POST', url: '/api/v1/sso/google/activate', payload: Object.fromEntries(back.searchParams) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.user.org_id).not.toBe(rival.orgId);
    expect(res.body.data.user.user_role).toBe('owner');
    expect((await saveSso(rival, ['rival-co.test'])).status).toBe(200);
  });

  it('after the TXT record is published and verified, discovery and just-in-time membership work', async () => {
    expect((await claimOf(owner, 'owner-co.test')).status).toBe('verified');
    expect(await discover('Someone@Owner-Co.test')).toBe(true);
    const res = await orgSignIn('new.member@owner-co.test', 'new.member@owner-co.test');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.user).toMatchObject({ email: 'new.member@owner-co.test', org_id: owner.orgId, user_role: 'admin' });
    // Verified stays verified (with its date), and verifying again is harmless.
    const again = ZSsoDomainClaimResponse.parse((await verify(owner, 'owner-co.test')).body).data;
    expect(again).toMatchObject({ status: 'verified', failure: null });
    expect(Date.parse(again.verified_at ?? '')).toBeGreaterThan(Date.now() - 60_000);
  });

  it('another organisation cannot take a verified domain: refused on claim, and its earlier pending claim cannot verify', async () => {
    const claim = await saveSso(rival, ['rival-co.test', 'owner-co.test']);
    expect(claim.status).toBe(409);
    expect(claim.body.error.message).toBe('owner-co.test is already verified for single sign-on by another organisation');
    expect(claim.body.error.reasons[0].field).toBe('domains');
    // Both claim contested.test; the owner proves it first; the rival's pending claim, even with its record published, cannot.
    expect((await saveSso(rival, ['rival-co.test', 'contested.test'])).status).toBe(200);
    expect((await saveSso(owner, ['owner-co.test', 'contested.test'])).status).toBe(200);
    const mine = await claimOf(owner, 'contested.test');
    const theirs = await claimOf(rival, 'contested.test');
    expect(theirs.txt_value).not.toBe(mine.txt_value);
    dns.publishTxt(mine.txt_name, [mine.txt_value, theirs.txt_value]);
    expect((await verify(owner, 'contested.test')).body.data.status).toBe('verified');
    const lost = await verify(rival, 'contested.test');
    expect(lost.status).toBe(409);
    expect(lost.body.error.message).toBe('contested.test is already verified for single sign-on by another organisation');
    expect((await claimOf(rival, 'contested.test'))).toMatchObject({ status: 'pending', failure: lost.body.error.message });
    const start = await t.call({ method: 'POST', url: '/api/v1/sso/signin', payload: { email: 'x@contested.test' } });
    expect(start.status).toBe(200);
    const res = await orgSignIn('x@contested.test', 'x@contested.test');
    expect(res.body.data.user.org_id).toBe(owner.orgId);
  });

  it('two organisations verifying the same domain at once: exactly one gets it, the other a 409', async () => {
    expect((await saveSso(owner, ['owner-co.test', 'race.test'])).status).toBe(200);
    expect((await saveSso(rival, ['rival-co.test', 'race.test'])).status).toBe(200);
    const a = await claimOf(owner, 'race.test');
    const b = await claimOf(rival, 'race.test');
    dns.publishTxt(a.txt_name, [a.txt_value, b.txt_value]);
    const answers = await Promise.all([verify(owner, 'race.test'), verify(rival, 'race.test')]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    const winner = answers[0]!.status === 200 ? owner : rival;
    expect(answers.find((r) => r.status === 200)!.body.data.status).toBe('verified');
    const start = await orgSignIn('someone@race.test', 'someone@race.test');
    expect(start.body.data.user.org_id).toBe(winner.orgId);
  });

  it('migration 0034 keeps the domains claimed before it as pending, each organisation with its token', async () => {
    const legacy = await t.createOwner('owner@legacy-co.test');
    const config = { enabled: true, enforce: false, provider: 'oidc', domains: ['legacy-co.test', 'Legacy-Two.test'], issuer_url: oidc.issuer, client_id: 'org-client', default_role: 'admin' };
    await t.db.db.insert(orgSsoSettings).values({ orgId: legacy.orgId, config, clientSecretEnc: null, updatedAt: new Date() });
    const migration = readFileSync(join(SERVER_ROOT, 'migrations', '0034_sso_domain_verification.sql'), 'utf8');
    for (const statement of migration.split('--> statement-breakpoint').filter((st) => /^\s*INSERT/m.test(st))) await t.db.db.execute(sql.raw(statement));
    const claims = ZSsoSettingsResponse.parse((await t.call({ method: 'GET', url: '/api/v1/user_preferences/sso', token: legacy.token })).body).data.domain_claims;
    expect(claims.map((c) => [c.domain, c.status, c.verified_at])).toEqual([
      ['legacy-co.test', 'pending', null],
      ['legacy-two.test', 'pending', null],
    ]);
    expect(claims[0]!.txt_value).toMatch(/^verilead-domain-verification=[0-9a-f]{32}$/);
    expect(await discover('someone@legacy-co.test')).toBe(false);
    // A free-mail domain claimed before the rules stays pending and cannot be verified.
    await t.db.db.execute(sql`insert into sso_domains (org_id, domain) values (${legacy.orgId}, 'gmail.com')`);
    dns.publishTxt('_verilead-challenge.gmail.com', [claims[0]!.txt_value]);
    const gmail = await verify(legacy, 'gmail.com');
    expect(gmail.status).toBe(400);
    expect(gmail.body.error.message).toMatch(/^gmail\.com is a free or disposable e-mail provider/);
    expect(await discover('someone@gmail.com')).toBe(false);
    // Already-proved claims of other organisations are left as they were.
    expect((await claimOf(owner, 'owner-co.test')).status).toBe('verified');
  });

  it('verify: 404 for a domain not claimed (or another organisation’s), 400 for a bad domain, 403 for an Executive', async () => {
    const notOurs = await verify(rival, 'owner-co.test');
    expect(notOurs.status).toBe(404);
    expect(notOurs.body.error.message).toBe("owner-co.test is not one of your organisation's single sign-on domains. Add it and save first.");
    const bad = await verify(owner, 'not a domain');
    expect(bad.status).toBe(400);
    expect(bad.body.error.reasons[0].field).toBe('domain');
    const add = await t.call({ method: 'POST', url: '/api/v1/admin/member/add', token: owner.token, payload: { email: 'exec@owner-co.test', role: 'analyst', name: 'Exec' } });
    expect(add.status, JSON.stringify(add.body)).toBe(200);
    const setup = await t.mailedToken('exec@owner-co.test', '/setup_password');
    expect((await t.call({ method: 'POST', url: '/api/v1/user/password/setup', payload: { token: setup, password: 'Correct-Horse-1' } })).status).toBe(200);
    const login = await t.call({ method: 'POST', url: '/api/v1/user/login', payload: { email: 'exec@owner-co.test', password: 'Correct-Horse-1' } });
    const executive = await verify({ ...owner, token: login.body.data.token }, 'owner-co.test');
    expect(executive.status).toBe(403);
  });
});
