import { findList, notFound, readLimit, startFakeServer, type TFakeSeed } from './fake-server';

/** MailerLite on 127.0.0.1 (`/api`): Bearer token, groups by page, subscribers by cursor (limit ≤ 1000), 429 with Retry-After and X-RateLimit-*. */
export function startMailerliteFake(seed: TFakeSeed) {
  const fields: { key: string; name: string }[] = [];
  const unsubscribed = new Set<string>();
  const encode = (n: number) => Buffer.from(`offset:${n}`).toString('base64url');
  const decode = (c: string | null) => (c ? Number(Buffer.from(c, 'base64url').toString('utf8').split(':')[1]) : 0);
  return startFakeServer({
    seed,
    pathPrefix: '/api',
    authorise: (req) => (req.headers.authorization === `Bearer ${seed.apiKey}` ? null : { status: 401, body: { message: 'Unauthenticated.' } }),
    throttle: () => ({ status: 429, headers: { 'x-ratelimit-limit': '120', 'x-ratelimit-remaining': '0', 'retry-after': '1' }, body: { message: 'Too Many Attempts.' } }),
    route: (req, fake) => {
      const p = req.path;
      if (p === '/groups') {
        const limit = readLimit(req.query.get('limit'), 25, 1000);
        if (typeof limit !== 'number') return limit;
        const page = Number(req.query.get('page') ?? 1);
        return {
          status: 200,
          body: { data: seed.lists.slice((page - 1) * limit, page * limit).map((l) => ({ id: l.id, name: l.name, active_count: l.members.length })), meta: { current_page: page, last_page: Math.max(1, Math.ceil(seed.lists.length / limit)) } },
        };
      }
      const m = /^\/groups\/([^/]+)\/subscribers$/.exec(p);
      if (m) {
        const list = findList(seed, m[1]);
        if (!list) return notFound;
        const limit = readLimit(req.query.get('limit'), 50, 1000);
        if (typeof limit !== 'number') return limit;
        const start = decode(req.query.get('cursor'));
        const active = list.members.filter((x) => !unsubscribed.has(x.id));
        const next = start + limit;
        return {
          status: 200,
          body: { data: active.slice(start, next).map((x) => ({ id: x.id, email: x.email, status: 'active', fields: { name: x.firstName, last_name: x.lastName } })), meta: { next_cursor: next < active.length ? encode(next) : null } },
        };
      }
      if (p === '/fields') {
        if (req.method === 'GET') return { status: 200, body: { data: fields } };
        const b = req.body as { name: string };
        const f = { key: b.name.toLowerCase().replace(/\s+/g, '_'), name: b.name };
        if (fields.some((x) => x.key === f.key)) return { status: 422, body: { message: 'The name has already been taken.' } };
        fields.push(f);
        fake.writes.push({ kind: 'field_created', data: f });
        return { status: 201, body: { data: f } };
      }
      const s = /^\/subscribers\/([^/]+)$/.exec(p);
      if (s && req.method === 'PUT') {
        const member = seed.lists.flatMap((l) => l.members).find((x) => x.id === s[1]);
        if (!member) return notFound;
        const b = req.body as { status?: string; fields?: Record<string, string> };
        if (b.status === 'unsubscribed') {
          unsubscribed.add(member.id);
          fake.writes.push({ kind: 'unsubscribe', memberId: member.id, email: member.email });
        }
        if (b.fields) {
          const unknown = Object.keys(b.fields).find((k) => !fields.some((f) => f.key === k));
          if (unknown) return { status: 422, body: { message: `Field ${unknown} does not exist.` } };
          fake.writes.push({ kind: 'fields', memberId: member.id, email: member.email, data: b.fields });
        }
        return { status: 200, body: { data: { id: member.id, email: member.email } } };
      }
      return notFound;
    },
  });
}
