import { createJsonClient, trimBase } from './http';
import { RESULT_FIELDS, type TAdapterContext, type TIntegrationAdapter } from './types';

const PAGE = 1_000; // Kit's `per_page` cap

/** Kit API v4 (`X-Kit-Api-Key`): tags act as lists, cursor paging (`after`); a bare 429 on throttling. */
export function createKitAdapter(ctx: TAdapterContext): TIntegrationAdapter {
  const memberPage = Math.min(ctx.pageSize ?? PAGE, PAGE);
  const base = trimBase(ctx.baseUrls.kit ?? 'https://api.kit.com/v4');
  const request = createJsonClient(ctx, {
    authHeaders: () => ({ 'x-kit-api-key': ctx.credentials.apiKey }),
    errorMessage: (b) => (b as { errors?: string[] } | null)?.errors?.join(' '),
  });
  const fieldKeys = async (): Promise<Map<string, string>> => {
    const body = (await request({ url: `${base}/custom_fields?per_page=${PAGE}` })).body as { custom_fields: { key: string; label: string }[] };
    return new Map(body.custom_fields.map((f) => [f.label, f.key]));
  };
  return {
    platform: 'kit',
    async verifyCredentials() {
      const body = (await request({ url: `${base}/account` })).body as { account?: { name?: string }; user?: { email?: string } };
      return { accountLabel: body.account?.name ?? body.user?.email ?? 'Kit account' };
    },
    async listLists() {
      const out = [];
      for (let after: string | null = null; ; ) {
        const body = (await request({ url: `${base}/tags?per_page=${PAGE}${after ? `&after=${encodeURIComponent(after)}` : ''}` })).body as {
          tags: { id: number | string; name: string }[];
          pagination: { has_next_page: boolean; end_cursor: string | null };
        };
        out.push(...body.tags.map((t) => ({ id: String(t.id), name: t.name, memberCount: null })));
        if (!body.pagination.has_next_page) return out;
        after = body.pagination.end_cursor;
      }
    },
    async listMembers(tagId, cursor) {
      const body = (await request({ url: `${base}/tags/${encodeURIComponent(tagId)}/subscribers?status=active&per_page=${memberPage}${cursor ? `&after=${encodeURIComponent(cursor)}` : ''}` })).body as {
        subscribers: { id: number | string; email_address: string; first_name?: string | null; fields?: Record<string, string | null> }[];
        pagination: { has_next_page: boolean; end_cursor: string | null };
      };
      return {
        members: body.subscribers.map((s) => ({ id: String(s.id), email: s.email_address, firstName: s.first_name ?? '', lastName: s.fields?.last_name ?? '' })),
        nextCursor: body.pagination.has_next_page ? body.pagination.end_cursor : null,
      };
    },
    async prepareWriteBack(_tagId, mode) {
      if (!mode.append) return;
      const have = await fieldKeys();
      for (const label of Object.values(RESULT_FIELDS)) {
        if (!have.has(label)) await request({ method: 'POST', url: `${base}/custom_fields`, body: { label } });
      }
    },
    async writeBack(tagId, items, mode, written) {
      const keys = mode.append ? await fieldKeys() : new Map<string, string>();
      for (const it of items) {
        if (mode.append) {
          const fields: Record<string, string> = {};
          const put = (label: string, v: string) => {
            const k = keys.get(label);
            if (k) fields[k] = v;
          };
          put(RESULT_FIELDS.status, it.status);
          put(RESULT_FIELDS.safeToSend, it.safeToSend ? 'yes' : 'no');
          put(RESULT_FIELDS.reason, it.reason);
          await request({ method: 'PUT', url: `${base}/subscribers/${encodeURIComponent(it.member.id)}`, body: { fields } });
        }
        // Tags are Kit's lists: "unsubscribe" removes the tag, never the subscriber account-wide.
        if (mode.unsubscribe && it.undeliverable) await request({ method: 'DELETE', url: `${base}/tags/${encodeURIComponent(tagId)}/subscribers/${encodeURIComponent(it.member.id)}` });
        written?.([it.member.id]);
      }
    },
  };
}
