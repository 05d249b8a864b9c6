import type { TLoginData, TRole, TSocialSsoProvider, TSsoActivateRequest, TSsoConfig, TOnetoolVerify } from '@verilead/contracts';
import { SSO_ONLY_MESSAGE } from '@verilead/contracts';
import { createSession } from '../../platform/auth/sessions';
import { generateToken, hashToken } from '../../platform/auth/tokens';
import { grantCredits } from '../../platform/credits/ledger';
import { SIGNUP_BONUS_CREDITS } from '../../platform/credits/signup-bonus';
import { getSeats, selectUserWithMembership } from '../../platform/tenancy/members';
import type { TDb } from '../../platform/db/database';
import type { TDeps } from '../../platform/deps';
import { AppError, AppErrorWithStatus } from '../../platform/errors/app-error';
import { getProfile } from '../account';
import { recordActivity } from '../activities';
import { isSsoDomainVerified } from './domain-claims';
import { decryptSsoSecret, toSsoSettings } from './sso-settings';
import type { TOidcClientSettings } from './oidc';
import {
  consumeAuthRequest,
  consumeLoginTicket,
  deleteExpiredAuthRequests,
  insertAuthRequest,
  insertLoginTicket,
  insertOrg,
  insertOrgMembership,
  insertSamlAssertion,
  insertSsoUser,
  markUserEmailVerified,
  selectLoginTicket,
  selectSsoByDomain,
  selectSsoByOrg,
  selectUserMembership,
  type TOrgSsoRow,
} from './queries';
import { getPublicBaseUrl } from '../../platform/http/public-url';

/** The OpenID Connect client (openid-client), loaded on the first sign-in that needs it, not by every server. */
const loadOidc = () => import('./oidc');
/** The SAML stack (node-saml, xml-crypto, xmldom), loaded on the first SAML sign-in or metadata request. */
const loadSaml = () => import('./saml');

const AUTH_REQUEST_TTL_MS = 10 * 60_000;
const SAML_TICKET_TTL_MS = 2 * 60_000;
export const ONETOOL_TOKEN_TTL_MS = 15 * 60_000;
const SAML_TICKET = 'saml';
const ONETOOL_TICKET = 'onetool';

type TOrgSso = {
  orgId: string;
  enabled: boolean;
  enforce: boolean;
  provider: 'saml' | 'oidc' | 'google' | 'microsoft' | null;
  domains: string[];
  issuerUrl: string | null;
  ssoUrl: string | null;
  clientId: string | null;
  clientSecretEnc: string | null;
  certificate: string | null;
  defaultRole: Exclude<TRole, 'owner'>;
};

function readOrgSso(row: TOrgSsoRow | null): TOrgSso | null {
  if (!row) return null;
  const s = toSsoSettings(row);
  return {
    orgId: row.orgId,
    enabled: s.enabled,
    enforce: s.enforce,
    provider: s.provider,
    domains: s.domains,
    issuerUrl: s.issuer_url,
    ssoUrl: s.sso_url,
    clientId: s.client_id,
    clientSecretEnc: row.clientSecretEnc,
    certificate: row.certificate,
    defaultRole: s.default_role,
  };
}

function domainOf(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}

function notConfigured(message = 'Single sign-on is not set up for this e-mail domain. Please log in with your password.'): AppError {
  return new AppError('sso_not_configured', message, { reasons: [{ field: 'email', location: 'body', messages: [message] }] });
}

function socialSettings(deps: TDeps, provider: TSocialSsoProvider): TOidcClientSettings {
  const s = deps.config.sso[provider];
  if (!s) throw new AppError('sso_not_configured', `Sign in with ${provider === 'google' ? 'Google' : 'Microsoft'} is not set up on this server`);
  return { issuer: s.issuer, clientId: s.clientId, clientSecret: s.clientSecret };
}

function orgOidcSettings(deps: TDeps, sso: TOrgSso): TOidcClientSettings {
  const secret = sso.clientSecretEnc ? decryptSsoSecret(deps.config.appSecret, sso.clientSecretEnc) : null;
  if (!sso.issuerUrl || !sso.clientId || !secret) throw notConfigured('Single sign-on for your organisation is incomplete. Please ask your administrator.');
  return { issuer: sso.issuerUrl, clientId: sso.clientId, clientSecret: secret };
}

