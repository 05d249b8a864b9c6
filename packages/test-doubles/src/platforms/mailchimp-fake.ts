import { createHash, randomBytes } from 'node:crypto';
import { findList, notFound, readLimit, startFakeServer, type TFakeReply, type TFakeRequest, type TFakeSeed } from './fake-server';
import { consentPage, htmlError, redirectBack, str } from './oauth-pages';

/** The OAuth client this fake accepts unless it is started with another one. */
export const FAKE_MAILCHIMP_CLIENT = { clientId: 'fake-mailchimp-client', clientSecret: 'fake-mailchimp-secret' };

/** Mailchimp's member id: the MD5 hash of the lower-cased address (its documented "subscriber hash"). */
function subscriberHash(email: string): string {
  return createHash('md5').update(email.trim().toLowerCase()).digest('hex');
}

/**
 * Mailchimp Marketing API 3.0 on 127.0.0.1 (`/3.0`): Basic auth with any user and the key, or an OAuth Bearer token;
 * offset paging (count ≤ 1000), bare 429. Mailchimp's OAuth 2 server too (the origin's `/oauth2/authorize` consent
 * page, `/oauth2/token`, `/oauth2/metadata` giving `dc` and `api_endpoint` = this server).
 */
export function startMailchimpFake(seed: TFakeSeed, client: { clientId: string; clientSecret: string } = FAKE_MAILCHIMP_CLIENT) {
  const mergeFields = new Map<string, { tag: string; name: string }[]>();
  const status = new Map<string, string>();
  const codes = new Map<string, { redirectUri: string }>();
  const tokens = new Set<string>();
  const oauth = (req: TFakeRequest, origin: string): TFakeReply => {
    if (req.path === '/oauth2/authorize' && req.method === 'GET') {
      const q = req.query;
      if (q.get('client_id') !== client.clientId) return htmlError(400, 'Invalid client_id');
      if (q.get('response_type') !== 'code' || !q.get('redirect_uri')) return htmlError(400, 'response_type=code and redirect_uri are required');
      return consentPage({
        platform: 'Mailchimp',
        account: 'Fake Chimp Co',
        action: `${origin}/oauth2/authorize`,
        fields: { client_id: q.get('client_id')!, redirect_uri: q.get('redirect_uri')!, state: q.get('state') ?? '' },
      });
    }
    if (req.path === '/oauth2/authorize' && req.method === 'POST') {
      const redirectUri = str(req.body, 'redirect_uri');
      const state = str(req.body, 'state');
      if (str(req.body, 'client_id') !== client.clientId || !redirectUri) return htmlError(400, 'Invalid client_id');
      if (str(req.body, 'decision') !== 'allow') return redirectBack(redirectUri, { error: 'access_denied', state });
      const code = randomBytes(12).toString('hex');
      codes.set(code, { redirectUri });
      return redirectBack(redirectUri, { code, state });
    }
    if (req.path === '/oauth2/token' && req.method === 'POST') {
      if (str(req.body, 'client_id') !== client.clientId || str(req.body, 'client_secret') !== client.clientSecret) return { status: 401, body: { error: 'invalid_client' } };
      const grant = codes.get(str(req.body, 'code'));
      if (str(req.body, 'grant_type') !== 'authorization_code' || !grant || grant.redirectUri !== str(req.body, 'redirect_uri')) return { status: 400, body: { error: 'invalid_grant' } };
      codes.delete(str(req.body, 'code'));
      const token = randomBytes(16).toString('hex');
      tokens.add(token);
      return { status: 200, body: { access_token: token, expires_in: 0, scope: null } };
    }
    if (req.path === '/oauth2/metadata' && req.method === 'GET') {
      const m = /^OAuth (.+)$/.exec(req.headers.authorization ?? '');
      if (!m || !tokens.has(m[1]!)) return { status: 401, body: { error: 'invalid_token' } };
      return { status: 200, body: { dc: 'us19', role: 'owner', accountname: 'Fake Chimp Co', user_id: 4242, login: { email: 'owner@chimp.test', login_name: 'owner' }, login_url: `${origin}/`, api_endpoint: origin } };
    }
    return notFound;
  };
  return startFakeServer({
    seed,
    pathPrefix: '/3.0',
    authorise: (req) => {
      if (req.path.startsWith('/oauth2/')) return null;
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
      if (bearer && tokens.has(bearer[1]!)) return null;
      const m = /^Basic (.+)$/.exec(req.headers.authorization ?? '');
      const key = m ? Buffer.from(m[1]!, 'base64').toString('utf8').split(':').slice(1).join(':') : '';
      if (key === seed.apiKey) return null;
      return { status: 401, body: { type: 'https://mailchimp.com/developer/marketing/docs/errors/', title: 'API Key Invalid', status: 401, detail: 'Your API key may be invalid, or you\'ve attempted to access the wrong datacenter.' } };
    },
    // Mailchimp sends no rate-limit headers: a bare 429.
    throttle: () => ({ status: 429, body: { title: 'Too Many Requests', status: 429, detail: 'You have exceeded the limit of 10 simultaneous connections.' } }),
    route: (req, fake) => {
      const p = req.path;
      if (p.startsWith('/oauth2/')) return oauth(req, new URL(fake.baseUrl).origin);
      if (p === '/ping') return { status: 200, body: { health_status: "Everything's Chimpy!" } };
      if (p === '/') return { status: 200, body: { account_name: 'Fake Chimp Co', email: 'owner@chimp.test' } };
      if (p === '/lists') {
        const count = readLimit(req.query.get('count'), 10, 1000);
        if (typeof count !== 'number') return count;
        const offset = Number(req.query.get('offset') ?? 0);
        return { status: 200, body: { lists: seed.lists.slice(offset, offset + count).map((l) => ({ id: l.id, name: l.name, stats: { member_count: l.members.length } })), total_items: seed.lists.length } };
      }
      let m = /^\/lists\/([^/]+)\/members$/.exec(p);
      if (m && req.method === 'GET') {
        const list = findList(seed, m[1]);
        if (!list) return notFound;
        const count = readLimit(req.query.get('count'), 10, 1000);
        if (typeof count !== 'number') return count;
        const offset = Number(req.query.get('offset') ?? 0);
        const subscribed = list.members.filter((x) => (status.get(`${list.id}/${subscriberHash(x.email)}`) ?? 'subscribed') === 'subscribed');
        return {
          status: 200,
          body: {
            members: subscribed.slice(offset, offset + count).map((x) => ({ id: subscriberHash(x.email), email_address: x.email, status: 'subscribed', merge_fields: { FNAME: x.firstName, LNAME: x.lastName } })),
            total_items: subscribed.length,
          },
        };
      }
      m = /^\/lists\/([^/]+)\/merge-fields$/.exec(p);
      if (m) {
        const fields = mergeFields.get(m[1]!) ?? [];
        if (req.method === 'GET') return { status: 200, body: { merge_fields: fields, total_items: fields.length } };
        const b = req.body as { tag: string; name: string };
        if (fields.some((f) => f.tag === b.tag)) return { status: 400, body: { detail: 'A Merge Field with the tag already exists' } };
        fields.push({ tag: b.tag, name: b.name });
        mergeFields.set(m[1]!, fields);
        fake.writes.push({ kind: 'field_created', listId: m[1], data: b });
        return { status: 200, body: b };
      }
      m = /^\/lists\/([^/]+)\/members\/([^/]+)$/.exec(p);
      if (m && req.method === 'PATCH') {
        const list = findList(seed, m[1]);
        const member = list?.members.find((x) => subscriberHash(x.email) === m![2]);
        // A wrong subscriber hash (not the MD5 of the lower-cased address) is a 404, as on Mailchimp.
        if (!list || !member) return { status: 404, body: { title: 'Resource Not Found', detail: 'The requested resource could not be found.' } };
        const b = req.body as { status?: string; merge_fields?: Record<string, string> };
        if (b.status) {
          status.set(`${list.id}/${m[2]}`, b.status);
          fake.writes.push({ kind: 'unsubscribe', listId: list.id, memberId: m[2], email: member.email });
        }
        if (b.merge_fields) fake.writes.push({ kind: 'fields', listId: list.id, memberId: m[2], email: member.email, data: b.merge_fields });
        return { status: 200, body: { id: m[2], email_address: member.email, status: b.status ?? 'subscribed' } };
      }
      return notFound;
    },
  });
}
