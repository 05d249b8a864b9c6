import { findList, notFound, startFakeServer, type TFakeSeed } from './fake-server';

const text = (status: number, raw: string) => ({ status, raw, headers: { 'content-type': 'text/plain' } });

/**
 * lemlist on 127.0.0.1 (`/api`): Basic authentication with an empty user name and the key as password (Bearer is
 * refused), `GET /team`, campaigns (`version=v2`: page/limit ≤ 100 with `pagination`), the JSON export of a
 * campaign's leads (empty without `state`, as the real one), lead variables (`POST` adds new ones and refuses
 * existing ones, `PATCH` updates existing ones and refuses new ones), unsubscribing a lead from a campaign, and a
 * 429 with `Retry-After`, `X-RateLimit-*` and a date-string `X-RateLimit-Reset`.
 */
export function startLemlistFake(seed: TFakeSeed) {
  const variables = new Map<string, Record<string, string>>();
  const unsubscribed = new Set<string>();
  const expected = `Basic ${Buffer.from(`:${seed.apiKey}`).toString('base64')}`;
  return startFakeServer({
    seed,
    pathPrefix: '/api',
    authorise: (req) => (req.headers.authorization === expected ? null : text(401, 'Invalid API key')),
    throttle: () => ({
      status: 429,
      headers: { 'retry-after': '1', 'x-ratelimit-limit': '20', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': new Date(Date.now() + 1000).toString() },
      raw: 'Too many requests',
    }),
    route: (req, fake) => {
      const p = req.path;
      if (p === '/team') return { status: 200, body: { _id: 'tea_fake', name: 'Fake lemlist team', userIds: ['usr_1'] } };
      if (p === '/campaigns' && req.method === 'GET') {
        const limit = Number(req.query.get('limit') ?? 100);
        if (!Number.isInteger(limit) || limit < 1 || limit > 100) return { status: 400, body: { message: 'limit must be between 1 and 100' } };
        const page = Math.max(1, Number(req.query.get('page') ?? 1));
        const items = seed.lists.slice((page - 1) * limit, page * limit).map((l) => ({ _id: l.id, name: l.name, status: 'running' }));
        if (req.query.get('version') !== 'v2') return { status: 200, body: items };
        const totalPage = Math.max(1, Math.ceil(seed.lists.length / limit));
        return { status: 200, body: { campaigns: items, pagination: { totalRecords: seed.lists.length, currentPage: page, nextPage: page < totalPage ? page + 1 : null, totalPage } } };
      }
      let m = /^\/campaigns\/([^/]+)\/export\/leads$/.exec(p);
      if (m && req.method === 'GET') {
        const list = findList(seed, m[1]);
        if (!list) return notFound;
        if (req.query.get('format') !== 'json') return text(200, 'email,firstName,lastName\n');
        if (!req.query.get('state')) return { status: 200, body: [] };
        const leads = list.members.filter((x) => !unsubscribed.has(`${list.id}/${x.email}`)).map((x) => ({ _id: x.id, email: x.email, firstName: x.firstName, lastName: x.lastName, state: 'contacted', ...variables.get(x.id) }));
        return { status: 200, body: leads };
      }
      m = /^\/campaigns\/([^/]+)\/leads\/([^/]+)$/.exec(p);
      if (m && req.method === 'DELETE') {
        const list = findList(seed, m[1]);
        const email = decodeURIComponent(m[2]!);
        const lead = list?.members.find((x) => x.email === email);
        if (!list || !lead || unsubscribed.has(`${list.id}/${email}`)) return text(404, 'Lead not found');
        unsubscribed.add(`${list.id}/${email}`);
        fake.writes.push({ kind: 'unsubscribe', listId: list.id, memberId: lead.id, email });
        return { status: 200, body: { _id: lead.id, email, isUnsubscribed: true } };
      }
      m = /^\/leads\/([^/]+)\/variables$/.exec(p);
      if (m && (req.method === 'POST' || req.method === 'PATCH')) {
        const lead = seed.lists.flatMap((l) => l.members).find((x) => x.id === m![1]);
        if (!lead) return text(404, 'Lead not found');
        const have = variables.get(lead.id) ?? {};
        const given = Object.fromEntries(req.query.entries());
        if (Object.keys(given).length === 0) return text(400, 'No variable given');
        for (const k of Object.keys(given)) {
          if (req.method === 'POST' && k in have) return text(400, `Variable ${k} already exists on this lead`);
          if (req.method === 'PATCH' && !(k in have)) return text(400, `Variable ${k} does not exist on this lead`);
        }
        variables.set(lead.id, { ...have, ...given });
        fake.writes.push({ kind: 'fields', memberId: lead.id, email: lead.email, data: given });
        return { status: 200, body: { ok: true } };
      }
      return notFound;
    },
  });
}