/** Where every OpenID Connect provider sends the browser back: the app's sign-in screen. */
function redirectUriOf(deps: TDeps): string {
  return `${getPublicBaseUrl(deps.config)}/sso/signin`;
}

function socialProviders(deps: TDeps): TSocialSsoProvider[] {
  return (['google', 'microsoft'] as const).filter((p) => deps.config.sso[p] !== null);
}

// ---------- discovery ----------

/** GET /sso/config: does this e-mail's domain (or this one-tool token's user) sign in through SSO? */
export async function getSsoConfig(deps: TDeps, input: { email?: string; token?: string }): Promise<TSsoConfig> {
  let email = input.email;
  if (!email && input.token) email = (await selectLoginTicket(deps.database.db, hashToken(input.token), ONETOOL_TICKET))?.email;
  const sso = email ? readOrgSso(await selectSsoByDomain(deps.database.db, domainOf(email))) : null;
  return {
    sso_enabled: !!sso?.enabled,
    sso_only: !!sso?.enabled && sso.enforce,
    protocol: sso?.enabled ? sso.provider : null,
    social_providers: socialProviders(deps),
  };
}

/** Refuses a password login for members of an "SSO only" organisation (the owner keeps a way in). */
export async function assertPasswordLoginAllowed(exec: TDb, member: { orgId: string; role: string }): Promise<void> {
  if (member.role === 'owner') return;
  const sso = readOrgSso(await selectSsoByOrg(exec, member.orgId));
  if (sso?.enabled && sso.enforce) throw new AppError('sso_required', SSO_ONLY_MESSAGE, { additional_info: { sso_signin_path: '/sso/signin' } });
}

// ---------- start ----------

async function startOidc(deps: TDeps, f: { provider: string; orgId: string | null; settings: TOidcClientSettings; email?: string }): Promise<string> {
  const { buildOidcStart, discoverOidc } = await loadOidc();
  const config = await discoverOidc(f.settings, deps.config);
  const redirectUri = redirectUriOf(deps);
  const start = await buildOidcStart(config, redirectUri, f.email);
  await deleteExpiredAuthRequests(deps.database.db);
  await insertAuthRequest(deps.database.db, {
    stateHash: hashToken(start.state),
    provider: f.provider,
    orgId: f.orgId,
    nonce: start.nonce,
    codeVerifier: start.codeVerifier,
    redirectUri,
    expiresAt: new Date(Date.now() + AUTH_REQUEST_TTL_MS),
  });
  return start.url;
}

/** POST /sso/google, /sso/microsoft. */
export async function startSocialSignin(deps: TDeps, provider: TSocialSsoProvider, email?: string): Promise<{ redirect_url: string }> {
  return { redirect_url: await startOidc(deps, { provider, orgId: null, settings: socialSettings(deps, provider), email }) };
}

/** POST /sso/signin: the organisation's own identity provider, found by the e-mail's domain. */
export async function startOrgSignin(deps: TDeps, email: string): Promise<{ redirect_url: string }> {
  const sso = readOrgSso(await selectSsoByDomain(deps.database.db, domainOf(email)));
  if (!sso?.enabled || !sso.provider) throw notConfigured();
  if (sso.provider === 'google' || sso.provider === 'microsoft') return startSocialSignin(deps, sso.provider, email);
  if (sso.provider === 'oidc') {
    return { redirect_url: await startOidc(deps, { provider: 'oidc', orgId: sso.orgId, settings: orgOidcSettings(deps, sso), email }) };
  }
  if (!sso.ssoUrl || !sso.certificate) throw notConfigured('Single sign-on for your organisation is incomplete. Please ask your administrator.');
  const { createSaml, getSamlSpUrls } = await loadSaml();
  const saml = createSaml(deps.database.db, { urls: getSamlSpUrls(getPublicBaseUrl(deps.config), sso.orgId), ssoUrl: sso.ssoUrl, certificate: sso.certificate });
  return { redirect_url: await saml.getAuthorizeUrlAsync('', undefined, {}) };
}

