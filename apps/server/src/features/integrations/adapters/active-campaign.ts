import { createJsonClient, RemoteAuthError, trimBase } from './http';
import { RESULT_FIELDS, type TAdapterContext, type TIntegrationAdapter } from './types';

const PAGE = 100; // ActiveCampaign's `limit` cap
const PERSTAGS = { status: 'VERILEAD_STATUS', safeToSend: 'VERILEAD_SAFE_TO_SEND', reason: 'VERILEAD_REASON' } as const;

/** ActiveCampaign API v3: the account URL the user gives (never built by us), header `Api-Token`, offset paging. */
export function createActiveCampaignAdapter(ctx: TAdapterContext): TIntegrationAdapter {
  const memberPage = Math.min(ctx.pageSize ?? PAGE, PAGE);
  const accountUrl = ctx.credentials.apiUrl;
  const base = `${trimBase(ctx.baseUrls.active_campaign ?? accountUrl ?? '')}/api/3`;
  const request = createJsonClient(ctx, {
    authHeaders: () => ({ 'api-token': ctx.credentials.apiKey }),
    errorMessage: (b) => (b as { message?: string } | null)?.message,
  });
  const fieldIds = async (): Promise<Map<string, string>> => {
    const body = (await request({ url: `${base}/fields?limit=100` })).body as { fields: { id: string; perstag: string }[] };
    return new Map(body.fields.map((f) => [f.perstag, String(f.id)]));
  };
  return {
    platform: 'active_campaign',
    async verifyCredentials() {
      if (!accountUrl) throw new RemoteAuthError('Please enter the API URL of your ActiveCampaign account');
      const body = (await request({ url: `${base}/users/me` })).body as { user?: { email?: string; username?: string } };
      return { accountLabel: body.user?.email ?? body.user?.username ?? 'ActiveCampaign account' };
    },
    async listLists() {
      const out = [];
      for (let offset = 0; ; offset += PAGE) {
        const body = (await request({ url: `${base}/lists?limit=${PAGE}&offset=${offset}` })).body as { lists: { id: string; name: string }[]; meta: { total: string | number } };
        out.push(...body.lists.map((l) => ({ id: String(l.id), name: l.name, memberCount: null })));
        if (offset + PAGE >= Number(body.meta.total) || body.lists.length === 0) return out;
      }
    },
    async listMembers(listId, cursor) {
      const offset = cursor ? Number(cursor) : 0;
      const body = (await request({ url: `${base}/contacts?listid=${encodeURIComponent(listId)}&status=1&limit=${memberPage}&offset=${offset}` })).body as {
        contacts: { id: string; email: string; firstName?: string; lastName?: string }[];
        meta: { total: string | number };
      };
      const next = offset + body.contacts.length;
      return {
        members: body.contacts.map((c) => ({ id: String(c.id), email: c.email, firstName: c.firstName ?? '', lastName: c.lastName ?? '' })),
        nextCursor: body.contacts.length > 0 && next < Number(body.meta.total) ? String(next) : null,
      };
    },
    async prepareWriteBack(_listId, mode) {
      if (!mode.append) return;
      const have = await fieldIds();
      for (const [k, perstag] of Object.entries(PERSTAGS) as [keyof typeof PERSTAGS, string][]) {
        if (have.has(perstag)) continue;
        const created = (await request({ method: 'POST', url: `${base}/fields`, body: { field: { type: 'text', title: RESULT_FIELDS[k], perstag } } })).body as { field: { id: string } };
        // relid 0: the field is available on every list.
        await request({ method: 'POST', url: `${base}/fieldRels`, body: { fieldRel: { field: String(created.field.id), relid: 0 } } });
      }
    },
    async writeBack(listId, items, mode, written) {
      const ids = mode.append ? await fieldIds() : new Map<string, string>();
      for (const it of items) {
        if (mode.unsubscribe && it.undeliverable) {
          await request({ method: 'POST', url: `${base}/contactLists`, body: { contactList: { list: listId, contact: it.member.id, status: 2 } } });
        }
        if (!mode.append) {
          written?.([it.member.id]);
          continue;
        }
        const values = { status: it.status, safeToSend: it.safeToSend ? 'yes' : 'no', reason: it.reason };
        for (const [k, perstag] of Object.entries(PERSTAGS) as [keyof typeof PERSTAGS, string][]) {
          const field = ids.get(perstag);
          if (field) await request({ method: 'POST', url: `${base}/fieldValues`, body: { fieldValue: { contact: it.member.id, field, value: values[k] } } });
        }
        written?.([it.member.id]);
      }
    },
  };
}
