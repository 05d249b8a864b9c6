import { createJsonClient, parseRetryAfter, trimBase, type TThrottleRule } from './http';
import { RESULT_FIELDS, UNDELIVERABLE_TAG, type TAdapterContext, type TIntegrationAdapter } from './types';

const PER_PAGE = 100; // `per_page` cap of contacts search
const MAX_PAGE = 500; // Apollo shows at most 500 pages (50,000 contacts) of one search
const BULK = 1_000; // contacts per bulk update

/** 429 with `retry-after`; without it, a spent minute / hour window (`x-minute-requests-left`, `x-hourly-requests-left`). */
export const apolloThrottle: TThrottleRule = (res) => {
  if (res.status !== 429) return null;
  const retry = parseRetryAfter(res.headers.get('retry-after'));
  if (retry !== null) return retry;
  if (res.headers.get('x-hourly-requests-left') === '0') return 3_600_000;
  return 60_000;
};

type TLabel = { id: string; name: string; modality?: string; cached_count?: number };

/**
 * Apollo (`api.apollo.io/api/v1`, `X-Api-Key`; labels, custom fields and bulk updates need a master key, which
 * `GET /labels` proves). Contact labels are the lists; `POST /contacts/search` with `contact_label_ids` pages them
 * (`page`, `per_page` ≤ 100, at most 500 pages). Apollo has no unsubscribe: undeliverable contacts get the label
 * "Verilead Undeliverable", and results go to typed custom fields (`POST /contacts/bulk_update`).
 */
export function createApolloAdapter(ctx: TAdapterContext): TIntegrationAdapter {
  const perPage = Math.min(ctx.pageSize ?? PER_PAGE, PER_PAGE);
  const base = trimBase(ctx.baseUrls.apollo ?? 'https://api.apollo.io/api/v1');
  const request = createJsonClient(ctx, {
    authHeaders: () => ({ 'x-api-key': ctx.credentials.apiKey, 'cache-control': 'no-cache' }),
    throttle: apolloThrottle,
    errorMessage: (b) => {
      const e = b as { error?: string; error_code?: string; message?: string } | null;
      // A plain key reaches search but not labels, custom fields or bulk updates.
      if (e?.error_code === 'API_INACCESSIBLE') return `${e.error ?? 'not accessible'}: please use a master API key`;
      return e?.error ?? e?.message;
    },
  });
  const labels = async (): Promise<TLabel[]> => {
    const body = (await request({ url: `${base}/labels` })).body as TLabel[] | { labels?: TLabel[] };
    return Array.isArray(body) ? body : (body.labels ?? []);
  };
  const fieldIds = async (): Promise<Map<string, string>> => {
    const body = (await request({ url: `${base}/typed_custom_fields` })).body as { typed_custom_fields?: { id: string; name: string; modality?: string }[] };
    return new Map((body.typed_custom_fields ?? []).filter((f) => !f.modality || f.modality === 'contact').map((f) => [f.name, f.id]));
  };
  return {
    platform: 'apollo',
    async verifyCredentials() {
      await labels();
      return { accountLabel: 'Apollo team' };
    },
    async listLists() {
      return (await labels()).filter((l) => !l.modality || l.modality === 'contacts').map((l) => ({ id: l.id, name: l.name, memberCount: l.cached_count ?? null }));
    },
    async listMembers(labelId, cursor) {
      const page = cursor ? Number(cursor) : 1;
      const body = (await request({ method: 'POST', url: `${base}/contacts/search`, body: { contact_label_ids: [labelId], page, per_page: perPage } })).body as {
        contacts?: { id: string; email?: string | null; first_name?: string | null; last_name?: string | null }[];
        pagination?: { total_pages?: number };
      };
      const totalPages = Math.min(body.pagination?.total_pages ?? page, MAX_PAGE);
      return {
        members: (body.contacts ?? []).map((c) => ({ id: c.id, email: c.email ?? '', firstName: c.first_name ?? '', lastName: c.last_name ?? '' })),
        nextCursor: page < totalPages ? String(page + 1) : null,
      };
    },
    async prepareWriteBack(_labelId, mode) {
      if (!mode.append) return;
      const have = await fieldIds();
      for (const name of Object.values(RESULT_FIELDS)) {
        if (!have.has(name)) await request({ method: 'POST', url: `${base}/typed_custom_fields`, body: { name, type: 'string', modality: 'contact' } });
      }
    },
    async writeBack(_labelId, items, mode, written) {
      if (mode.append) {
        const ids = await fieldIds();
        const attrs = items.map((it) => {
          const typed_custom_fields: Record<string, string> = {};
          const put = (name: string, v: string) => {
            const id = ids.get(name);
            if (id) typed_custom_fields[id] = v;
          };
          put(RESULT_FIELDS.status, it.status);
          put(RESULT_FIELDS.safeToSend, it.safeToSend ? 'yes' : 'no');
          put(RESULT_FIELDS.reason, it.reason);
          return { id: it.member.id, typed_custom_fields };
        });
        for (let i = 0; i < attrs.length; i += BULK) {
          await request({ method: 'POST', url: `${base}/contacts/bulk_update`, body: { contact_attributes: attrs.slice(i, i + BULK) } });
          // Members that get no label are done once their fields are written.
          written?.(items.slice(i, i + BULK).filter((it) => !(mode.unsubscribe && it.undeliverable)).map((it) => it.member.id));
        }
      }
      const undeliverable = mode.unsubscribe ? items.filter((it) => it.undeliverable) : [];
      if (undeliverable.length === 0) return;
      // `label_names` is the contact's whole set of lists: keep the ones it has and add ours.
      const names = new Map((await labels()).map((l) => [l.id, l.name]));
      for (const it of undeliverable) {
        const url = `${base}/contacts/${encodeURIComponent(it.member.id)}`;
        const contact = ((await request({ url })).body as { contact?: { label_ids?: string[] } }).contact;
        const current = (contact?.label_ids ?? []).map((id) => names.get(id)).filter((n): n is string => !!n);
        if (!current.includes(UNDELIVERABLE_TAG)) await request({ method: 'PUT', url, body: { label_names: [...current, UNDELIVERABLE_TAG] } });
        written?.([it.member.id]);
      }
    },
  };
}
