import { findList, notFound, startFakeServer, type TFakeSeed } from './fake-server';

/**
 * SendGrid Marketing Campaigns on 127.0.0.1: Bearer key, lists (page_size ≤ 1000), asynchronous contact exports
 * (pending on the first status check, then ready with a download URL served by this fake), custom field
 * definitions, asynchronous upserts (202), list removals, 429 with `X-RateLimit-Reset` (epoch seconds).
 */
export function startSendgridFake(seed: TFakeSeed) {
  const fields: { id: string; name: string; field_type: string }[] = [];
  const exports = new Map<string, { listId: string; checks: number }>();
  const removed = new Set<string>();
  const csv = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  return startFakeServer({
    seed,
    authorise: (req) =>
      req.path.startsWith('/files/') || req.headers.authorization === `Bearer ${seed.apiKey}`
        ? null
        : { status: 401, body: { errors: [{ field: null, message: 'authorization required' }] } },
    throttle: () => ({
      status: 429,
      headers: { 'x-ratelimit-limit': '600', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 1) },
      body: { errors: [{ field: null, message: 'too many requests' }] },
    }),
    route: (req, fake) => {
      const p = req.path;
      if (p === '/v3/scopes') return { status: 200, body: { scopes: ['marketing.read', 'marketing.write'] } };
      if (p === '/v3/marketing/lists' && req.method === 'GET') {
        const size = Number(req.query.get('page_size') ?? 100);
        if (size > 1000) return { status: 400, body: { errors: [{ field: 'page_size', message: 'page_size must be at most 1000' }] } };
        const start = Number(req.query.get('page_token') ?? 0);
        const next = start + size;
        return {
          status: 200,
          body: {
            result: seed.lists.slice(start, next).map((l) => ({ id: l.id, name: l.name, contact_count: l.members.length })),
            _metadata: { self: `${fake.baseUrl}/v3/marketing/lists?page_size=${size}`, ...(next < seed.lists.length ? { next: `${fake.baseUrl}/v3/marketing/lists?page_size=${size}&page_token=${next}` } : {}) },
          },
        };
      }
      if (p === '/v3/marketing/contacts/exports' && req.method === 'POST') {
        const b = req.body as { list_ids?: string[] };
        const list = findList(seed, b.list_ids?.[0]);
        if (!list) return { status: 404, body: { errors: [{ message: 'list not found' }] } };
        const id = `exp-${exports.size + 1}`;
        exports.set(id, { listId: list.id, checks: 0 });
        return { status: 202, body: { id, _metadata: {} } };
      }
      let m = /^\/v3\/marketing\/contacts\/exports\/([^/]+)$/.exec(p);
      if (m) {
        const e = exports.get(m[1]!);
        if (!e) return notFound;
        e.checks += 1;
        if (e.checks === 1) return { status: 200, body: { id: m[1], status: 'pending', export_type: 'contacts_export' } };
        return { status: 200, body: { id: m[1], status: 'ready', export_type: 'contacts_export', urls: [`${fake.baseUrl}/files/${m[1]}.csv`] } };
      }
      m = /^\/files\/([^/]+)\.csv$/.exec(p);
      if (m) {
        const e = exports.get(m[1]!);
        const list = e && findList(seed, e.listId);
        if (!list) return notFound;
        const lines = ['"EMAIL","FIRST_NAME","LAST_NAME","CONTACT_ID"', ...list.members.filter((x) => !removed.has(`${list.id}/${x.id}`)).map((x) => [x.email, x.firstName, x.lastName, x.id].map(csv).join(','))];
        return { status: 200, raw: `${lines.join('\n')}\n`, headers: { 'content-type': 'text/csv' } };
      }
      if (p === '/v3/marketing/field_definitions') {
        if (req.method === 'GET') return { status: 200, body: { custom_fields: fields, reserved_fields: [] } };
        const b = req.body as { name: string; field_type: string };
        if (!/^[A-Za-z0-9_]+$/.test(b.name)) return { status: 400, body: { errors: [{ field: 'name', message: 'invalid field name' }] } };
        const f = { id: `e${fields.length + 1}_T`, name: b.name, field_type: b.field_type };
        fields.push(f);
        fake.writes.push({ kind: 'field_created', data: f });
        return { status: 200, body: f };
      }
      if (p === '/v3/marketing/contacts' && req.method === 'PUT') {
        const b = req.body as { contacts: { email: string; custom_fields?: Record<string, string> }[] };
        if (b.contacts.length > 30_000) return { status: 400, body: { errors: [{ message: 'at most 30,000 contacts' }] } };
        for (const c of b.contacts) {
          const unknown = Object.keys(c.custom_fields ?? {}).find((k) => !fields.some((f) => f.id === k));
          if (unknown) return { status: 400, body: { errors: [{ field: 'custom_fields', message: `unknown custom field ${unknown}` }] } };
        }
        for (const c of b.contacts) fake.writes.push({ kind: 'fields', email: c.email, data: c.custom_fields });
        return { status: 202, body: { job_id: `job-${fake.writes.length}` } };
      }
      m = /^\/v3\/marketing\/lists\/([^/]+)\/contacts$/.exec(p);
      if (m && req.method === 'DELETE') {
        const list = findList(seed, m[1]);
        if (!list) return notFound;
        for (const id of (req.query.get('contact_ids') ?? '').split(',').filter(Boolean)) {
          removed.add(`${list.id}/${id}`);
          fake.writes.push({ kind: 'unsubscribe', listId: list.id, memberId: id });
        }
        return { status: 202, body: { job_id: 'remove-job' } };
      }
      return notFound;
    },
  });
}
