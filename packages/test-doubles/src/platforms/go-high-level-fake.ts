import { startFakeServer, type TFakeMember, type TFakeSeed } from './fake-server';

export const GHL_FAKE_LOCATION_ID = 've9EPM428h8vShlRW1KT';
const PAGE_CAP = 500;

const err = (statusCode: number, message: string) => ({ status: statusCode, body: { statusCode, message } });

/**
 * GoHighLevel API v2 on 127.0.0.1: Bearer token and the `Version` header on every call, one location (another
 * location id is refused with 403). Seed lists are tags (list name = tag). `GET /locations/{id}/tags`,
 * `POST /contacts/search` filtered on a tag and paged with `searchAfter` (`pageLimit` ≤ 500), custom fields,
 * contact updates and tag adds/removals (recorded), and a 429 with `X-RateLimit-*` headers.
 */
export function startGoHighLevelFake(seed: TFakeSeed, opts: { locationId?: string } = {}) {
  const locationId = opts.locationId ?? GHL_FAKE_LOCATION_ID;
  const fields: { id: string; name: string; fieldKey: string; dataType: string; model: string }[] = [];
  /** Tags of each contact (seeded from the lists it is in). */
  const tagsOf = new Map<string, Set<string>>();
  const contacts = new Map<string, TFakeMember & { added: number }>();
  const seeded = new Set<string>();
  /** Seed lists (also ones a test adds later) tag their members once; contacts are ordered by date added. */
  const ensure = () => {
    seed.lists.forEach((l, li) =>
      l.members.forEach((m, i) => {
        if (seeded.has(`${l.id}/${m.id}`)) return;
        seeded.add(`${l.id}/${m.id}`);
        if (!contacts.has(m.id)) contacts.set(m.id, { ...m, added: 1_700_000_000_000 + li * 1_000_000 + i * 1000 });
        (tagsOf.get(m.id) ?? tagsOf.set(m.id, new Set()).get(m.id)!).add(l.name);
      }),
    );
  };
  const wrongLocation = (id: string | null | undefined) => (id !== locationId ? err(403, 'The token does not have access to this location.') : null);
  return startFakeServer({
    seed,
    authorise: (req) => {
      if (req.headers.authorization !== `Bearer ${seed.apiKey}`) return err(401, 'Invalid JWT');
      if (!req.headers.version) return err(400, 'Version header was not found');
      return null;
    },
    throttle: () => ({
      status: 429,
      headers: { 'x-ratelimit-max': '100', 'x-ratelimit-remaining': '0', 'x-ratelimit-interval-milliseconds': '1000', 'x-ratelimit-daily-max': '200000', 'x-ratelimit-daily-remaining': '199000' },
      body: { statusCode: 429, message: 'Too many requests' },
    }),
    route: (req, fake) => {
      ensure();
      const p = req.path;
      let m = /^\/locations\/([^/]+)\/(tags|customFields)$/.exec(p);
      if (m) {
        const denied = wrongLocation(m[1]);
        if (denied) return denied;
        if (m[2] === 'tags') return { status: 200, body: { tags: seed.lists.map((l) => ({ id: `tag-${l.id}`, name: l.name, locationId })) } };
        if (req.method === 'GET') return { status: 200, body: { customFields: fields } };
        const b = req.body as { name?: string; dataType?: string; model?: string } | null;
        if (!b?.name || !b.dataType) return err(422, 'name and dataType are required');
        if (fields.some((f) => f.name === b.name)) return err(400, 'A custom field with this name already exists');
        const f = { id: `cf${fields.length + 1}`, name: b.name, fieldKey: `contact.${b.name.toLowerCase().replace(/\W+/g, '_')}`, dataType: b.dataType, model: b.model ?? 'contact' };
        fields.push(f);
        fake.writes.push({ kind: 'field_created', data: f });
        return { status: 201, body: { customField: f } };
      }
      if (p === '/contacts/search' && req.method === 'POST') {
        const b = (req.body ?? {}) as { locationId?: string; pageLimit?: number; searchAfter?: [number, string]; filters?: { field: string; operator: string; value: string }[] };
        const denied = wrongLocation(b.locationId);
        if (denied) return denied;
        const limit = b.pageLimit ?? 20;
        if (!Number.isInteger(limit) || limit < 1 || limit > PAGE_CAP) return err(422, `pageLimit must not be greater than ${PAGE_CAP}`);
        const tagFilter = b.filters?.find((f) => f.field === 'tags');
        if (tagFilter && tagFilter.operator !== 'contains') return err(422, 'Unsupported operator for tags');
        const sorted = [...contacts.values()].filter((c) => !tagFilter || tagsOf.get(c.id)!.has(tagFilter.value)).sort((a, z) => a.added - z.added || a.id.localeCompare(z.id));
        const after = b.searchAfter;
        const start = after ? sorted.findIndex((c) => c.added > after[0] || (c.added === after[0] && c.id > after[1])) : 0;
        const slice = start < 0 ? [] : sorted.slice(start, start + limit);
        return {
          status: 200,
          body: { contacts: slice.map((c) => ({ id: c.id, locationId, email: c.email, firstName: c.firstName, lastName: c.lastName, tags: [...tagsOf.get(c.id)!], dateAdded: new Date(c.added).toISOString(), searchAfter: [c.added, c.id] })), total: sorted.length },
        };
      }
      m = /^\/contacts\/([^/]+)(\/tags)?$/.exec(p);
      if (m) {
        const c = contacts.get(m[1]!);
        if (!c) return err(400, 'Contact not found');
        if (m[2]) {
          const tags = (req.body as { tags?: string[] } | null)?.tags ?? [];
          if (req.method === 'POST') {
            for (const t of tags) tagsOf.get(c.id)!.add(t);
            fake.writes.push({ kind: 'tag_added', memberId: c.id, email: c.email, data: tags });
            return { status: 201, body: { tags: [...tagsOf.get(c.id)!] } };
          }
          if (req.method === 'DELETE') {
            for (const t of tags) tagsOf.get(c.id)!.delete(t);
            fake.writes.push({ kind: 'unsubscribe', memberId: c.id, email: c.email, data: tags });
            return { status: 200, body: { tags: [...tagsOf.get(c.id)!] } };
          }
        }
        if (!m[2] && req.method === 'PUT') {
          const cf = (req.body as { customFields?: { id: string; field_value: string }[] } | null)?.customFields ?? [];
          const unknown = cf.find((f) => !fields.some((x) => x.id === f.id));
          if (unknown) return err(422, `Custom field ${unknown.id} does not exist`);
          fake.writes.push({ kind: 'fields', memberId: c.id, email: c.email, data: Object.fromEntries(cf.map((f) => [fields.find((x) => x.id === f.id)!.name, f.field_value])) });
          return { status: 200, body: { succeded: true, contact: { id: c.id } } };
        }
      }
      return err(404, 'Not found');
    },
  });
}
