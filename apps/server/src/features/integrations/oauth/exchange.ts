import { createOutboundClient } from '../../../platform/outbound-http/client';
import type { TOutboundPolicy } from '../../../platform/outbound-http/guard';
import { createJsonClient, RemoteError } from '../adapters/http';
import type { TOAuthCredentials } from '../adapters/types';
import type { TMailchimpOAuth, TZohoOAuth } from './providers';

/** What an exchange gives: the credentials to store (the account is then checked with the adapter). */
export type TExchanged = { oauth: TOAuthCredentials };

const client = (policy: TOutboundPolicy, auth: () => Record<string, string> = () => ({})) =>
  createJsonClient(
    { credentials: { apiKey: '' }, baseUrls: {}, outbound: createOutboundClient(policy), maxInlineWaitMs: 2_000 },
    { authHeaders: auth, errorMessage: (b) => (b as { error?: string; error_description?: string } | null)?.error_description ?? (b as { error?: string } | null)?.error },
  );

/** Mailchimp's consent page (https://mailchimp.com/developer/marketing/guides/access-user-data-oauth-2/). */
export function mailchimpAuthorizeUrl(o: TMailchimpOAuth, redirectUri: string, state: string): string {
  const q = new URLSearchParams({ response_type: 'code', client_id: o.clientId, redirect_uri: redirectUri, state });
  return `${o.baseUrl}/oauth2/authorize?${q}`;
}

/** Code → token at /oauth2/token, then /oauth2/metadata for the data centre and the account's `api_endpoint`. */
export async function exchangeMailchimpCode(o: TMailchimpOAuth, policy: TOutboundPolicy, redirectUri: string, code: string): Promise<TExchanged> {
  const tokenRes = await client(o.local ? { ...policy, allowPrivate: true } : policy)({
    method: 'POST',
    url: `${o.baseUrl}/oauth2/token`,
    form: { grant_type: 'authorization_code', client_id: o.clientId, client_secret: o.clientSecret, redirect_uri: redirectUri, code },
  });
  const token = (tokenRes.body as { access_token?: string } | null)?.access_token;
  if (!token) throw new RemoteError('Mailchimp gave no access token');
  const meta = (await client(o.local ? { ...policy, allowPrivate: true } : policy, () => ({ authorization: `OAuth ${token}` }))({ url: `${o.baseUrl}/oauth2/metadata` })).body as { dc?: string; api_endpoint?: string } | null;
  if (!meta?.api_endpoint || !/^https?:\/\//.test(meta.api_endpoint)) throw new RemoteError('Mailchimp did not say where the account lives (api_endpoint)');
  return { oauth: { accessToken: token, apiEndpoint: meta.api_endpoint, ...(meta.dc ? { dc: meta.dc } : {}) } };
}

/** Zoho CRM scopes: read contacts and leads, update them, create the result fields, read the current user. */
export const ZOHO_SCOPES = 'ZohoCRM.modules.ALL,ZohoCRM.settings.fields.ALL,ZohoCRM.users.READ';

/** Zoho's consent page on the data centre the user picked (https://www.zoho.com/accounts/protocol/oauth/multi-dc.html). */
export function zohoAuthorizeUrl(o: TZohoOAuth, region: string, redirectUri: string, state: string): string {
  const q = new URLSearchParams({ scope: ZOHO_SCOPES, client_id: o.clientId, response_type: 'code', access_type: 'offline', prompt: 'consent', redirect_uri: redirectUri, state });
  return `${o.accountsServer(region)}/oauth/v2/auth?${q}`;
}

/** Code → tokens at the user's accounts server; `api_domain` says where the account's CRM API lives. Zoho answers errors with HTTP 200 `{error}`. */
export async function exchangeZohoCode(o: TZohoOAuth, policy: TOutboundPolicy, accountsServer: string, redirectUri: string, code: string): Promise<TExchanged> {
  const res = await client(o.local ? { ...policy, allowPrivate: true } : policy)({
    method: 'POST',
    url: `${accountsServer}/oauth/v2/token`,
    form: { grant_type: 'authorization_code', client_id: o.clientId, client_secret: o.clientSecret, redirect_uri: redirectUri, code },
  });
  const body = res.body as { access_token?: string; refresh_token?: string; api_domain?: string; error?: string } | null;
  if (body?.error || !body?.access_token) throw new RemoteError(`Zoho refused the authorisation (${body?.error ?? 'no access token'})`, 400);
  if (!body.api_domain || !/^https?:\/\//.test(body.api_domain)) throw new RemoteError('Zoho did not say where the account lives (api_domain)');
  return {
    oauth: {
      accessToken: body.access_token,
      apiEndpoint: body.api_domain,
      accountsServer,
      ...(body.refresh_token ? { refreshToken: body.refresh_token } : {}),
    },
  };
}
