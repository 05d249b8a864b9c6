import { createJsonClient, parseRetryAfter, trimBase, type TThrottleRule } from './http';
import { RESULT_FIELDS, type TAdapterContext, type TIntegrationAdapter } from './types';

const MEMBERSHIP_PAGE = 250; // memberships `limit` cap
const BATCH = 100; // batch read / update cap
const GROUP = 'verilead_information';
const PROPS = { status: 'verilead_status', safeToSend: 'verilead_safe_to_send', reason: 'verilead_reason' } as const;

/** 429 with Retry-After, else the rolling window of `X-HubSpot-RateLimit-Interval-Milliseconds`. */
const hubspotThrottle: TThrottleRule = (res) => {
  if (res.status !== 429) return null;
  return parseRetryAfter(res.headers.get('retry-after')) ?? (Number(res.headers.get('x-hubspot-ratelimit-interval-milliseconds')) || 10_000);
};

/** HubSpot CRM v3 (private-app token, Bearer): lists search, memberships (cursor) then batch read of contacts. */
export function createHubspotAdapter(ctx: TAdapterContext): TIntegrationAdapter {
  const memberPage = Math.min(ctx.pageSize ?? MEMBERSHIP_PAGE, MEMBERSHIP_PAGE);
  const base = trimBase(ctx.baseUrls.hubspot ?? 'https://api.hubapi.com');
  const request = createJsonClient(ctx, {
    authHeaders: () => ({ authorization: `Bearer ${ctx.credentials.apiKey}` }),
    throttle: hubspotThrottle,
    errorMessage: (b) => (b as { message?: string } | null)?.message,
  });
  return {
    platform: 'hubspot',
    async verifyCredentials() {
      await request({ url: `${base}/crm/v3/objects/contacts?limit=1` });
      const info = (await request({ url: `${base}/account-info/v3/details` })).body as { portalId?: number };
      return { accountLabel: info.portalId ? `Portal ${info.portalId}` : 'HubSpot account' };
    },
    async listLists() {
      const out = [];
      for (let offset = 0; ; ) {
        const body = (await request({ method: 'POST', url: `${base}/crm/v3/lists/search`, body: { query: '', count: 500, offset, additionalProperties: ['hs_list_size'] } })).body as {
          lists: { listId: string; name: string; additionalProperties?: { hs_list_size?: string } }[];
          hasMore: boolean;
          offset: number;
        };
        out.push(...body.lists.map((l) => ({ id: String(l.listId), name: l.name, memberCount: l.additionalProperties?.hs_list_size ? Number(l.additionalProperties.hs_list_size) : null })));
        if (!body.hasMore) return out;
        offset = body.offset;
      }
    },
    async listMembers(listId, cursor) {
      const page = (await request({ url: `${base}/crm/v3/lists/${encodeURIComponent(listId)}/memberships?limit=${memberPage}${cursor ? `&after=${encodeURIComponent(cursor)}` : ''}` })).body as {
        results: { recordId: string }[];
        paging?: { next?: { after: string } };
      };
      const members = [];
      for (let i = 0; i < page.results.length; i += BATCH) {
        const inputs = page.results.slice(i, i + BATCH).map((r) => ({ id: r.recordId }));
        const read = (await request({ method: 'POST', url: `${base}/crm/v3/objects/contacts/batch/read`, body: { properties: ['email', 'firstname', 'lastname'], inputs } })).body as {
          results: { id: string; properties: { email?: string | null; firstname?: string | null; lastname?: string | null } }[];
        };
        for (const c of read.results) {
          if (c.properties.email) members.push({ id: c.id, email: c.properties.email, firstName: c.properties.firstname ?? '', lastName: c.properties.lastname ?? '' });
        }
      }
      return { members, nextCursor: page.paging?.next?.after ?? null };
    },
    async prepareWriteBack(_listId, mode) {
      if (!mode.append) return;
      const ok409 = async (req: Parameters<typeof request>[0]) => {
        try {
          await request(req);
        } catch (err) {
          if ((err as { httpStatus?: number }).httpStatus !== 409) throw err;
        }
      };
      await ok409({ method: 'POST', url: `${base}/crm/v3/properties/contacts/groups`, body: { name: GROUP, label: 'Verilead Information' } });
      for (const [k, name] of Object.entries(PROPS) as [keyof typeof PROPS, string][]) {
        await ok409({ method: 'POST', url: `${base}/crm/v3/properties/contacts`, body: { name, label: RESULT_FIELDS[k], type: 'string', fieldType: 'text', groupName: GROUP } });
      }
    },
    async writeBack(listId, items, mode) {
      for (let i = 0; i < items.length; i += BATCH) {
        const chunk = items.slice(i, i + BATCH);
        if (mode.append) {
          const inputs = chunk.map((it) => ({ id: it.member.id, properties: { [PROPS.status]: it.status, [PROPS.safeToSend]: it.safeToSend ? 'yes' : 'no', [PROPS.reason]: it.reason } }));
          await request({ method: 'POST', url: `${base}/crm/v3/objects/contacts/batch/update`, body: { inputs } });
        }
        const remove = chunk.filter((it) => it.undeliverable).map((it) => it.member.id);
        // Only static (MANUAL / SNAPSHOT) lists can lose members; HubSpot answers 400 for a DYNAMIC list.
        if (mode.unsubscribe && remove.length > 0) await request({ method: 'PUT', url: `${base}/crm/v3/lists/${encodeURIComponent(listId)}/memberships/remove`, body: remove });
      }
    },
  };
}
