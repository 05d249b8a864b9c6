import { findList, notFound, readLimit, startFakeServer, type TFakeSeed } from './fake-server';

/** HubSpot CRM v3 on 127.0.0.1: Bearer token, lists search, memberships by `after` cursor (limit ≤ 250), batch read/update (≤ 100). */
export function startHubspotFake(seed: TFakeSeed) {
  const groups = new Set<string>();
  const properties = new Set<string>();
  const removed = new Set<string>();
  const allMembers = () => seed.lists.flatMap((l) => l.members);
  return startFakeServer({
    seed,
    authorise: (req) =>
      req.headers.authorization === `Bearer ${seed.apiKey}`
        ? null
        : { status: 401, body: { status: 'error', message: 'Authentication credentials not found.', category: 'INVALID_AUTHENTICATION' } },
    throttle: () => ({
      status: 429,
      headers: { 'x-hubspot-ratelimit-max': '100', 'x-hubspot-ratelimit-remaining': '0', 'x-hubspot-ratelimit-interval-milliseconds': '1000' },
      body: { status: 'error', message: 'You have reached your ten_secondly_rolling limit.', errorType: 'RATE_LIMIT', policyName: 'TEN_SECONDLY_ROLLING' },
    }),
    route: (req, fake) => {
      const p = req.path;
      if (p === '/crm/v3/objects/contacts' && req.method === 'GET') return { status: 200, body: { results: allMembers().slice(0, 1).map((m) => ({ id: m.id, properties: { email: m.email } })) } };
      if (p === '/account-info/v3/details') return { status: 200, body: { portalId: 4242, accountType: 'STANDARD' } };
      if (p === '/crm/v3/lists/search' && req.method === 'POST') {
        const b = req.body as { count?: number; offset?: number };
        const offset = b.offset ?? 0;
        const count = Math.min(b.count ?? 20, 500);
        const page = seed.lists.slice(offset, offset + count);
        return {
          status: 200,
          body: {
            lists: page.map((l) => ({ listId: l.id, name: l.name, processingType: l.dynamic ? 'DYNAMIC' : 'MANUAL', additionalProperties: { hs_list_size: String(l.members.length) } })),
            hasMore: offset + count < seed.lists.length,
            offset: offset + page.length,
            total: seed.lists.length,
          },
        };
      }
      let m = /^\/crm\/v3\/lists\/([^/]+)\/memberships$/.exec(p);
      if (m) {
        const list = findList(seed, m[1]);
        if (!list) return notFound;
        const limit = readLimit(req.query.get('limit'), 100, 250);
        if (typeof limit !== 'number') return limit;
        const start = Number(req.query.get('after') ?? 0);
        const ids = list.members.filter((x) => !removed.has(`${list.id}/${x.id}`)).map((x) => x.id);
        const next = start + limit;
        return { status: 200, body: { results: ids.slice(start, next).map((recordId) => ({ recordId })), ...(next < ids.length ? { paging: { next: { after: String(next) } } } : {}) } };
      }
      if (p === '/crm/v3/objects/contacts/batch/read') {
        const b = req.body as { inputs: { id: string }[] };
        if (b.inputs.length > 100) return { status: 400, body: { message: 'Batch size must be at most 100' } };
        const byId = new Map(allMembers().map((x) => [x.id, x]));
        return { status: 200, body: { status: 'COMPLETE', results: b.inputs.flatMap((i) => { const x = byId.get(i.id); return x ? [{ id: x.id, properties: { email: x.email, firstname: x.firstName, lastname: x.lastName } }] : []; }) } };
      }
      if (p === '/crm/v3/objects/contacts/batch/update') {
        const b = req.body as { inputs: { id: string; properties: Record<string, string> }[] };
        if (b.inputs.length > 100) return { status: 400, body: { message: 'Batch size must be at most 100' } };
        for (const missing of Object.keys(b.inputs[0]?.properties ?? {}).filter((k) => !properties.has(k))) return { status: 400, body: { message: `Property ${missing} does not exist` } };
        for (const i of b.inputs) fake.writes.push({ kind: 'fields', memberId: i.id, data: i.properties });
        return { status: 200, body: { status: 'COMPLETE', results: b.inputs } };
      }
      if (p === '/crm/v3/properties/contacts/groups') {
        const b = req.body as { name: string };
        if (groups.has(b.name)) return { status: 409, body: { message: 'Group already exists' } };
        groups.add(b.name);
        fake.writes.push({ kind: 'group_created', data: b });
        return { status: 201, body: b };
      }
      if (p === '/crm/v3/properties/contacts' && req.method === 'POST') {
        const b = req.body as { name: string; groupName: string };
        if (properties.has(b.name)) return { status: 409, body: { message: 'Property already exists' } };
        if (!groups.has(b.groupName)) return { status: 400, body: { message: `Group ${b.groupName} does not exist` } };
        properties.add(b.name);
        fake.writes.push({ kind: 'field_created', data: b });
        return { status: 201, body: b };
      }
      m = /^\/crm\/v3\/lists\/([^/]+)\/memberships\/remove$/.exec(p);
      if (m && req.method === 'PUT') {
        const list = findList(seed, m[1]);
        if (!list) return notFound;
        if (list.dynamic) return { status: 400, body: { message: 'List memberships of DYNAMIC lists cannot be edited' } };
        for (const id of req.body as string[]) {
          removed.add(`${list.id}/${id}`);
          fake.writes.push({ kind: 'unsubscribe', listId: list.id, memberId: id });
        }
        return { status: 200, body: { recordIdsRemoved: req.body, recordIdsMissing: [] } };
      }
      return notFound;
    },
  });
}
