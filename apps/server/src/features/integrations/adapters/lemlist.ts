import { createJsonClient, parseRetryAfter, RemoteError, trimBase, type TThrottleRule } from './http';
import type { TAdapterContext, TIntegrationAdapter, TRemoteMember } from './types';

const PAGE = 1_000; // leads handed over per import page (the export itself is one response)
const VARS = { status: 'verileadStatus', safeToSend: 'verileadSafeToSend', reason: 'verileadReason' } as const;

/** 429 with `Retry-After` (seconds), else `X-RateLimit-Reset`, which lemlist sends as a date string. */
export const lemlistThrottle: TThrottleRule = (res) => {
  if (res.status !== 429) return null;
  return parseRetryAfter(res.headers.get('retry-after')) ?? parseRetryAfter(res.headers.get('x-ratelimit-reset')) ?? 2_000;
};

type TLead = { _id?: string; leadId?: string; id?: string; email?: string | null; firstName?: string | null; lastName?: string | null };

/**
 * lemlist (`api.lemlist.com/api`, Basic authentication with an empty user name and the key as password; Bearer is
 * refused). Campaigns are the lists (`GET /campaigns?version=v2`, paged). A campaign's leads come from its export
 * (`GET /campaigns/{id}/export/leads?state=all&format=json`: the whole campaign in one response; without `state` it is
 * empty), handed over in pages of 1,000 (cursor: the offset). Write-back: custom variables on the lead
 * (`PATCH /leads/{id}/variables`, or `POST` the first time, as query parameters) and unsubscribing the lead from the
 * campaign (`DELETE /campaigns/{id}/leads/{email}`). 20 requests per 2 s per key; 429 with `Retry-After`.
 */
export function createLemlistAdapter(ctx: TAdapterContext): TIntegrationAdapter {
  const page = Math.min(ctx.pageSize ?? PAGE, PAGE);
  const base = trimBase(ctx.baseUrls.lemlist ?? 'https://api.lemlist.com/api');
  const request = createJsonClient(ctx, {
    authHeaders: () => ({ authorization: `Basic ${Buffer.from(`:${ctx.credentials.apiKey}`).toString('base64')}` }),
    throttle: lemlistThrottle,
    errorMessage: (b) => (typeof b === 'string' ? b.slice(0, 300) : ((b as { message?: string; error?: string } | null)?.message ?? (b as { error?: string } | null)?.error)),
  });
  return {
    platform: 'lemlist',
    async verifyCredentials() {
      const team = (await request({ url: `${base}/team` })).body as { name?: string } | null;
      return { accountLabel: team?.name ?? 'lemlist team' };
    },
    async listLists() {
      const out = [];
      for (let p = 1; ; p += 1) {
        type TCampaign = { _id: string; name: string };
        const raw = (await request({ url: `${base}/campaigns?version=v2&limit=100&page=${p}` })).body as TCampaign[] | { campaigns: TCampaign[]; pagination?: { totalPage?: number } };
        // v2 answers `{campaigns, pagination}`; the older shape is a bare array of one page.
        const body = Array.isArray(raw) ? { campaigns: raw, pagination: undefined } : raw;
        out.push(...body.campaigns.map((c) => ({ id: c._id, name: c.name, memberCount: null })));
        if (!body.pagination || p >= (body.pagination.totalPage ?? 1) || body.campaigns.length === 0) return out;
      }
    },
    async listMembers(campaignId, cursor) {
      const from = cursor ? Number(cursor) : 0;
      const leads = (await request({ url: `${base}/campaigns/${encodeURIComponent(campaignId)}/export/leads?state=all&format=json` })).body as TLead[] | null;
      const all = Array.isArray(leads) ? leads : [];
      const members: TRemoteMember[] = all
        .slice(from, from + page)
        .map((l) => ({ id: String(l._id ?? l.leadId ?? l.id ?? l.email ?? ''), email: l.email ?? '', firstName: l.firstName ?? '', lastName: l.lastName ?? '' }))
        .filter((m) => m.id !== '');
      return { members, nextCursor: from + page < all.length ? String(from + page) : null };
    },
    async prepareWriteBack() {
      // lemlist variables live on each lead: they are added with the first write.
    },
    async writeBack(campaignId, items, mode, written) {
      for (const it of items) {
        if (mode.append) {
          const q = new URLSearchParams({ [VARS.status]: it.status, [VARS.safeToSend]: it.safeToSend ? 'yes' : 'no', [VARS.reason]: it.reason || '-' }).toString();
          const url = `${base}/leads/${encodeURIComponent(it.member.id)}/variables?${q}`;
          try {
            await request({ method: 'PATCH', url });
          } catch (err) {
            // PATCH updates existing variables only; the first time they are added with POST.
            if (!(err instanceof RemoteError) || err.httpStatus !== 400) throw err;
            await request({ method: 'POST', url });
          }
        }
        if (mode.unsubscribe && it.undeliverable && it.member.email) {
          try {
            await request({ method: 'DELETE', url: `${base}/campaigns/${encodeURIComponent(campaignId)}/leads/${encodeURIComponent(it.member.email)}` });
          } catch (err) {
            // Already out of the campaign: nothing left to do.
            if (!(err instanceof RemoteError) || err.httpStatus !== 404) throw err;
          }
        }
        written?.([it.member.id]);
      }
    },
  };
}