// ---------- finish ----------

type TVia = { kind: 'org'; sso: TOrgSso } | { kind: 'social'; provider: TSocialSsoProvider };

/** The account of a user the identity provider vouched for, created or joined just in time as the rules allow. */
async function resolveVerifiedUser(deps: TDeps, identity: { email: string; name: string | null }, via: TVia): Promise<{ userId: string; orgId: string }> {
  const { email } = identity;
  return deps.database.transaction(async (tx) => {
    const existing = await selectUserWithMembership(tx, email);
    let userId: string;
    let orgId: string;
    if (existing && !existing.user.deletedAt) {
      const m = existing.membership;
      if (!m || m.status !== 'active') throw new AppError('account_inactive', 'Your account is not active. Please contact the owner of your organisation.');
      if (via.kind === 'org' && m.orgId !== via.sso.orgId) {
        throw new AppErrorWithStatus(403, 'sso_failed', 'This e-mail belongs to an account of another organisation. Please log in with your password.');
      }
      if (via.kind === 'social' && m.role !== 'owner') {
        const own = readOrgSso(await selectSsoByOrg(tx, m.orgId));
        if (own?.enabled && own.enforce && own.provider !== via.provider) throw new AppError('sso_required', SSO_ONLY_MESSAGE);
      }
      await markUserEmailVerified(tx, existing.user.id);
      userId = existing.user.id;
      orgId = m.orgId;
    } else if (existing) {
      throw new AppError('account_inactive', 'Your account is not active. Please contact the owner of your organisation.');
    } else {
      // Just in time: the organisation whose SSO claims the domain, or (social sign-in) a new organisation.
      const claimed = via.kind === 'org' ? via.sso : readOrgSso(await selectSsoByDomain(tx, domainOf(email)));
      const joins = claimed && claimed.enabled && (via.kind === 'org' || claimed.provider === via.provider) ? claimed : null;
      // Only a domain the organisation proved (a verified claim) brings new members in.
      if (via.kind === 'org' && !(await isSsoDomainVerified(tx, via.sso.orgId, domainOf(email)))) {
        throw new AppErrorWithStatus(403, 'sso_failed', 'Your e-mail domain is not one your organisation signs in with. Please ask your administrator.');
      }
      const name = identity.name ?? email.slice(0, email.indexOf('@'));
      const user = await insertSsoUser(tx, { email, name, signupSource: via.kind === 'org' ? 'sso' : via.provider });
      if (joins) {
        const seats = await getSeats(tx, joins.orgId);
        if (seats.available <= 0) throw new AppError('conflict', 'Your organisation has no free seat for you. Please ask your administrator.');
        await insertOrgMembership(tx, { orgId: joins.orgId, userId: user.id, role: joins.defaultRole });
        await recordActivity(tx, { orgId: joins.orgId, userId: user.id, type: 'signup', description: 'Joined through single sign-on' });
        orgId = joins.orgId;
      } else {
        const org = await insertOrg(tx, `${name}'s organisation`);
        await insertOrgMembership(tx, { orgId: org.id, userId: user.id, role: 'owner' });
        await grantCredits(tx, { orgId: org.id, userId: user.id, amount: SIGNUP_BONUS_CREDITS, reason: 'Sign-up bonus' });
        await recordActivity(tx, { orgId: org.id, userId: user.id, type: 'signup', description: `Signed up with ${via.kind === 'social' ? via.provider : 'SSO'}` });
        orgId = org.id;
      }
      userId = user.id;
    }
    return { userId, orgId };
  });
}

/** Opens a session (the login activity records how). */
async function openSsoSession(deps: TDeps, who: { userId: string; orgId: string }, via: string): Promise<TLoginData> {
  const token = await deps.database.transaction(async (tx) => {
    const session = await createSession(tx, who.userId);
    await recordActivity(tx, { ...who, type: 'login', description: 'Logged in with single sign-on', metadata: { via } });
    return session.token;
  });
  return { token, user: await getProfile(deps.database.db, who) };
}

