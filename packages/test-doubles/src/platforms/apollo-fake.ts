import { startFakeServer, type TFakeSeed } from './fake-server';

const PER_PAGE_CAP = 100;
const PAGE_CAP = 500;
const BULK_CAP = 1000;

/**
 * Apollo on 127.0.0.1 (`/api/v1`): `X-Api-Key` (a wrong key: 401; `nonMasterKey`: 403 on master-key endpoints, as
 * Apollo answers a non-master key). Seed lists are contact labels. `GET /labels`, `POST /contacts/search`
 * (`contact_label_ids`, `page` ≤ 500, `per_page` ≤ 100, `pagination.total_pages`), typed custom fields, bulk
 * updates (≤ 1000), contact read / update with `label_names` (recorded), and a 429 with `retry-after` and the
 * `x-*-requests-left` headers.
 */
export function startApolloFake(seed: TFakeSeed, opts: { nonMasterKey?: string } = {}) {
  const fields: { id: string; name: string; type: string; modality: string }[] = [];
  const labelNames = new Map(seed.lists.map((l) => [l.id, l.name]));
  const labelsOf = new Map<string, Set<string>>();
  const seeded = new Set<string>();
  /** Seed lists (also ones a test adds later) give their members the label once. */
  const ensure = () => {
    for (const l of seed.lists) {
      if (!labelNames.has(l.id)) labelNames.set(l.id, l.name);
      for (const m of l.members) {
        if (seeded.has(`${l.id}/${m.id}`)) continue;
        seeded.add(`${l.id}/${m.id}`);
        (labelsOf.get(m.id) ?? labelsOf.set(m.id, new Set()).get(m.id)!).add(l.id);
      }
    }
  };
  const apiError = (status: number, error: string) => ({ status, body: { error } });
  return startFakeServer({
    seed,
    pathPrefix: '/api/v1',
    authorise: (req) => {
      const key = req.headers['x-api-key'];
      if (opts.nonMasterKey && key === opts.nonMasterKey) return { status: 403, body: { error: `api/v1${req.path} is not accessible with this api_key`, error_code: 'API_INACCESSIBLE' } };
      return key === seed.apiKey ? null : apiError(401, 'Invalid access credentials.');
    },
    throttle: () => ({
      status: 429,
      headers: { 'retry-after': '1', 'x-rate-limit-minute': '200', 'x-minute-requests-left': '0', 'x-hourly-requests-left': '350', 'x-24-hour-requests-left': '1900' },
      body: { message: 'The maximum number of api calls allowed for api/v1/contacts/search is 200 times per minute. Please upgrade your plan from https://app.apollo.io/#/settings/plans/upgrade.' },
    }),
    route: (req, fake) => {
      ensure();
      const p = req.path;
      const all = new Map(seed.lists.flatMap((l) => l.members).map((m) => [m.id, m]));
      if (p === '/labels' && req.method === 'GET') {
        return { status: 200, body: [...labelNames].map(([id, name]) => ({ id, name, modality: 'contacts', cached_count: [...labelsOf.values()].filter((s) => s.has(id)).length })) };
      }
      if (p === '/contacts/search' && req.method === 'POST') {
        const b = (req.body ?? {}) as { contact_label_ids?: string[]; page?: number; per_page?: number };
        const page = b.page ?? 1;
        const perPage = b.per_page ?? 25;
        if (!Number.isInteger(perPage) || perPage < 1 || perPage > PER_PAGE_CAP) return apiError(422, `per_page must be between 1 and ${PER_PAGE_CAP}`);
        if (!Number.isInteger(page) || page < 1 || page > PAGE_CAP) return apiError(422, `page must be between 1 and ${PAGE_CAP}`);
        const wanted = b.contact_label_ids ?? [];
        const hits = [...all.values()].filter((m) => wanted.length === 0 || wanted.some((id) => labelsOf.get(m.id)?.has(id)));
        return {
          status: 200,
          body: {
            contacts: hits.slice((page - 1) * perPage, page * perPage).map((m) => ({ id: m.id, email: m.email, first_name: m.firstName, last_name: m.lastName, label_ids: [...(labelsOf.get(m.id) ?? [])] })),
            pagination: { page, per_page: perPage, total_entries: hits.length, total_pages: Math.ceil(hits.length / perPage) },
          },
        };
      }
      if (p === '/typed_custom_fields') {
        if (req.method === 'GET') return { status: 200, body: { typed_custom_fields: fields } };
        const b = req.body as { name?: string; type?: string; modality?: string } | null;
        if (!b?.name || !b.type || !b.modality) return apiError(422, 'name, type and modality are required');
        if (fields.some((f) => f.name === b.name && f.modality === b.modality)) return apiError(422, 'A field with this name already exists');
        const f = { id: `6${String(fields.length + 1).padStart(23, '0')}`, name: b.name, type: b.type, modality: b.modality };
        fields.push(f);
        fake.writes.push({ kind: 'field_created', data: f });
        return { status: 200, body: { typed_custom_field: f } };
      }
      if (p === '/contacts/bulk_update' && req.method === 'POST') {
        const attrs = (req.body as { contact_attributes?: { id: string; typed_custom_fields?: Record<string, string> }[] } | null)?.contact_attributes ?? [];
        if (attrs.length === 0 || attrs.length > BULK_CAP) return apiError(422, `contact_attributes must hold 1 to ${BULK_CAP} contacts`);
        for (const a of attrs) {
          const unknown = Object.keys(a.typed_custom_fields ?? {}).find((k) => !fields.some((f) => f.id === k));
          if (unknown) return apiError(422, `Unknown typed custom field ${unknown}`);
        }
        for (const a of attrs) fake.writes.push({ kind: 'fields', memberId: a.id, email: all.get(a.id)?.email, data: a.typed_custom_fields });
        return { status: 200, body: { contacts: attrs.map((a) => ({ id: a.id })) } };
      }
      const m = /^\/contacts\/([^/]+)$/.exec(p);
      if (m) {
        const c = all.get(m[1]!);
        if (!c) return apiError(404, 'Contact not found');
        if (req.method === 'GET') return { status: 200, body: { contact: { id: c.id, email: c.email, label_ids: [...(labelsOf.get(c.id) ?? [])] } } };
        if (req.method === 'PUT') {
          const names = (req.body as { label_names?: string[] } | null)?.label_names;
          if (names) {
            const ids = names.map((n) => [...labelNames].find(([, v]) => v === n)?.[0] ?? (labelNames.set(`lbl-${labelNames.size + 1}`, n), `lbl-${labelNames.size}`));
            labelsOf.set(c.id, new Set(ids));
            fake.writes.push({ kind: 'unsubscribe', memberId: c.id, email: c.email, data: names });
          }
          return { status: 200, body: { contact: { id: c.id, label_ids: [...(labelsOf.get(c.id) ?? [])] } } };
        }
      }
      return apiError(404, 'Not found');
    },
  });
}
