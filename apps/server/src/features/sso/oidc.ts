import * as client from 'openid-client';
import type { TConfig } from '../../config';
import { AppError } from '../../platform/errors/app-error';
import { createOutboundClient, findRefusal, outboundPolicyOf, type TOutboundConfig } from '../../platform/outbound-http/client';
import type { TOutboundPolicy } from '../../platform/outbound-http/guard';

export type TOidcClientSettings = { issuer: string; clientId: string; clientSecret: string };
export type TOidcIdentity = { email: string; emailVerified: boolean; name: string | null; subject: string };

/** Plain http is allowed only for an identity provider on this machine (tests and demos). */
export function isLoopbackHttp(url: string): boolean {
  return /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?(\/|$)/.test(url);
}

const DISCOVERY_TTL_MS = 10 * 60_000;
const discovered = new Map<string, { at: number; config: Promise<client.Configuration> }>();

function failed(message: string): AppError {
  return new AppError('sso_failed', message);
}

/** What the OpenID Connect requests need of the configuration: the outbound policy and the operator's issuers. */
export type TOidcConfig = TOutboundConfig & Pick<TConfig, 'sso'>;

const bareUrl = (u: string) => u.replace(/\/+$/, '');

/**
 * The outbound policy of one provider. An issuer the operator configured (Sign in with Google / Microsoft; the demo
 * IdP of `--demo-idp` stands in for them) may live on this machine; any other issuer, and every endpoint its
 * discovery document names, is held to the guard: no private, loopback or link-local address unless
 * ALLOW_PRIVATE_DESTINATIONS.
 */
export function oidcPolicyOf(config: TOidcConfig, issuer: string): TOutboundPolicy {
  const operatorIssuers = [config.sso.google?.issuer, config.sso.microsoft?.issuer].filter((i): i is string => Boolean(i)).map(bareUrl);
  return outboundPolicyOf(config, { allowPrivate: operatorIssuers.includes(bareUrl(issuer)) });
}

/** openid-client's requests (discovery, token, userinfo, JWKS) through the guarded outbound client. */
function guardedFetch(policy: TOutboundPolicy): client.CustomFetch {
  const outbound = createOutboundClient(policy);
  return (url, options) => outbound.fetch(url, { method: options.method, headers: options.headers, body: options.body ?? null, signal: options.signal ?? null });
}

/**
 * The provider's configuration from its discovery document (cached for ten minutes per client). Discovery and every
 * later request of this configuration go through the outbound guard (resolved once per connection, checked, pinned;
 * redirects not followed).
 */
export async function discoverOidc(s: TOidcClientSettings, config: TOidcConfig): Promise<client.Configuration> {
  const policy = oidcPolicyOf(config, s.issuer);
  const key = `${s.issuer}\n${s.clientId}\n${s.clientSecret}\n${policy.allowPrivate}`;
  const hit = discovered.get(key);
  if (hit && Date.now() - hit.at < DISCOVERY_TTL_MS) return hit.config;
  let issuer: URL;
  try {
    issuer = new URL(s.issuer);
  } catch {
    throw failed('The identity provider address is not a valid URL');
  }
  const insecure = isLoopbackHttp(s.issuer);
  if (issuer.protocol !== 'https:' && !insecure) throw failed('The identity provider address must start with https://');
  const discovery = client.discovery(issuer, s.clientId, undefined, client.ClientSecretPost(s.clientSecret), {
    ...(insecure ? { execute: [client.allowInsecureRequests] } : {}),
    [client.customFetch]: guardedFetch(policy),
    timeout: 10,
  });
  discovered.set(key, { at: Date.now(), config: discovery });
  try {
    return await discovery;
  } catch (err) {
    discovered.delete(key);
    const refusal = findRefusal(err);
    if (refusal) throw failed(`The identity provider's address is refused: ${refusal.message}`);
    throw failed('The identity provider could not be reached. Please try again later or ask your administrator.');
  }
}

export type TOidcStart = { url: string; state: string; nonce: string; codeVerifier: string };

/** Authorization code flow with PKCE (S256), state and nonce. */
export async function buildOidcStart(config: client.Configuration, redirectUri: string, loginHint?: string): Promise<TOidcStart> {
  const codeVerifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const params: Record<string, string> = {
    redirect_uri: redirectUri,
    scope: 'openid email profile',
    response_type: 'code',
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  };
  if (loginHint) params.login_hint = loginHint;
  return { url: client.buildAuthorizationUrl(config, params).href, state, nonce, codeVerifier };
}

/** Exchanges the code (checking state, nonce, PKCE and the ID token) and answers who signed in. */
export async function finishOidc(
  config: client.Configuration,
  f: { redirectUri: string; params: Record<string, string | undefined>; state: string; nonce: string; codeVerifier: string },
): Promise<TOidcIdentity> {
  const current = new URL(f.redirectUri);
  for (const [k, v] of Object.entries(f.params)) if (v !== undefined) current.searchParams.set(k, v);
  let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
  try {
    tokens = await client.authorizationCodeGrant(config, current, {
      pkceCodeVerifier: f.codeVerifier,
      expectedState: f.state,
      expectedNonce: f.nonce,
      idTokenExpected: true,
    });
  } catch (err) {
    const refusal = findRefusal(err);
    if (refusal) throw failed(`The identity provider's token endpoint is refused: ${refusal.message}`);
    throw failed('The identity provider did not confirm the sign-in. Please try again.');
  }
  const claims = tokens.claims();
  if (!claims) throw failed('The identity provider did not send an ID token');
  let info: Record<string, unknown> = { ...claims };
  if (typeof info.email !== 'string') {
    try {
      info = { ...info, ...(await client.fetchUserInfo(config, tokens.access_token, claims.sub)) };
    } catch {
      /* the ID token is all we have */
    }
  }
  const email = typeof info.email === 'string' ? info.email.trim().toLowerCase() : '';
  if (!email) throw failed('The identity provider did not share your e-mail address');
  return {
    email,
    emailVerified: info.email_verified === true || info.email_verified === 'true',
    name: typeof info.name === 'string' && info.name.trim() ? info.name.trim().slice(0, 200) : null,
    subject: claims.sub,
  };
}
