import * as client from 'openid-client';
import { AppError } from '../../platform/errors/app-error';

export type TOidcClientSettings = { issuer: string; clientId: string; clientSecret: string };
export type TOidcIdentity = { email: string; emailVerified: boolean; name: string | null; subject: string };

/** Plain http is allowed only for an identity provider on this machine (tests and demos). */
export function isLoopbackHttp(url: string): boolean {
  return /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?(\/|$)/.test(url);
}

const DISCOVERY_TTL_MS = 10 * 60_000;
const discovered = new Map<string, { at: number; config: Promise<client.Configuration> }>();

function failed(message: string): AppError {
  return new AppError(400, 'sso_failed', message);
}

/** The provider's configuration from its discovery document (cached for ten minutes per client). */
export async function discoverOidc(s: TOidcClientSettings): Promise<client.Configuration> {
  const key = `${s.issuer}\n${s.clientId}\n${s.clientSecret}`;
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
  const config = client.discovery(issuer, s.clientId, undefined, client.ClientSecretPost(s.clientSecret), {
    ...(insecure ? { execute: [client.allowInsecureRequests] } : {}),
    timeout: 10,
  });
  discovered.set(key, { at: Date.now(), config });
  try {
    return await config;
  } catch {
    discovered.delete(key);
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
  } catch {
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
