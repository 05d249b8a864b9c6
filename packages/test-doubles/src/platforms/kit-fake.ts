import { findList, notFound, readLimit, startFakeServer, type TFakeSeed } from './fake-server';

/** Kit API v4 on 127.0.0.1 (`/v4`): `X-Kit-Api-Key`, tags as lists, `after` cursors (per_page ≤ 1000), a bare 429. */
export function startKitFake(seed: TFakeSeed) {
  const fields: { id: number; key: string; label: string }[] = [];
  const untagged = new Set<string>();
  const cursor = (n: number) => Buffer.from(`${n}`).toString('base64url');
  const uncursor = (c: string | null) => (c ? Number(Buffer.from(c, 'base64url').toString('utf8')) : 0);
  const pageOf = <T>(items: T[], after: string | null, size: number) => {
    const start = uncursor(after);
    const end = start + size;
    return { slice: items.slice(start, end), pagination: { has_previous_page: start > 0, has_next_page: end < items.length, start_cursor: cursor(start), end_cursor: cursor(Math.min(end, items.length)), per_page: size } };
  };
  return startFakeServer({
    seed,
    pathPrefix: '/v4',
    authorise: (req) => (req.headers['x-kit-api-key'] === seed.apiKey ? null : { status: 401, body: { errors: ['The access token is invalid'] } }),
    throttle: () => ({ status: 429, body: { errors: ['Too many requests'] } }),
    route: (req, fake) => {
      const p = req.path;
      if (p === '/account') return { status: 200, body: { user: { email: 'creator@kit.test' }, account: { id: 1, name: 'Fake Kit Creator' } } };
      if (p === '/tags') {
        const size = readLimit(req.query.get('per_page'), 500, 1000);
        if (typeof size !== 'number') return size;
        const pg = pageOf(seed.lists, req.query.get('after'), size);
        return { status: 200, body: { tags: pg.slice.map((l) => ({ id: Number(l.id), name: l.name })), pagination: pg.pagination } };
      }
      let m = /^\/tags\/([^/]+)\/subscribers$/.exec(p);
      if (m) {
        const list = findList(seed, m[1]);
        if (!list) return notFound;
        const size = readLimit(req.query.get('per_page'), 500, 1000);
        if (typeof size !== 'number') return size;
        const tagged = list.members.filter((x) => !untagged.has(`${list.id}/${x.id}`));
        const pg = pageOf(tagged, req.query.get('after'), size);
        return { status: 200, body: { subscribers: pg.slice.map((x) => ({ id: Number(x.id), email_address: x.email, first_name: x.firstName, state: 'active', fields: { last_name: x.lastName } })), pagination: pg.pagination } };
      }
      m = /^\/tags\/([^/]+)\/subscribers\/([^/]+)$/.exec(p);
      if (m && req.method === 'DELETE') {
        untagged.add(`${m[1]}/${m[2]}`);
        fake.writes.push({ kind: 'unsubscribe', listId: m[1], memberId: m[2] });
        return { status: 204 };
      }
      if (p === '/custom_fields') {
        if (req.method === 'GET') return { status: 200, body: { custom_fields: fields, pagination: { has_next_page: false, end_cursor: null } } };
        const label = (req.body as { label: string }).label;
        const f = { id: fields.length + 1, key: label.toLowerCase().replace(/\W+/g, '_'), label };
        fields.push(f);
        fake.writes.push({ kind: 'field_created', data: f });
        return { status: 201, body: { custom_field: f } };
      }
      m = /^\/subscribers\/([^/]+)$/.exec(p);
      if (m && req.method === 'PUT') {
        const b = req.body as { fields?: Record<string, string> };
        const unknown = Object.keys(b.fields ?? {}).find((k) => !fields.some((f) => f.key === k));
        if (unknown) return { status: 422, body: { errors: [`Custom field ${unknown} does not exist`] } };
        fake.writes.push({ kind: 'fields', memberId: m[1], data: b.fields });
        return { status: 200, body: { subscriber: { id: Number(m[1]) } } };
      }
      return notFound;
    },
  });
}
