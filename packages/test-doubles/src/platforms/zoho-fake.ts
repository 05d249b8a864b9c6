import { randomBytes } from 'node:crypto';
import { findList, notFound, startFakeServer, type TFakeMember, type TFakePlatform, type TFakeReply, type TFakeRequest, type TFakeSeed } from './fake-server';
import { consentPage, htmlError, redirectBack, str } from './oauth-pages';

/** The OAuth client this fake accepts unless it is started with another one. */
export const FAKE_ZOHO_CLIENT = { clientId: '1000.FAKEZOHOCLIENT', clientSecret: 'fake-zoho-secret' };

const PAGE_CAP = 200;
/** Past this many records, `page` is refused and `page_token` is needed (Zoho v8). */
const PAGE_WINDOW = 2_000;
const STANDARD_FIELDS = ['Email', 'First_Name', 'Last_Name', 'Email_Opt_Out'];

/** Every fourth member of a seeded campaign is a Lead, the others Contacts (so both related lists are read). */
export const zohoModuleOf = (index: number): 'Contacts' | 'Leads' => (index % 4 === 3 ? 'Leads' : 'Contacts');

export type TZohoFake = TFakePlatform & {
  /** Access tokens stop working (as after their hour); refresh tokens still do. */
  expireAccessTokens(): void;
  /** Where the redirect says the user's account lives (`location`): us, eu, in, au, jp, cn. */
  setLocation(location: string): void;
};

const err = (status: number, code: string, message: string): TFakeReply => ({ status, body: { code, details: {}, message, status: 'error' } });

/**
 * Zoho CRM API v8 and Zoho Accounts (multi-DC OAuth) on 127.0.0.1: the consent page at `/oauth/v2/auth` sends
 * the browser back with `code`, `location` and `accounts-server` (this server); `/oauth/v2/token` answers
 * `api_domain` = this server (errors as HTTP 200 `{error}`, as Zoho does). API: `Zoho-oauthtoken` header, Campaigns
 * and their related Contacts / Leads paged with `page`/`per_page` ≤ 200 and `info.more_records` (`page_token` past
 * 2,000), fields and PUT of ≤ 100 records recorded; throttling is 429 with `X-RATELIMIT-*` (reset in epoch ms).
 */
