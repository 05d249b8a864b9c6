import { createJsonClient, RemoteAuthError, RemoteError, parseRetryAfter, trimBase, type THttpRequest, type TThrottleRule } from './http';
import { RESULT_FIELDS, type TAdapterContext, type TIntegrationAdapter, type TWriteBackItem } from './types';

const PER_PAGE = 200; // Zoho's `per_page` cap
const UPDATE_BATCH = 100; // records per PUT
const MODULES = ['Contacts', 'Leads'] as const;
type TModule = (typeof MODULES)[number];
/** The custom fields written back (Zoho derives the API name from the label). */
export const ZOHO_FIELDS = { status: 'Verilead_Status', safeToSend: 'Verilead_Safe_To_Send', reason: 'Verilead_Reason' } as const;

/**
 * Zoho's throttle: 429, waiting for `Retry-After` when present, else until `X-RATELIMIT-RESET` (epoch ms, or
 * seconds), else a second.
 */
export const zohoThrottle: TThrottleRule = (res) => {
  if (res.status !== 429) return null;
  const after = parseRetryAfter(res.headers.get('retry-after'));
  if (after !== null) return after;
  const reset = Number(res.headers.get('x-ratelimit-reset'));
  if (Number.isFinite(reset) && reset > 0) {
    const atMs = reset > 1e12 ? reset : reset > 1e9 ? reset * 1000 : Date.now() + reset * 1000;
    return Math.max(0, atMs - Date.now());
  }
  return 1_000;
};

/** The import cursor: a module's page (or its `page_token` past 2,000 records), Contacts first, then Leads. */
type TCursor = { m: TModule; page: number; token?: string };

/**
 * Zoho CRM API v8 with an OAuth token of the user's data centre (`api_domain`), header `Zoho-oauthtoken`. Lists are
 * Campaigns; a campaign's members are its related Contacts and Leads (`page`/`per_page` ≤ 200, `info.more_records`,
 * `page_token` past 2,000). Write-back: `Email_Opt_Out` and the result fields, 100 records per PUT. An expired
 * token (401 INVALID_TOKEN) is refreshed once at the accounts server with the refresh token.
 */
