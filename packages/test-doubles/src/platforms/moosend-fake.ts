import { findList, startFakeServer, type TFakeSeed } from './fake-server';

const env = (Context: unknown, Code = 0, Error: string | null = null) => ({ status: 200, body: { Code, Error, Context } });

/** Moosend API v3 on 127.0.0.1 (`/v3`): `?apikey=`, `{Code, Error, Context}` envelopes, page paging (PageSize ≤ 1000), throttling as HTTP 200 `{Code: 429}`. */
export function startMoosendFake(seed: TFakeSeed) {
  const customFields = new Map<string, string[]>();
  const unsubscribed = new Set<string>();
  return startFakeServer({
    seed,
    pathPrefix: '/v3',
    authorise: (req) => (req.query.get('apikey') === seed.apiKey ? null : env(null, 102, 'API KEY is invalid')),
    throttle: () => env(null, 429, 'Too many requests'),
    route: (req, fake) => {
      const p = req.path;
      let m = /^\/lists\/(\d+)\/(\d+)\.json$/.exec(p);
      if (m) {
        const page = Number(m[1]);
        const size = Math.min(Number(m[2]), 100);
        return env({
          MailingLists: seed.lists.slice((page - 1) * size, page * size).map((l) => ({ ID: l.id, Name: l.name, ActiveMemberCount: l.members.length })),
          Paging: { PageSize: size, CurrentPage: page, TotalResults: seed.lists.length, TotalPageCount: Math.max(1, Math.ceil(seed.lists.length / size)) },
        });
      }
      m = /^\/lists\/([^/]+)\/subscribers\/Subscribed\.json$/.exec(p);
      if (m) {
        const list = findList(seed, m[1]);
        if (!list) return env(null, 404, 'MAILING_LIST_NOT_FOUND');
        const size = Number(req.query.get('PageSize') ?? 500);
        if (size > 1000) return env(null, 400, 'PageSize must be at most 1000');
        const page = Number(req.query.get('Page') ?? 1);
        const active = list.members.filter((x) => !unsubscribed.has(`${list.id}/${x.email}`));
        return env({
          Subscribers: active.slice((page - 1) * size, page * size).map((x) => ({ ID: x.id, Email: x.email, Name: `${x.firstName} ${x.lastName}` })),
          Paging: { PageSize: size, CurrentPage: page, TotalResults: active.length, TotalPageCount: Math.max(1, Math.ceil(active.length / size)) },
        });
      }
      m = /^\/lists\/([^/]+)\/details\.json$/.exec(p);
      if (m) return env({ ID: m[1], CustomFieldsDefinition: (customFields.get(m[1]!) ?? []).map((Name) => ({ Name, Type: 0 })) });
      m = /^\/lists\/([^/]+)\/customfields\/create\.json$/.exec(p);
      if (m) {
        const name = (req.body as { Name: string }).Name;
        customFields.set(m[1]!, [...(customFields.get(m[1]!) ?? []), name]);
        fake.writes.push({ kind: 'field_created', listId: m[1], data: { name } });
        return env(`field-${name}`);
      }
      m = /^\/subscribers\/([^/]+)\/(subscribe|unsubscribe)\.json$/.exec(p);
      if (m && req.method === 'POST') {
        const list = findList(seed, m[1]);
        const b = req.body as { Email: string; CustomFields?: string[] };
        if (!list) return env(null, 404, 'MAILING_LIST_NOT_FOUND');
        if (m[2] === 'unsubscribe') {
          unsubscribed.add(`${list.id}/${b.Email}`);
          fake.writes.push({ kind: 'unsubscribe', listId: list.id, email: b.Email });
          return env(null);
        }
        const defined = customFields.get(list.id) ?? [];
        const unknown = (b.CustomFields ?? []).map((c) => c.split('=')[0]!).find((n) => !defined.includes(n));
        if (unknown) return env(null, 400, `Custom field ${unknown} does not exist`);
        fake.writes.push({ kind: 'fields', listId: list.id, email: b.Email, data: b.CustomFields });
        return env({ Email: b.Email });
      }
      return env(null, 404, 'Not found');
    },
  });
}
