import { outboundPolicyOf } from '../../../platform/outbound-http/client';
import { INTEGRATION_CATALOG, ZOAuthQuery, type TOAuthQuery, type TOAuthResult } from '@verilead/contracts';
import type { TDeps } from '../../../platform/deps';
import { throwFieldError } from '../../../platform/errors/app-error';
import type { TCallerContext } from '../../../platform/tenancy/context';
import { requireFreeName, saveVerifiedAccount, toAppError, type TIntegrationRuntime } from '../service';
import { exchangeMailchimpCode, exchangeZohoCode, mailchimpAuthorizeUrl, zohoAuthorizeUrl, type TExchanged } from './exchange';
import { mailchimpOAuthOf, oauthRedirectUri, ZOHO_LOCATIONS, zohoOAuthOf } from './providers';
import { consumeOAuthState, createOAuthState } from './state';

export type TOAuthPlatform = 'mailchimp' | 'zoho';

/**
 * GET /oauth/{platform}. Without `code`: records a pending connection (name, Zoho data centre) and answers the
 * platform's consent URL with a signed, single-use `state`. With `code` and `state` (the platform sent the browser
 * back): takes the state back, exchanges the code for a token, checks the account and stores it encrypted.
 */
export async function handleOAuth(deps: Pick<TDeps, 'database' | 'queue'>, rt: TIntegrationRuntime, ctx: TCallerContext, platform: TOAuthPlatform, input: TOAuthQuery): Promise<TOAuthResult> {
  const q = ZOAuthQuery.parse(input);
  const label = INTEGRATION_CATALOG[platform].label;
  const db = deps.database.db;
  const redirectUri = oauthRedirectUri(rt.config, platform);
  if (q.error) {
    if (q.state) await consumeOAuthState(db, rt.config.appSecret, ctx, platform, q.state).catch(() => undefined);
    throwFieldError('code', `${label} was not connected: access was not allowed (${q.error})`);
  }
  if (!q.code) {
    if (!q.name) throwFieldError('name', 'Please enter a name for this account');
    if (platform === 'zoho' && !q.region) throwFieldError('region', 'Please choose your Zoho data centre');
    // The provider first: a server with no OAuth client in production answers that before anything is stored.
    const provider = platform === 'mailchimp' ? await mailchimpOAuthOf(rt) : await zohoOAuthOf(rt);
    await requireFreeName(db, ctx, platform, q.name);
    const state = await createOAuthState(db, rt.config.appSecret, ctx, platform, { name: q.name, region: q.region ?? null });
    const url = 'baseUrl' in provider ? mailchimpAuthorizeUrl(provider, redirectUri, state) : zohoAuthorizeUrl(provider, q.region!, redirectUri, state);
    return { authorize_url: url, account: null };
  }
  if (!q.state) throwFieldError('state', 'This connection attempt has expired or was already used; please start again');
  const pending = await consumeOAuthState(db, rt.config.appSecret, ctx, platform, q.state);
  let exchanged: TExchanged;
  try {
    if (platform === 'mailchimp') {
      exchanged = await exchangeMailchimpCode(await mailchimpOAuthOf(rt), outboundPolicyOf(rt.config), redirectUri, q.code);
    } else {
      const o = await zohoOAuthOf(rt);
      // The redirect names the user's accounts server (multi-DC); only Zoho's own servers are trusted with the secret.
      const named = q['accounts-server']?.replace(/\/+$/, '') ?? (q.location ? o.accountsServer(ZOHO_LOCATIONS[q.location] ?? '') : null);
      if (named && !o.trusted.has(named)) throwFieldError('accounts-server', 'This Zoho accounts server is not one of Zoho\'s data centres');
      exchanged = await exchangeZohoCode(o, outboundPolicyOf(rt.config), named ?? o.accountsServer(pending.region ?? 'com'), redirectUri, q.code);
    }
  } catch (err) {
    throw toAppError(platform, err, 'code');
  }
  const account = await saveVerifiedAccount(deps, rt, ctx, platform, pending.name, { apiKey: '', oauth: exchanged.oauth }, 'code');
  return { authorize_url: null, account };
}
