import { Client } from '@hubspot/api-client';
import type { PropertyCreate } from '@hubspot/api-client/lib/codegen/crm/properties';
import { OutboundRefusedError } from '../../../platform/outbound-http/guard';
import { parseRetryAfter, RemoteError, trimBase, type TRemoteResponse, type TThrottleRule } from './http';
import { createSdkCaller, toHeaders } from './sdk-call';
import { RESULT_FIELDS, type TAdapterContext, type TIntegrationAdapter } from './types';

const MEMBERSHIP_PAGE = 250; // memberships `limit` cap
const BATCH = 100; // batch read / update cap
const GROUP = 'verilead_information';
const PROPS = { status: 'verilead_status', safeToSend: 'verilead_safe_to_send', reason: 'verilead_reason' } as const;

/**
 * Call-time options of every typed call. The SDK's generated APIs apply the client's configured middleware (its
 * headers and the `httpAgent`) only when a call passes middleware of its own; an empty list appended to them makes
 * every call go through the guarded agent.
 */
const VIA_AGENT = { middleware: [], middlewareMergeStrategy: 'append' as const };

/** 429 with Retry-After, else the rolling window of `X-HubSpot-RateLimit-Interval-Milliseconds`. */
export const hubspotThrottle: TThrottleRule = (res) => {
  if (res.status !== 429) return null;
  return parseRetryAfter(res.headers.get('retry-after')) ?? (Number(res.headers.get('x-hubspot-ratelimit-interval-milliseconds')) || 10_000);
};

/** The response inside the SDK's ApiException (`code`, `body`, `headers`); null when it never got one. */
function hubspotFailure(err: unknown): TRemoteResponse | null {
  const e = err as { code?: unknown; body?: unknown; headers?: unknown } | null;
  if (!e || typeof e.code !== 'number') return null;
  let body = e.body;
  if (typeof body === 'string') {
    try {
      body = JSON.parse(body);
    } catch {
      // a plain-text body stays as it is
    }
  }
  return { status: e.code, headers: toHeaders(e.headers), body };
}

/**
 * HubSpot CRM v3 through the official `@hubspot/api-client` (private-app token as its access token; `basePath` is
 * the injectable base URL; its limiter and retries stay off so the job's back-off decides): lists search,
 * memberships (cursor) then batch read of contacts.
 */
