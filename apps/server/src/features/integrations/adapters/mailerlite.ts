import { createJsonClient, trimBase } from './http';
import { RESULT_FIELDS, type TAdapterContext, type TIntegrationAdapter } from './types';

const PAGE = 1_000;
const KEYS = { status: 'verilead_status', safeToSend: 'verilead_safe_to_send', reason: 'verilead_reason' } as const;

/**
 * MailerLite (connect.mailerlite.com/api, Bearer): groups by page, group subscribers by cursor; 429 with Retry-After.
 * Called through the guarded JSON client: the official `@mailerlite/mailerlite-nodejs` calls the shared axios
 * instance with no way to give it an HTTP agent, so it could not be held to the outbound guard.
 */
export function createMailerliteAdapter(ctx: TAdapterContext): TIntegrationAdapter {
  const memberPage = Math.min(ctx.pageSize ?? PAGE, PAGE);
  const base = trimBase(ctx.baseUrls.mailerlite ?? 'https://connect.mailerlite.com/api');
  const request = createJsonClient(ctx, {
    authHeaders: () => ({ authorization: `Bearer ${ctx.credentials.apiKey}` }),
    errorMessage: (b) => (b as { message?: string } | null)?.message,
  });
  const get = async <T>(path: string, query: Record<string, string | number> = {}): Promise<T> => {
    const q = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString();
    return (await request({ url: `${base}${path}${q ? `?${q}` : ''}` })).body as T;
  };
  return {
    platform: 'mailerlite',
    async verifyCredentials() {
      await get('/groups', { limit: 1 });
      return { accountLabel: 'MailerLite account' };
    },
    async listLists() {
      const out = [];
      for (let page = 1; ; page += 1) {
        const body = await get<{ data: { id: string; name: string; active_count?: number }[]; meta: { last_page: number } }>('/groups', { limit: 100, page });
        out.push(...body.data.map((g) => ({ id: String(g.id), name: g.name, memberCount: g.active_count ?? null })));
        if (page >= body.meta.last_page) return out;
      }
    },
    async listMembers(listId, cursor) {
      const body = await get<{ data: { id: string; email: string; fields?: { name?: string | null; last_name?: string | null } }[]; meta: { next_cursor: string | null } }>(
        `/groups/${encodeURIComponent(listId)}/subscribers`,
        { 'filter[status]': 'active', limit: memberPage, ...(cursor ? { cursor } : {}) },
      );
      return {
        members: body.data.map((s) => ({ id: String(s.id), email: s.email, firstName: s.fields?.name ?? '', lastName: s.fields?.last_name ?? '' })),
        nextCursor: body.meta.next_cursor,
      };
    },
    async prepareWriteBack(_listId, mode) {
      if (!mode.append) return;
      const body = await get<{ data: { key: string }[] }>('/fields', { limit: 100 });
      const have = new Set(body.data.map((f) => f.key));
      for (const [k, key] of Object.entries(KEYS) as [keyof typeof KEYS, string][]) {
        // MailerLite derives the key from the name ("Verilead Status" → verilead_status).
        if (!have.has(key)) await request({ method: 'POST', url: `${base}/fields`, body: { name: RESULT_FIELDS[k], type: 'text' } });
      }
    },
    async writeBack(_listId, items, mode, written) {
      for (const it of items) {
        const body: { status?: 'unsubscribed'; fields?: Record<string, string> } = {};
        if (mode.unsubscribe && it.undeliverable) body.status = 'unsubscribed';
        if (mode.append) body.fields = { [KEYS.status]: it.status, [KEYS.safeToSend]: it.safeToSend ? 'yes' : 'no', [KEYS.reason]: it.reason };
        if (Object.keys(body).length > 0) await request({ method: 'PUT', url: `${base}/subscribers/${encodeURIComponent(it.member.id)}`, body });
        written?.([it.member.id]);
      }
    },
  };
}