function providerError(input: TSsoActivateRequest): AppError {
  const message = input.error === 'access_denied' ? 'The sign-in was cancelled.' : 'The identity provider refused the sign-in. Please try again.';
  return new AppError('sso_failed', message);
}

/** POST /sso/activate (organisation SSO: OIDC code or SAML ticket) and /sso/{provider}/activate (social). */
export async function finishSignin(deps: TDeps, expected: 'org' | TSocialSsoProvider, input: TSsoActivateRequest): Promise<TLoginData> {
  if (input.ticket) {
    if (expected !== 'org') throw new AppError('sso_failed', 'This sign-in link is not for this provider. Please start again.');
    return finishSamlTicket(deps, input.ticket);
  }
  if (input.error) throw providerError(input);
  const startAgain = new AppError('sso_failed', 'This sign-in has expired or was already used. Please start again.');
  if (!input.state || !input.code) throw startAgain;
  const request = await consumeAuthRequest(deps.database.db, hashToken(input.state));
  if (!request) throw startAgain;
  const isOrg = request.provider === 'oidc';
  if ((expected === 'org') !== isOrg || (!isOrg && request.provider !== expected)) throw new AppError('sso_failed', 'This sign-in was started with another provider. Please start again.');
  let settings: TOidcClientSettings;
  let sso: TOrgSso | null = null;
  if (isOrg) {
    sso = readOrgSso(request.orgId ? await selectSsoByOrg(deps.database.db, request.orgId) : null);
    if (!sso?.enabled || sso.provider !== 'oidc') throw notConfigured('Single sign-on was turned off for your organisation.');
    settings = orgOidcSettings(deps, sso);
  } else settings = socialSettings(deps, request.provider as TSocialSsoProvider);
  const { discoverOidc, finishOidc } = await loadOidc();
  const config = await discoverOidc(settings, deps.config);
  const identity = await finishOidc(config, {
    redirectUri: request.redirectUri,
    params: { code: input.code, state: input.state, iss: input.iss },
    state: input.state,
    nonce: request.nonce,
    codeVerifier: request.codeVerifier,
  });
  if (!isOrg && !identity.emailVerified) throw new AppErrorWithStatus(403, 'sso_failed', 'Your provider has not verified this e-mail address, so we cannot sign you in with it.');
  const via: TVia = sso ? { kind: 'org', sso } : { kind: 'social', provider: request.provider as TSocialSsoProvider };
  return openSsoSession(deps, await resolveVerifiedUser(deps, identity, via), request.provider);
}

/** The app hands in the single-use ticket the SAML assertion consumer gave the browser. */
async function finishSamlTicket(deps: TDeps, ticket: string): Promise<TLoginData> {
  const row = await consumeLoginTicket(deps.database.db, hashToken(ticket), SAML_TICKET);
  if (!row) throw new AppError('sso_failed', 'This sign-in has expired or was already used. Please start again.');
  const m = await selectUserMembership(deps.database.db, row.userId);
  if (!m || m.status !== 'active') throw new AppError('account_inactive', 'Your account is not active. Please contact the owner of your organisation.');
  return openSsoSession(deps, { userId: row.userId, orgId: m.orgId }, 'saml');
}

// ---------- SAML ----------

/** The SP metadata an administrator gives their identity provider. */
export async function getSamlMetadata(deps: TDeps, orgId: string): Promise<string> {
  const sso = readOrgSso(await selectSsoByOrg(deps.database.db, orgId));
  if (!sso) throw new AppError('not_found', 'Single sign-on is not set up for this organisation');
  const { createSaml, getSamlSpUrls } = await loadSaml();
  const saml = createSaml(deps.database.db, { urls: getSamlSpUrls(getPublicBaseUrl(deps.config), orgId), ssoUrl: sso.ssoUrl ?? 'https://invalid.example/', certificate: sso.certificate ?? 'none' });
  return saml.generateServiceProviderMetadata(null);
}

/**
 * The assertion consumer: validates the POSTed response (signature, audience, InResponseTo, replay) and
 * answers where to send the browser: the sign-in screen with a one-time ticket, or with the reason.
 */