export function createHubspotAdapter(ctx: TAdapterContext): TIntegrationAdapter {
  const memberPage = Math.min(ctx.pageSize ?? MEMBERSHIP_PAGE, MEMBERSHIP_PAGE);
  const base = trimBase(ctx.baseUrls.hubspot ?? 'https://api.hubapi.com');
  // No `numberOfApiCallRetries` and no `limiterOptions`: the SDK neither retries nor queues.
  // Every SDK request goes through the guarded agent (node-fetch re-checks each redirect hop through it).
  const hubspot = new Client({ accessToken: ctx.credentials.apiKey, basePath: base, httpAgent: ctx.outbound.nodeAgent(new URL(base).protocol === 'http:' ? 'http:' : 'https:') });
  const call = createSdkCaller(ctx, {
    baseUrl: base,
    readFailure: hubspotFailure,
    throttle: hubspotThrottle,
    errorMessage: (b) => (b as { message?: string } | null)?.message,
  });
  /**
   * Endpoints the SDK has no typed API for, through the guarded client (the SDK's `apiRequest` takes no agent).
   * Failures thrown as the typed APIs throw them.
   */
  const raw = async (path: string): Promise<unknown> => {
    let res: Response;
    try {
      res = await ctx.outbound.fetch(`${base}${path}`, { headers: { authorization: `Bearer ${ctx.credentials.apiKey}`, accept: 'application/json' }, signal: AbortSignal.timeout(30_000) });
    } catch (err) {
      if (err instanceof OutboundRefusedError) throw new RemoteError(err.message);
      throw err;
    }
    if (res.status >= 300 && res.status < 400) throw new RemoteError(`HubSpot answered ${res.status}, a redirect; redirects are not followed`, res.status);
    const text = await res.text();
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = text;
    }
    if (res.status >= 400) throw Object.assign(new Error(`HubSpot answered ${res.status}`), { code: res.status, body, headers: Object.fromEntries(res.headers.entries()) });
    return body;
  };
  const ok409 = async (fn: () => Promise<unknown>) => {
    try {
      await call(fn);
    } catch (err) {
      if ((err as { httpStatus?: number }).httpStatus !== 409) throw err;
    }
  };
  return {
    platform: 'hubspot',
    async verifyCredentials() {
      await call(() => hubspot.crm.contacts.basicApi.getPage(1, undefined, undefined, undefined, undefined, undefined, VIA_AGENT));
      const info = (await call(() => raw('/account-info/v3/details'))) as { portalId?: number } | null;
      return { accountLabel: info?.portalId ? `Portal ${info.portalId}` : 'HubSpot account' };
    },
    async listLists() {
      const out = [];
      for (let offset = 0; ; ) {
        const body = await call(() => hubspot.crm.lists.listsApi.doSearch({ query: '', count: 500, offset, additionalProperties: ['hs_list_size'] }, VIA_AGENT));
        out.push(...body.lists.map((l) => ({ id: String(l.listId), name: l.name, memberCount: l.additionalProperties?.hs_list_size ? Number(l.additionalProperties.hs_list_size) : null })));
        if (!body.hasMore) return out;
        offset = body.offset;
      }
    },
    async listMembers(listId, cursor) {
      const page = await call(() => hubspot.crm.lists.membershipsApi.getPage(listId, cursor ?? undefined, undefined, memberPage, VIA_AGENT));
      const members = [];
      for (let i = 0; i < page.results.length; i += BATCH) {
        const inputs = page.results.slice(i, i + BATCH).map((r) => ({ id: String(r.recordId) }));
        const read = await call(() => hubspot.crm.contacts.batchApi.read({ properties: ['email', 'firstname', 'lastname'], propertiesWithHistory: [], inputs }, undefined, VIA_AGENT));
        for (const c of read.results) {
          const p = c.properties;
          if (p.email) members.push({ id: c.id, email: p.email, firstName: p.firstname ?? '', lastName: p.lastname ?? '' });
        }
      }
      return { members, nextCursor: page.paging?.next?.after ?? null };
    },
    async prepareWriteBack(_listId, mode) {
      if (!mode.append) return;
      await ok409(() => hubspot.crm.properties.groupsApi.create('contacts', { name: GROUP, label: 'Verilead Information' }, VIA_AGENT));
      for (const [k, name] of Object.entries(PROPS) as [keyof typeof PROPS, string][]) {
        await ok409(() => hubspot.crm.properties.coreApi.create('contacts', { name, label: RESULT_FIELDS[k], type: 'string' as PropertyCreate['type'], fieldType: 'text' as PropertyCreate['fieldType'], groupName: GROUP }, VIA_AGENT));
      }
    },
    async writeBack(listId, items, mode, written) {
      for (let i = 0; i < items.length; i += BATCH) {
        const chunk = items.slice(i, i + BATCH);
        if (mode.append) {
          const inputs = chunk.map((it) => ({ id: it.member.id, properties: { [PROPS.status]: it.status, [PROPS.safeToSend]: it.safeToSend ? 'yes' : 'no', [PROPS.reason]: it.reason } }));
          await call(() => hubspot.crm.contacts.batchApi.update({ inputs }, VIA_AGENT));
        }
        const remove = chunk.filter((it) => it.undeliverable).map((it) => it.member.id);
        // Only static (MANUAL / SNAPSHOT) lists can lose members; HubSpot answers 400 for a DYNAMIC list.
        if (mode.unsubscribe && remove.length > 0) await call(() => hubspot.crm.lists.membershipsApi.remove(listId, remove, VIA_AGENT));
        written?.(chunk.map((it) => it.member.id));
      }
    },
  };
}
