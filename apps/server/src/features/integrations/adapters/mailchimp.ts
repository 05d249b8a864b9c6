import { createHash } from 'node:crypto';
import { createJsonClient, RemoteAuthError, trimBase } from './http';
import { RESULT_FIELDS, type TAdapterContext, type TIntegrationAdapter, type TWriteBackItem } from './types';

const PAGE = 1_000; // Mailchimp's `count` cap
/** Merge-field tags (Mailchimp: at most 10 characters, upper case). */
const MERGE_TAGS = { status: 'VL_STATUS', safeToSend: 'VL_SAFE', reason: 'VL_REASON' } as const;

/** The data centre is the suffix of a Mailchimp API key (`…-us19`). */
export function mailchimpDataCentre(apiKey: string): string | null {
  const m = /-([a-z]{2,4}\d{1,3})$/i.exec(apiKey.trim());
  return m ? m[1]!.toLowerCase() : null;
}

/** The subscriber hash: MD5 of the lower-cased address. */
export function subscriberHash(email: string): string {
  return createHash('md5').update(email.trim().toLowerCase()).digest('hex');
}

/**
 * Mailchimp Marketing API 3.0: an API key with its data centre (Basic auth), or an OAuth token (Bearer) against the
 * `api_endpoint` Mailchimp's metadata gave. Plain fetch: the SDK hard-codes `https://{dc}.api.mailchimp.com`.
 */
export function createMailchimpAdapter(ctx: TAdapterContext): TIntegrationAdapter {
  const memberPage = Math.min(ctx.pageSize ?? PAGE, PAGE);
  const key = ctx.credentials.apiKey;
  const oauth = ctx.credentials.oauth;
  const dc = oauth ? (oauth.dc ?? 'oauth') : mailchimpDataCentre(key);
  const base = oauth ? `${trimBase(oauth.apiEndpoint)}/3.0` : trimBase((ctx.baseUrls.mailchimp ?? 'https://{dc}.api.mailchimp.com/3.0').replace('{dc}', dc ?? 'us1'));
  const request = createJsonClient(ctx, {
    authHeaders: () => (oauth ? { authorization: `Bearer ${oauth.accessToken}` } : { authorization: `Basic ${Buffer.from(`verilead:${key}`).toString('base64')}` }),
    errorMessage: (b) => (b as { detail?: string } | null)?.detail,
  });
  const requireDc = () => {
    if (!dc) throw new RemoteAuthError('A Mailchimp API key ends with its data centre, for example "-us19"');
  };
  return {
    platform: 'mailchimp',
    async verifyCredentials() {
      requireDc();
      await request({ url: `${base}/ping` });
      const root = (await request({ url: `${base}/?fields=account_name,email` })).body as { account_name?: string; email?: string };
      return { accountLabel: root.account_name ?? root.email ?? 'Mailchimp account' };
    },
    async listLists() {
      requireDc();
      const out = [];
      for (let offset = 0; ; offset += PAGE) {
        const body = (await request({ url: `${base}/lists?count=${PAGE}&offset=${offset}` })).body as {
          lists: { id: string; name: string; stats?: { member_count?: number } }[];
          total_items: number;
        };
        out.push(...body.lists.map((l) => ({ id: l.id, name: l.name, memberCount: l.stats?.member_count ?? null })));
        if (offset + PAGE >= body.total_items || body.lists.length === 0) return out;
      }
    },
    async listMembers(listId, cursor) {
      const offset = cursor ? Number(cursor) : 0;
      const body = (await request({ url: `${base}/lists/${encodeURIComponent(listId)}/members?status=subscribed&count=${memberPage}&offset=${offset}` })).body as {
        members: { id: string; email_address: string; merge_fields?: Record<string, string> }[];
        total_items: number;
      };
      const next = offset + body.members.length;
      return {
        members: body.members.map((m) => ({ id: m.id, email: m.email_address, firstName: m.merge_fields?.FNAME ?? '', lastName: m.merge_fields?.LNAME ?? '' })),
        nextCursor: body.members.length > 0 && next < body.total_items ? String(next) : null,
      };
    },
    async prepareWriteBack(listId, mode) {
      if (!mode.append) return;
      const existing = (await request({ url: `${base}/lists/${encodeURIComponent(listId)}/merge-fields?count=1000` })).body as { merge_fields: { tag: string }[] };
      const have = new Set(existing.merge_fields.map((f) => f.tag));
      for (const [k, tag] of Object.entries(MERGE_TAGS) as [keyof typeof MERGE_TAGS, string][]) {
        if (!have.has(tag)) await request({ method: 'POST', url: `${base}/lists/${encodeURIComponent(listId)}/merge-fields`, body: { tag, name: RESULT_FIELDS[k], type: 'text' } });
      }
    },
    async writeBack(listId, items, mode, written) {
      // Mailchimp allows 10 concurrent connections per user: a few at a time. When one of them is refused (a 429),
      // the others of its group still count as written.
      for (let i = 0; i < items.length; i += 4) {
        const group = items.slice(i, i + 4);
        const results = await Promise.allSettled(group.map((item) => writeOne(listId, item)));
        written?.(group.filter((_, k) => results[k]!.status === 'fulfilled').map((it) => it.member.id));
        const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
        if (failed) throw failed.reason;
      }
      async function writeOne(list: string, item: TWriteBackItem) {
        const body: Record<string, unknown> = {};
        if (mode.unsubscribe && item.undeliverable) body.status = 'unsubscribed';
        if (mode.append) body.merge_fields = { [MERGE_TAGS.status]: item.status, [MERGE_TAGS.safeToSend]: item.safeToSend ? 'yes' : 'no', [MERGE_TAGS.reason]: item.reason };
        if (Object.keys(body).length === 0) return;
        await request({ method: 'PATCH', url: `${base}/lists/${encodeURIComponent(list)}/members/${subscriberHash(item.member.email)}`, body });
      }
    },
  };
}
