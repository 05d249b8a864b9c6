import { createJsonClient, RemoteAuthError, RemoteError, trimBase, type TThrottleRule } from './http';
import { RESULT_FIELDS, type TAdapterContext, type TIntegrationAdapter } from './types';

const PAGE = 1_000;
type TEnvelope<T> = { Code: number; Error: string | null; Context: T };

/** Moosend reports throttling as HTTP 200 with `{ Code: 429 }` (and sometimes a real 429): wait out its 10 s window. */
export const moosendThrottle: TThrottleRule = (res) => {
  if (res.status === 429) return 10_000;
  return (res.body as TEnvelope<unknown> | null)?.Code === 429 ? 10_000 : null;
};

/** Moosend API v3 (`?apikey=` in the query string, `{Code, Error, Context}` envelopes, page paging). */
export function createMoosendAdapter(ctx: TAdapterContext): TIntegrationAdapter {
  const memberPage = Math.min(ctx.pageSize ?? PAGE, PAGE);
  const base = trimBase(ctx.baseUrls.moosend ?? 'https://api.moosend.com/v3');
  const request = createJsonClient(ctx, { authHeaders: () => ({}), throttle: moosendThrottle });
  const key = `apikey=${encodeURIComponent(ctx.credentials.apiKey)}`;
  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = (await request({ method, url: `${base}${path}${path.includes('?') ? '&' : '?'}${key}`, body })).body as TEnvelope<T>;
    if (res.Code !== 0) {
      if (/api ?key/i.test(res.Error ?? '')) throw new RemoteAuthError('Moosend did not accept this API key');
      throw new RemoteError(`Moosend answered: ${res.Error ?? `code ${res.Code}`}`);
    }
    return res.Context;
  }
  return {
    platform: 'moosend',
    async verifyCredentials() {
      await call('GET', '/lists/1/1.json');
      return { accountLabel: 'Moosend account' };
    },
    async listLists() {
      const out = [];
      for (let page = 1; ; page += 1) {
        const c = await call<{ MailingLists: { ID: string; Name: string; ActiveMemberCount?: number }[]; Paging: { TotalPageCount: number } }>('GET', `/lists/${page}/100.json`);
        out.push(...c.MailingLists.map((l) => ({ id: l.ID, name: l.Name, memberCount: l.ActiveMemberCount ?? null })));
        if (page >= c.Paging.TotalPageCount) return out;
      }
    },
    async listMembers(listId, cursor) {
      const page = cursor ? Number(cursor) : 1;
      const c = await call<{ Subscribers: { ID: string; Email: string; Name?: string | null }[]; Paging: { TotalPageCount: number } }>(
        'GET',
        `/lists/${encodeURIComponent(listId)}/subscribers/Subscribed.json?Page=${page}&PageSize=${memberPage}`,
      );
      return {
        members: c.Subscribers.map((s) => {
          const [first = '', ...rest] = (s.Name ?? '').split(' ');
          return { id: s.ID, email: s.Email, firstName: first, lastName: rest.join(' ') };
        }),
        nextCursor: page < c.Paging.TotalPageCount ? String(page + 1) : null,
      };
    },
    async prepareWriteBack(listId, mode) {
      if (!mode.append) return;
      const details = await call<{ CustomFieldsDefinition?: { Name: string }[] }>('GET', `/lists/${encodeURIComponent(listId)}/details.json`);
      const have = new Set((details.CustomFieldsDefinition ?? []).map((f) => f.Name));
      for (const name of Object.values(RESULT_FIELDS)) {
        if (!have.has(name)) await call('POST', `/lists/${encodeURIComponent(listId)}/customfields/create.json`, { Name: name, CustomFieldType: 'Text' });
      }
    },
    async writeBack(listId, items, mode, written) {
      for (const it of items) {
        if (mode.append) {
          const CustomFields = [`${RESULT_FIELDS.status}=${it.status}`, `${RESULT_FIELDS.safeToSend}=${it.safeToSend ? 'yes' : 'no'}`, `${RESULT_FIELDS.reason}=${it.reason}`];
          await call('POST', `/subscribers/${encodeURIComponent(listId)}/subscribe.json`, { Email: it.member.email, CustomFields, HasExternalDoubleOptIn: true });
        }
        if (mode.unsubscribe && it.undeliverable) await call('POST', `/subscribers/${encodeURIComponent(listId)}/unsubscribe.json`, { Email: it.member.email });
        written?.([it.member.id]);
      }
    },
  };
}