export async function consumeSamlResponse(deps: TDeps, orgId: string, samlResponse: string | undefined): Promise<string> {
  const back = (q: Record<string, string>) => `${getPublicBaseUrl(deps.config)}/sso/signin?${new URLSearchParams(q).toString()}`;
  // No SAML here: nothing a browser could have been sent to (404, not a redirect).
  const sso = readOrgSso(await selectSsoByOrg(deps.database.db, orgId));
  if (!sso?.enabled || sso.provider !== 'saml' || !sso.ssoUrl || !sso.certificate) throw new AppError('not_found', 'Single sign-on is not set up for this organisation');
  try {
    if (!samlResponse) throw new AppError('sso_failed', 'The identity provider sent no sign-in answer.');
    const { createSaml, getSamlSpUrls, validateSamlResponse } = await loadSaml();
    const urls = getSamlSpUrls(getPublicBaseUrl(deps.config), orgId);
    const saml = createSaml(deps.database.db, { urls, ssoUrl: sso.ssoUrl, certificate: sso.certificate });
    const identity = await validateSamlResponse(saml, samlResponse, urls.acsUrl);
    if (!(await insertSamlAssertion(deps.database.db, orgId, identity.assertionId, identity.notOnOrAfter))) {
      throw new AppError('sso_failed', 'This sign-in answer was already used. Please start again.');
    }
    const who = await resolveVerifiedUser(deps, identity, { kind: 'org', sso });
    // The session token never travels in a URL: the app exchanges a short single-use ticket for it.
    const ticket = generateToken('vlt', 24);
    await insertLoginTicket(deps.database.db, { tokenHash: ticket.hash, kind: SAML_TICKET, userId: who.userId, expiresAt: new Date(Date.now() + SAML_TICKET_TTL_MS) });
    return back({ ticket: ticket.token });
  } catch (err) {
    if (err instanceof AppError) return back({ sso_error: err.message });
    throw err;
  }
}

// ---------- one-tool token login ----------

/** A single-use link that logs the user straight in (for the companion tools; `npm run ops -- onetool-token`). */
export async function issueOnetoolToken(deps: Pick<TDeps, 'database' | 'config'>, email: string): Promise<{ token: string; url: string }> {
  const found = await selectUserWithMembership(deps.database.db, email.trim().toLowerCase());
  if (!found || found.user.deletedAt || found.membership?.status !== 'active') throw new AppError('not_found', 'No active user with this e-mail');
  const t = generateToken('vlo', 24);
  await insertLoginTicket(deps.database.db, { tokenHash: t.hash, kind: ONETOOL_TICKET, userId: found.user.id, expiresAt: new Date(Date.now() + ONETOOL_TOKEN_TTL_MS) });
  return { token: t.token, url: `${getPublicBaseUrl(deps.config)}/onetool_login?token=${encodeURIComponent(t.token)}` };
}

/** POST /onetool/verify_token: usable or not, without using it. */
export async function verifyOnetoolToken(deps: TDeps, token: string): Promise<TOnetoolVerify> {
  const row = await selectLoginTicket(deps.database.db, hashToken(token), ONETOOL_TICKET);
  return { valid: !!row, email: row?.email ?? null };
}

/** POST /onetool/login: uses the token once and opens a session (SSO-only organisations still apply). */
export async function loginWithOnetoolToken(deps: TDeps, token: string): Promise<TLoginData> {
  const invalid = new AppError('invalid_token', 'This link is invalid or has expired', { reasons: [{ field: 'token', location: 'body', messages: ['Invalid or expired token'] }] });
  const row = await consumeLoginTicket(deps.database.db, hashToken(token), ONETOOL_TICKET);
  if (!row) throw invalid;
  const m = await selectUserMembership(deps.database.db, row.userId);
  if (!m || m.status !== 'active') throw new AppError('account_inactive', 'Your account is not active. Please contact the owner of your organisation.');
  await assertPasswordLoginAllowed(deps.database.db, m);
  return openSsoSession(deps, { userId: row.userId, orgId: m.orgId }, 'onetool');
}