export async function startZohoFake(seed: TFakeSeed, client: { clientId: string; clientSecret: string } = FAKE_ZOHO_CLIENT): Promise<TZohoFake> {
  const codes = new Map<string, string>();
  const access = new Set<string>();
  const refresh = new Set<string>();
  const fields = new Map<string, Set<string>>([
    ['Contacts', new Set(STANDARD_FIELDS)],
    ['Leads', new Set(STANDARD_FIELDS)],
  ]);
  let location = 'us';
  const issue = () => {
    const t = `1000.${randomBytes(16).toString('hex')}`;
    access.add(t);
    return t;
  };
  const oauth = (req: TFakeRequest, origin: string): TFakeReply => {
    if (req.path === '/oauth/v2/auth' && req.method === 'GET') {
      const q = req.query;
      if (q.get('client_id') !== client.clientId) return htmlError(400, 'Invalid Client');
      if (q.get('response_type') !== 'code' || !q.get('redirect_uri') || !q.get('scope')) return htmlError(400, 'Invalid request');
      return consentPage({ platform: 'Zoho CRM', account: 'Fake Zoho Org', action: `${origin}/oauth/v2/auth`, fields: { client_id: q.get('client_id')!, redirect_uri: q.get('redirect_uri')!, state: q.get('state') ?? '' } });
    }
    if (req.path === '/oauth/v2/auth' && req.method === 'POST') {
      const redirectUri = str(req.body, 'redirect_uri');
      const state = str(req.body, 'state');
      if (str(req.body, 'client_id') !== client.clientId || !redirectUri) return htmlError(400, 'Invalid Client');
      if (str(req.body, 'decision') !== 'allow') return redirectBack(redirectUri, { error: 'access_denied', state });
      const code = `1000.${randomBytes(12).toString('hex')}`;
      codes.set(code, redirectUri);
      return redirectBack(redirectUri, { state, code, location, 'accounts-server': origin });
    }
    if (req.path === '/oauth/v2/token' && req.method === 'POST') {
      // Zoho answers token errors with HTTP 200 and an `error` field.
      if (str(req.body, 'client_id') !== client.clientId || str(req.body, 'client_secret') !== client.clientSecret) return { status: 200, body: { error: 'invalid_client' } };
      const grant = str(req.body, 'grant_type');
      if (grant === 'authorization_code') {
        const code = str(req.body, 'code');
        if (codes.get(code) !== str(req.body, 'redirect_uri')) return { status: 200, body: { error: 'invalid_code' } };
        codes.delete(code);
        const rt = `1000.${randomBytes(16).toString('hex')}`;
        refresh.add(rt);
        return { status: 200, body: { access_token: issue(), refresh_token: rt, scope: 'ZohoCRM.modules.ALL', api_domain: origin, token_type: 'Bearer', expires_in: 3600 } };
      }
      if (grant === 'refresh_token') {
        if (!refresh.has(str(req.body, 'refresh_token'))) return { status: 200, body: { error: 'invalid_code' } };
        return { status: 200, body: { access_token: issue(), scope: 'ZohoCRM.modules.ALL', api_domain: origin, token_type: 'Bearer', expires_in: 3600 } };
      }
      return { status: 200, body: { error: 'unsupported_grant_type' } };
    }
    return notFound;
  };
  const membersOf = (members: TFakeMember[], module: string) => members.filter((_, i) => zohoModuleOf(i) === module);
  const findMember = (module: string, id: string) => {
    for (const l of seed.lists) {
      const m = membersOf(l.members, module).find((x) => x.id === id);
      if (m) return { list: l, member: m };
    }
    return null;
  };

  const fake = await startFakeServer({
    seed,
    authorise: (req) => {
      if (req.path.startsWith('/oauth/')) return null;
      const m = /^Zoho-oauthtoken (.+)$/.exec(req.headers.authorization ?? '');
      if (m && access.has(m[1]!)) return null;
      return err(401, 'INVALID_TOKEN', 'invalid oauth token');
    },
    throttle: () => ({
      ...err(429, 'TOO_MANY_REQUESTS', 'You have made too many requests. Please try again later.'),
      headers: { 'X-RATELIMIT-LIMIT': '100', 'X-RATELIMIT-REMAINING': '0', 'X-RATELIMIT-RESET': String(Date.now() + 1_000) },
    }),
    route: (req, f) => {
      const origin = new URL(f.baseUrl).origin;
      if (req.path.startsWith('/oauth/')) return oauth(req, origin);
      const p = req.path.replace(/^\/crm\/v8/, '');
      if (p === '/users' && req.query.get('type') === 'CurrentUser') return { status: 200, body: { users: [{ id: '4150868000000225013', full_name: 'Fake Zoho Admin', email: 'admin@zoho.test' }] } };
      const paging = (total: number): { offset: number; perPage: number; page: number } | TFakeReply => {
        const perPage = Number(req.query.get('per_page') ?? 200);
        if (!Number.isInteger(perPage) || perPage < 1 || perPage > PAGE_CAP) return err(400, 'INVALID_DATA', 'per_page must be between 1 and 200');
        const token = req.query.get('page_token');
        if (token) {
          const offset = Number(Buffer.from(token, 'base64url').toString('utf8'));
          if (!Number.isInteger(offset) || offset < 0 || offset > total) return err(400, 'INVALID_DATA', 'invalid page_token');
          return { offset, perPage, page: Math.floor(offset / perPage) + 1 };
        }
        const page = Number(req.query.get('page') ?? 1);
        if (!Number.isInteger(page) || page < 1) return err(400, 'INVALID_DATA', 'invalid page');
        if ((page - 1) * perPage >= PAGE_WINDOW) return err(400, 'LIMIT_REACHED', 'Use page_token to fetch records beyond 2000');
        return { offset: (page - 1) * perPage, perPage, page };
      };
      const pageReply = (rows: unknown[], total: number, pg: { offset: number; perPage: number; page: number }): TFakeReply => {
        const slice = rows.slice(pg.offset, pg.offset + pg.perPage);
        if (slice.length === 0 && pg.offset === 0) return { status: 204, raw: '' };
        const more = pg.offset + slice.length < total;
        const nextOffset = pg.offset + slice.length;
        return {
          status: 200,
          body: {
            data: slice,
            info: { per_page: pg.perPage, count: slice.length, page: pg.page, more_records: more, next_page_token: more && nextOffset >= PAGE_WINDOW - pg.perPage ? Buffer.from(String(nextOffset)).toString('base64url') : null },
          },
        };
      };
      if (p === '/Campaigns' && req.method === 'GET') {
        const pg = paging(seed.lists.length);
        if (!('offset' in pg)) return pg;
        return pageReply(seed.lists.map((l) => ({ id: l.id, Campaign_Name: l.name })), seed.lists.length, pg);
      }
      let m = /^\/Campaigns\/([^/]+)\/(Contacts|Leads)$/.exec(p);
      if (m && req.method === 'GET') {
        const list = findList(seed, m[1]);
        if (!list) return err(400, 'INVALID_DATA', 'the related id given seems to be invalid');
        if (!req.query.get('fields')) return err(400, 'REQUIRED_PARAM_MISSING', 'One of the expected parameter is missing: fields');
        const rows = membersOf(list.members, m[2]!).map((x) => ({ id: x.id, Email: x.email, First_Name: x.firstName, Last_Name: x.lastName }));
        const pg = paging(rows.length);
        if (!('offset' in pg)) return pg;
        return pageReply(rows, rows.length, pg);
      }
      if (p === '/settings/fields') {
        const module = req.query.get('module') ?? '';
        const have = fields.get(module);
        if (!have) return err(400, 'INVALID_MODULE', 'the module name given seems to be invalid');
        if (req.method === 'GET') return { status: 200, body: { fields: [...have].map((a) => ({ api_name: a, field_label: a.replace(/_/g, ' ') })) } };
        const wanted = ((req.body as { fields?: { field_label?: string }[] } | null)?.fields ?? []).map((x) => x.field_label ?? '');
        return {
          status: 201,
          body: {
            fields: wanted.map((label) => {
              const api = label.trim().replace(/\s+/g, '_');
              if (have.has(api)) return { code: 'DUPLICATE_DATA', status: 'error', message: 'duplicate data', details: { api_name: api } };
              have.add(api);
              f.writes.push({ kind: 'field_created', data: { module, api_name: api } });
              return { code: 'SUCCESS', status: 'success', message: 'field created', details: { api_name: api } };
            }),
          },
        };
      }
      m = /^\/(Contacts|Leads)$/.exec(p);
      if (m && req.method === 'PUT') {
        const module = m[1]!;
        const data = (req.body as { data?: Record<string, unknown>[] } | null)?.data ?? [];
        if (data.length === 0 || data.length > 100) return err(400, 'LIMIT_EXCEEDED', 'records must be between 1 and 100');
        const have = fields.get(module)!;
        return {
          status: 200,
          body: {
            data: data.map((rec) => {
              const found = findMember(module, String(rec.id));
              if (!found) return { code: 'INVALID_DATA', status: 'error', message: 'the id given seems to be invalid', details: { id: rec.id } };
              const unknown = Object.keys(rec).find((k) => k !== 'id' && !have.has(k));
              if (unknown) return { code: 'INVALID_DATA', status: 'error', message: `invalid field: ${unknown}`, details: { api_name: unknown } };
              const { id, Email_Opt_Out: optOut, ...rest } = rec;
              if (optOut === true) f.writes.push({ kind: 'unsubscribe', listId: found.list.id, memberId: String(id), email: found.member.email });
              if (Object.keys(rest).length > 0) f.writes.push({ kind: 'fields', listId: found.list.id, memberId: String(id), email: found.member.email, data: rest });
              return { code: 'SUCCESS', status: 'success', message: 'record updated', details: { id } };
            }),
          },
        };
      }
      return err(404, 'INVALID_URL_PATTERN', 'Please check if the URL trying to access is a correct one');
    },
  });
  return Object.assign(fake, {
    expireAccessTokens: () => access.clear(),
    setLocation: (l: string) => {
      location = l;
    },
  });
}
