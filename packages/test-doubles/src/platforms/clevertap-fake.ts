import { findList, startFakeServer, type TFakeSeed } from './fake-server';

export const CLEVERTAP_FAKE_ACCOUNT_ID = 'W88-R65-9Z7Z';
export const CLEVERTAP_FAKE_REGION = 'in1';

const fail = (status: number, error: string) => ({ status, body: { status: 'fail', error, code: status } });

/**
 * CleverTap on 127.0.0.1, one server for every region (`/{region}/1/...`; the app's base URL is
 * `http://127.0.0.1:port/{region}/1`). The account lives in one region: the right account id and passcode sent to
 * another region are refused as on the real service. Seed lists are events (list id = event name). Profiles by event
 * with the cursor download (`batch_size` ≤ 5000, `from`/`to` as YYYYMMDD), `POST /upload` (≤ 1000 records; records
 * unsubscribes `MSG-email: false` and property writes), a bare 429 "Too many concurrent requests".
 */
export function startClevertapFake(seed: TFakeSeed, opts: { accountId?: string; region?: string } = {}) {
  const accountId = opts.accountId ?? CLEVERTAP_FAKE_ACCOUNT_ID;
  const region = opts.region ?? CLEVERTAP_FAKE_REGION;
  const cursors = new Map<string, { listId: string; offset: number; size: number }>();
  let nextCursor = 0;
  const newCursor = (state: { listId: string; offset: number; size: number }) => {
    const id = Buffer.from(`ct-${(nextCursor += 1)}-${state.listId}`).toString('base64url');
    cursors.set(id, state);
    return id;
  };
  const split = (path: string) => /^\/([a-z0-9]+)\/1(\/.*)$/.exec(path);
  return startFakeServer({
    seed,
    authorise: (req) => {
      const m = split(req.path);
      if (!m) return fail(404, 'Not found');
      if (m[1] !== region || req.headers['x-clevertap-account-id'] !== accountId || req.headers['x-clevertap-passcode'] !== seed.apiKey) {
        return fail(401, 'Account ID and/or Passcode is incorrect');
      }
      return null;
    },
    throttle: () => fail(429, 'Too many concurrent requests'),
    route: (req, fake) => {
      const p = split(req.path)![2];
      const all = seed.lists.flatMap((l) => l.members);
      if (p === '/profile.json' && req.method === 'GET') {
        const key = req.query.get('identity') ?? req.query.get('email');
        const m = all.find((x) => x.id === key || x.email === key);
        return m ? { status: 200, body: { status: 'success', record: { identity: m.id, email: m.email, name: `${m.firstName} ${m.lastName}` } } } : { status: 200, body: { status: 'fail', error: 'Profile not found', code: 404 } };
      }
      if (p === '/profiles.json' && req.method === 'POST') {
        const size = Number(req.query.get('batch_size') ?? 10);
        if (!Number.isInteger(size) || size < 1 || size > 5000) return fail(400, 'batch_size must be between 1 and 5000');
        const b = req.body as { event_name?: string; from?: number; to?: number } | null;
        if (!b?.event_name) return fail(400, 'event_name is required');
        if (!/^\d{8}$/.test(String(b.from)) || !/^\d{8}$/.test(String(b.to)) || Number(b.from) > Number(b.to)) return fail(400, 'from and to must be dates as YYYYMMDD');
        return { status: 200, body: { status: 'success', cursor: newCursor({ listId: b.event_name, offset: 0, size }) } };
      }
      if (p === '/profiles.json' && req.method === 'GET') {
        const state = cursors.get(req.query.get('cursor') ?? '');
        if (!state) return fail(400, 'Invalid cursor');
        const members = findList(seed, state.listId)?.members ?? [];
        const records = members.slice(state.offset, state.offset + state.size).map((m) => ({ identity: m.id, email: m.email, name: `${m.firstName} ${m.lastName}`, profileData: {} }));
        const more = state.offset + state.size < members.length;
        return { status: 200, body: { status: 'success', records, ...(more ? { next_cursor: newCursor({ ...state, offset: state.offset + state.size }) } : {}) } };
      }
      if (p === '/upload' && req.method === 'POST') {
        const d = (req.body as { d?: { type?: string; identity?: string; profileData?: Record<string, unknown> }[] } | null)?.d;
        if (!Array.isArray(d) || d.length === 0) return fail(400, 'd must be a non-empty array');
        if (d.length > 1000) return fail(400, 'At most 1000 records per upload');
        const unprocessed: unknown[] = [];
        for (const r of d) {
          if (r.type !== 'profile' || !r.identity || !r.profileData) {
            unprocessed.push({ status: 'fail', code: 509, error: 'Invalid record', record: r });
            continue;
          }
          const m = all.find((x) => x.id === r.identity);
          const { 'MSG-email': msgEmail, ...props } = r.profileData;
          if (msgEmail === false) fake.writes.push({ kind: 'unsubscribe', memberId: r.identity, email: m?.email });
          if (Object.keys(props).length > 0) fake.writes.push({ kind: 'fields', memberId: r.identity, email: m?.email, data: props });
        }
        return { status: 200, body: { status: 'success', processed: d.length - unprocessed.length, unprocessed } };
      }
      return fail(404, 'Not found');
    },
  });
}