export function createZohoAdapter(ctx: TAdapterContext): TIntegrationAdapter {
  const oauth = ctx.credentials.oauth;
  const memberPage = Math.min(ctx.pageSize ?? PER_PAGE, PER_PAGE);
  const base = `${trimBase(oauth?.apiEndpoint ?? ctx.baseUrls.zoho ?? 'https://www.zohoapis.com')}/crm/v8`;
  let token = oauth?.accessToken ?? ctx.credentials.apiKey;
  const raw = createJsonClient(ctx, {
    authHeaders: () => ({ authorization: `Zoho-oauthtoken ${token}` }),
    throttle: zohoThrottle,
    errorMessage: (b) => (b as { message?: string } | null)?.message ?? (b as { data?: { message?: string }[] } | null)?.data?.[0]?.message,
  });
  const accounts = createJsonClient(ctx, { authHeaders: () => ({}), errorMessage: (b) => (b as { error?: string } | null)?.error });
  let refreshed = false;
  async function refresh(): Promise<boolean> {
    if (refreshed || !oauth?.refreshToken || !oauth.accountsServer || !ctx.oauthClient) return false;
    refreshed = true;
    const res = await accounts({
      method: 'POST',
      url: `${trimBase(oauth.accountsServer)}/oauth/v2/token`,
      form: { grant_type: 'refresh_token', refresh_token: oauth.refreshToken, client_id: ctx.oauthClient.clientId, client_secret: ctx.oauthClient.clientSecret },
    });
    const b = res.body as { access_token?: string; error?: string } | null;
    if (!b?.access_token) throw new RemoteAuthError(`Zoho refused to renew the access (${b?.error ?? 'no token'}); please connect the account again`);
    token = b.access_token;
    return true;
  }
  async function request(req: THttpRequest) {
    try {
      return await raw(req);
    } catch (err) {
      if (err instanceof RemoteAuthError && (await refresh())) return raw(req);
      throw err;
    }
  }
  const parseCursor = (c: string | null): TCursor => (c ? (JSON.parse(c) as TCursor) : { m: 'Contacts', page: 1 });

  return {
    platform: 'zoho',
    async verifyCredentials() {
      const body = (await request({ url: `${base}/users?type=CurrentUser` })).body as { users?: { full_name?: string; email?: string }[] } | null;
      const user = body?.users?.[0];
      if (!user) throw new RemoteAuthError('Zoho CRM did not return the current user');
      return { accountLabel: user.email ?? user.full_name ?? 'Zoho CRM account' };
    },
    async listLists() {
      const out = [];
      for (let page = 1; ; page += 1) {
        const res = await request({ url: `${base}/Campaigns?fields=Campaign_Name&page=${page}&per_page=${PER_PAGE}` });
        // 204: the module has no records.
        const body = res.body as { data?: { id: string; Campaign_Name?: string }[]; info?: { more_records?: boolean } } | null;
        out.push(...(body?.data ?? []).map((c) => ({ id: String(c.id), name: c.Campaign_Name ?? String(c.id), memberCount: null })));
        if (!body?.info?.more_records) return out;
      }
    },
    async listMembers(listId, cursor) {
      const c = parseCursor(cursor);
      const paging = c.token ? `page_token=${encodeURIComponent(c.token)}` : `page=${c.page}`;
      const res = await request({ url: `${base}/Campaigns/${encodeURIComponent(listId)}/${c.m}?fields=Email,First_Name,Last_Name&${paging}&per_page=${memberPage}` });
      const body = res.body as { data?: { id: string; Email?: string | null; First_Name?: string | null; Last_Name?: string | null }[]; info?: { more_records?: boolean; next_page_token?: string | null } } | null;
      const members = (body?.data ?? []).map((r) => ({ id: `${c.m}:${r.id}`, email: r.Email ?? '', firstName: r.First_Name ?? '', lastName: r.Last_Name ?? '' }));
      let next: TCursor | null = null;
      if (body?.info?.more_records) next = body.info.next_page_token ? { m: c.m, page: c.page + 1, token: body.info.next_page_token } : { m: c.m, page: c.page + 1 };
      else if (c.m === 'Contacts') next = { m: 'Leads', page: 1 };
      return { members, nextCursor: next ? JSON.stringify(next) : null };
    },
    async prepareWriteBack(_listId, mode) {
      if (!mode.append) return;
      for (const module of MODULES) {
        const body = (await request({ url: `${base}/settings/fields?module=${module}` })).body as { fields?: { api_name: string }[] } | null;
        const have = new Set((body?.fields ?? []).map((f) => f.api_name));
        const missing = (Object.keys(ZOHO_FIELDS) as (keyof typeof ZOHO_FIELDS)[]).filter((k) => !have.has(ZOHO_FIELDS[k]));
        if (missing.length === 0) continue;
        await request({ method: 'POST', url: `${base}/settings/fields?module=${module}`, body: { fields: missing.map((k) => ({ field_label: RESULT_FIELDS[k], data_type: 'text', length: 255 })) } });
      }
    },
    async writeBack(_listId, items, mode, written) {
      for (const module of MODULES) {
        const pairs = items.filter((i) => i.member.id.startsWith(`${module}:`)).flatMap((i) => {
          const r = record(i);
          return r ? [{ id: i.member.id, r }] : [];
        });
        for (let i = 0; i < pairs.length; i += UPDATE_BATCH) {
          const batch = pairs.slice(i, i + UPDATE_BATCH);
          const res = await request({ method: 'PUT', url: `${base}/${module}`, body: { data: batch.map((b) => b.r) } });
          const failed = ((res.body as { data?: { status?: string; message?: string }[] } | null)?.data ?? []).find((d) => d.status === 'error');
          if (failed) throw new RemoteError(`Zoho CRM refused an update: ${failed.message ?? 'error'}`, 400);
          written?.(batch.map((b) => b.id));
        }
      }
      function record(item: TWriteBackItem): Record<string, unknown> | null {
        const r: Record<string, unknown> = { id: item.member.id.slice(item.member.id.indexOf(':') + 1) };
        if (mode.unsubscribe && item.undeliverable) r.Email_Opt_Out = true;
        if (mode.append) Object.assign(r, { [ZOHO_FIELDS.status]: item.status, [ZOHO_FIELDS.safeToSend]: item.safeToSend ? 'yes' : 'no', [ZOHO_FIELDS.reason]: item.reason });
        return Object.keys(r).length > 1 ? r : null;
      }
    },
  };
}
