import { subscriberHash } from '../adapters/mailchimp';
import { findList, notFound, readLimit, startFakeServer, type TFakeSeed } from './fake-server';

/** Mailchimp Marketing API 3.0 on 127.0.0.1 (`/3.0`): Basic auth with any user and the key, offset paging (count ≤ 1000), bare 429. */
export function startMailchimpFake(seed: TFakeSeed) {
  const mergeFields = new Map<string, { tag: string; name: string }[]>();
  const status = new Map<string, string>();
  return startFakeServer({
    seed,
    pathPrefix: '/3.0',
    authorise: (req) => {
      const m = /^Basic (.+)$/.exec(req.headers.authorization ?? '');
      const key = m ? Buffer.from(m[1]!, 'base64').toString('utf8').split(':').slice(1).join(':') : '';
      if (key === seed.apiKey) return null;
      return { status: 401, body: { type: 'https://mailchimp.com/developer/marketing/docs/errors/', title: 'API Key Invalid', status: 401, detail: 'Your API key may be invalid, or you\'ve attempted to access the wrong datacenter.' } };
    },
    // Mailchimp sends no rate-limit headers: a bare 429.
    throttle: () => ({ status: 429, body: { title: 'Too Many Requests', status: 429, detail: 'You have exceeded the limit of 10 simultaneous connections.' } }),
    route: (req, fake) => {
      const p = req.path;
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
