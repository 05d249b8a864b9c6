import MailerLite, { type GetGroupsParams } from '@mailerlite/mailerlite-nodejs';
import { trimBase } from './http';
import { axiosFailure, createSdkCaller } from './sdk-call';
import { RESULT_FIELDS, type TAdapterContext, type TIntegrationAdapter } from './types';

const PAGE = 1_000;
const KEYS = { status: 'verilead_status', safeToSend: 'verilead_safe_to_send', reason: 'verilead_reason' } as const;

/**
 * MailerLite (connect.mailerlite.com, Bearer) through the official `@mailerlite/mailerlite-nodejs`: groups by page,
 * group subscribers by cursor; 429 with Retry-After. The injectable base URL names the API root (`…/api`); the SDK's
 * `base_path` is the host it appends `/api/…` to. It calls through axios, which never retries.
 */
export function createMailerliteAdapter(ctx: TAdapterContext): TIntegrationAdapter {
  const memberPage = Math.min(ctx.pageSize ?? PAGE, PAGE);
  const base = trimBase(ctx.baseUrls.mailerlite ?? 'https://connect.mailerlite.com/api');
  const mailerlite = new MailerLite({ api_key: ctx.credentials.apiKey, base_path: base.replace(/\/api$/, '') });
  const call = createSdkCaller(ctx, {
    baseUrl: base,
    readFailure: axiosFailure,
    errorMessage: (b) => (b as { message?: string } | null)?.message,
  });
  // The SDK's type asks for a `sort`; MailerLite's own order (none sent) is kept.
  const groupsPage = (page: number, limit: number) => call(() => mailerlite.groups.get({ limit, page } as GetGroupsParams));
  return {
    platform: 'mailerlite',
    async verifyCredentials() {
      await call(() => mailerlite.groups.get({ limit: 1 } as GetGroupsParams));
      return { accountLabel: 'MailerLite account' };
    },
    async listLists() {
      const out = [];
      for (let page = 1; ; page += 1) {
        const body = (await groupsPage(page, 100)).data as unknown as { data: { id: string; name: string; active_count?: number }[]; meta: { last_page: number } };
        out.push(...body.data.map((g) => ({ id: String(g.id), name: g.name, memberCount: g.active_count ?? null })));
        if (page >= body.meta.last_page) return out;
      }
    },
    async listMembers(listId, cursor) {
      const res = await call(() => mailerlite.groups.getSubscribers(listId, { filter: { status: 'active' }, limit: memberPage, ...(cursor ? { cursor } : {}) }));
      const body = res.data as unknown as { data: { id: string; email: string; fields?: { name?: string | null; last_name?: string | null } }[]; meta: { next_cursor: string | null } };
      return {
        members: body.data.map((s) => ({ id: String(s.id), email: s.email, firstName: s.fields?.name ?? '', lastName: s.fields?.last_name ?? '' })),
        nextCursor: body.meta.next_cursor,
      };
    },
    async prepareWriteBack(_listId, mode) {
      if (!mode.append) return;
      const body = (await call(() => mailerlite.fields.get({ limit: 100 }))).data as unknown as { data: { key: string }[] };
      const have = new Set(body.data.map((f) => f.key));
      for (const [k, key] of Object.entries(KEYS) as [keyof typeof KEYS, string][]) {
        // MailerLite derives the key from the name ("Verilead Status" → verilead_status).
        if (!have.has(key)) await call(() => mailerlite.fields.create({ name: RESULT_FIELDS[k], type: 'text' }));
      }
    },
    async writeBack(_listId, items, mode, written) {
      for (const it of items) {
        const body: { status?: 'unsubscribed'; fields?: Record<string, string> } = {};
        if (mode.unsubscribe && it.undeliverable) body.status = 'unsubscribed';
        if (mode.append) body.fields = { [KEYS.status]: it.status, [KEYS.safeToSend]: it.safeToSend ? 'yes' : 'no', [KEYS.reason]: it.reason };
        if (Object.keys(body).length > 0) await call(() => mailerlite.subscribers.update(it.member.id, body));
        written?.([it.member.id]);
      }
    },
  };
}
