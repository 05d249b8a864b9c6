import { findList, notFound, readLimit, startFakeServer, type TFakeSeed } from './fake-server';

/** ActiveCampaign API v3 on 127.0.0.1 (`/api/3`): `Api-Token` header, offset paging (limit ≤ 100), 429 with Retry-After. */
export function startActiveCampaignFake(seed: TFakeSeed) {
  const fields: { id: string; title: string; perstag: string }[] = [];
  const unsubscribed = new Set<string>();
  return startFakeServer({
    seed,
    pathPrefix: '/api/3',
    authorise: (req) => (req.headers['api-token'] === seed.apiKey ? null : { status: 403, body: { message: 'No Result found for Subscriber with id 0' } }),
    throttle: () => ({ status: 429, headers: { 'retry-after': '1' }, body: { message: 'Too Many Requests' } }),
    route: (req, fake) => {
      const p = req.path;
      if (p === '/users/me') return { status: 200, body: { user: { username: 'admin', email: 'admin@campaign.test' } } };
      if (p === '/lists') {
        const limit = readLimit(req.query.get('limit'), 20, 100);
        if (typeof limit !== 'number') return limit;
        const offset = Number(req.query.get('offset') ?? 0);
        return { status: 200, body: { lists: seed.lists.slice(offset, offset + limit).map((l) => ({ id: l.id, name: l.name })), meta: { total: String(seed.lists.length) } } };
      }
      if (p === '/contacts' && req.method === 'GET') {
        const list = findList(seed, req.query.get('listid') ?? undefined);
        if (!list) return { status: 200, body: { contacts: [], meta: { total: '0' } } };
        const limit = readLimit(req.query.get('limit'), 20, 100);
        if (typeof limit !== 'number') return limit;
        const offset = Number(req.query.get('offset') ?? 0);
        const active = list.members.filter((x) => !unsubscribed.has(`${list.id}/${x.id}`));
        return { status: 200, body: { contacts: active.slice(offset, offset + limit).map((x) => ({ id: x.id, email: x.email, firstName: x.firstName, lastName: x.lastName })), meta: { total: String(active.length) } } };
      }
      if (p === '/fields') {
        if (req.method === 'GET') return { status: 200, body: { fields, meta: { total: String(fields.length) } } };
        const b = (req.body as { field: { title: string; perstag: string } }).field;
        const f = { id: String(fields.length + 1), title: b.title, perstag: b.perstag };
        fields.push(f);
        fake.writes.push({ kind: 'field_created', data: f });
        return { status: 201, body: { field: f } };
      }
      if (p === '/fieldRels') return { status: 201, body: { fieldRel: (req.body as { fieldRel: unknown }).fieldRel } };
      if (p === '/contactLists') {
        const b = (req.body as { contactList: { list: string; contact: string; status: number } }).contactList;
        if (b.status === 2) {
          unsubscribed.add(`${b.list}/${b.contact}`);
          fake.writes.push({ kind: 'unsubscribe', listId: b.list, memberId: b.contact });
        }
        return { status: 201, body: { contactList: b } };
      }
      if (p === '/fieldValues') {
        const b = (req.body as { fieldValue: { contact: string; field: string; value: string } }).fieldValue;
        if (!fields.some((f) => f.id === b.field)) return { status: 422, body: { errors: [{ title: 'Field does not exist' }] } };
        fake.writes.push({ kind: 'fields', memberId: b.contact, data: { [b.field]: b.value } });
        return { status: 200, body: { fieldValue: b } };
      }
      return notFound;
    },
  });
}
