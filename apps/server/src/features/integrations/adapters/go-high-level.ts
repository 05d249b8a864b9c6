import { createJsonClient, parseRetryAfter, RemoteError, trimBase, type TThrottleRule } from './http';
import { RESULT_FIELDS, UNDELIVERABLE_TAG, type TAdapterContext, type TIntegrationAdapter } from './types';

const PAGE = 100; // contacts per search page (the adapter's choice, under the platform's `pageLimit` cap)
export const GHL_VERSION = '2021-07-28';

/**
 * 429: `Retry-After` when sent, else the burst window `X-RateLimit-Interval-Milliseconds` (100 per 10 s); when the
 * daily allowance is spent (`X-RateLimit-Daily-Remaining: 0`) the job waits an hour and looks again.
 */
export const ghlThrottle: TThrottleRule = (res) => {
  if (res.status !== 429) return null;
  const retry = parseRetryAfter(res.headers.get('retry-after'));
  if (retry !== null) return retry;
  if (res.headers.get('x-ratelimit-daily-remaining') === '0') return 3_600_000;
  return Number(res.headers.get('x-ratelimit-interval-milliseconds')) || 10_000;
};

type TGhlContact = { id: string; email?: string | null; firstName?: string | null; lastName?: string | null; searchAfter?: unknown[] };

/**
 * GoHighLevel API v2 (`services.leadconnectorhq.com`, Bearer private integration token plus the `Version` header;
 * every call names the location). Tags are the lists: `GET /locations/{id}/tags`; a tag's contacts come from
 * `POST /contacts/search` filtered on the tag, paged with `searchAfter` (the cursor each contact carries; the old
 * `GET /contacts/?startAfterId` is deprecated). Write-back: custom fields (`/locations/{id}/customFields`, then
 * `PUT /contacts/{id}`); "unsubscribe" removes the list's tag and adds "Verilead Undeliverable".
 */
export function createGoHighLevelAdapter(ctx: TAdapterContext): TIntegrationAdapter {
  const pageLimit = Math.min(ctx.pageSize ?? PAGE, PAGE);
  const base = trimBase(ctx.baseUrls.go_high_level ?? 'https://services.leadconnectorhq.com');
  const location = encodeURIComponent(ctx.credentials.accountId ?? '');
  const request = createJsonClient(ctx, {
    authHeaders: () => ({ authorization: `Bearer ${ctx.credentials.apiKey}`, version: GHL_VERSION }),
    throttle: ghlThrottle,
    errorMessage: (b) => {
      const m = (b as { message?: string | string[] } | null)?.message;
      return Array.isArray(m) ? m.join(' ') : m;
    },
  });
  const fieldIds = async (): Promise<Map<string, string>> => {
    const body = (await request({ url: `${base}/locations/${location}/customFields?model=contact` })).body as { customFields?: { id: string; name: string }[] };
    return new Map((body.customFields ?? []).map((f) => [f.name, f.id]));
  };
  const tags = async () => ((await request({ url: `${base}/locations/${location}/tags` })).body as { tags?: { id: string; name: string }[] }).tags ?? [];
  return {
    platform: 'go_high_level',
    async verifyCredentials() {
      await tags();
      return { accountLabel: `Location ${ctx.credentials.accountId ?? ''}` };
    },
    async listLists() {
      return (await tags()).map((t) => ({ id: t.name, name: t.name, memberCount: null }));
    },
    async listMembers(tag, cursor) {
      const body = (
        await request({
          method: 'POST',
          url: `${base}/contacts/search`,
          body: { locationId: ctx.credentials.accountId, pageLimit, filters: [{ field: 'tags', operator: 'contains', value: tag }], ...(cursor ? { searchAfter: JSON.parse(cursor) as unknown[] } : {}) },
        })
      ).body as { contacts?: TGhlContact[] };
      const contacts = body.contacts ?? [];
      const last = contacts[contacts.length - 1];
      return {
        members: contacts.map((c) => ({ id: c.id, email: c.email ?? '', firstName: c.firstName ?? '', lastName: c.lastName ?? '' })),
        nextCursor: contacts.length === pageLimit && last?.searchAfter ? JSON.stringify(last.searchAfter) : null,
      };
    },
    async prepareWriteBack(_tag, mode) {
      if (!mode.append) return;
      const have = await fieldIds();
      for (const name of Object.values(RESULT_FIELDS)) {
        if (!have.has(name)) await request({ method: 'POST', url: `${base}/locations/${location}/customFields`, body: { name, dataType: 'TEXT', model: 'contact' } });
      }
    },
    async writeBack(tag, items, mode, written) {
      const ids = mode.append ? await fieldIds() : new Map<string, string>();
      for (const it of items) {
        const contact = `${base}/contacts/${encodeURIComponent(it.member.id)}`;
        if (mode.append) {
          const values: [string, string][] = [
            [RESULT_FIELDS.status, it.status],
            [RESULT_FIELDS.safeToSend, it.safeToSend ? 'yes' : 'no'],
            [RESULT_FIELDS.reason, it.reason],
          ];
          const customFields = values.flatMap(([name, v]) => (ids.get(name) ? [{ id: ids.get(name)!, field_value: v }] : []));
          if (customFields.length < values.length) throw new RemoteError('GoHighLevel did not keep the Verilead custom fields', 400);
          await request({ method: 'PUT', url: contact, body: { customFields } });
        }
        if (mode.unsubscribe && it.undeliverable) {
          await request({ method: 'POST', url: `${contact}/tags`, body: { tags: [UNDELIVERABLE_TAG] } });
          await request({ method: 'DELETE', url: `${contact}/tags`, body: { tags: [tag] } });
        }
        written?.([it.member.id]);
      }
    },
  };
}
