import { gunzipSync } from 'node:zlib';
import { parse as parseCsv } from 'csv-parse/sync';
import { createJsonClient, RateLimitedError, RemoteError, trimBase, type TThrottleRule } from './http';
import { type TAdapterContext, type TIntegrationAdapter, type TRemoteMember } from './types';

const PAGE = 1_000;
const EXPORT_POLL_MS = 2_000;
const NAMES = { status: 'verilead_status', safeToSend: 'verilead_safe_to_send', reason: 'verilead_reason' } as const;

/** 429 with `X-RateLimit-Reset` (epoch seconds): wait until then. */
const sendgridThrottle: TThrottleRule = (res) => {
  if (res.status !== 429) return null;
  const reset = Number(res.headers.get('x-ratelimit-reset'));
  return Number.isFinite(reset) && reset > 0 ? Math.max(0, reset * 1000 - Date.now()) : 1_000;
};

/**
 * SendGrid Marketing Campaigns (Bearer API key). There is no paged read of a list's contacts: an import asks for an
 * asynchronous export (`POST /v3/marketing/contacts/exports`), polls it, then reads the CSV file(s) it points to in
 * pages of 1,000 rows (cursor `export:<id>` while pending, `file:<id>:<url index>:<row offset>` after).
 */
export function createSendgridAdapter(ctx: TAdapterContext): TIntegrationAdapter {
  const memberPage = Math.min(ctx.pageSize ?? PAGE, PAGE);
  const base = trimBase(ctx.baseUrls.sendgrid ?? 'https://api.sendgrid.com');
  const request = createJsonClient(ctx, {
    authHeaders: () => ({ authorization: `Bearer ${ctx.credentials.apiKey}` }),
    throttle: sendgridThrottle,
    errorMessage: (b) => (b as { errors?: { message?: string }[] } | null)?.errors?.map((e) => e.message).join(' '),
  });
  const exportStatus = async (id: string) =>
    (await request({ url: `${base}/v3/marketing/contacts/exports/${encodeURIComponent(id)}` })).body as { status: 'pending' | 'ready' | 'failure'; urls?: string[]; message?: string };

  async function readExportFile(url: string): Promise<TRemoteMember[]> {
    const res = await fetch(url, { signal: AbortSignal.timeout(60_000) });
    if (!res.ok) throw new RemoteError(`The SendGrid export file could not be downloaded (${res.status})`);
    let bytes = Buffer.from(await res.arrayBuffer());
    if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = gunzipSync(bytes);
    const rows = parseCsv(bytes, { columns: (h: string[]) => h.map((c) => c.trim().toUpperCase()), skip_empty_lines: true, bom: true }) as Record<string, string>[];
    return rows.filter((r) => r.EMAIL).map((r) => ({ id: r.CONTACT_ID ?? r.EMAIL!, email: r.EMAIL!, firstName: r.FIRST_NAME ?? '', lastName: r.LAST_NAME ?? '' }));
  }
  const fieldIds = async (): Promise<Map<string, string>> => {
    const body = (await request({ url: `${base}/v3/marketing/field_definitions` })).body as { custom_fields?: { id: string; name: string }[] };
    return new Map((body.custom_fields ?? []).map((f) => [f.name, f.id]));
  };

  return {
    platform: 'sendgrid',
    async verifyCredentials() {
      await request({ url: `${base}/v3/scopes` });
      return { accountLabel: 'SendGrid account' };
    },
    async listLists() {
      const out = [];
      for (let url: string | null = `${base}/v3/marketing/lists?page_size=1000`; url; ) {
        const body = (await request({ url })).body as { result: { id: string; name: string; contact_count?: number }[]; _metadata?: { next?: string } };
        out.push(...body.result.map((l) => ({ id: l.id, name: l.name, memberCount: l.contact_count ?? null })));
        const next: string | undefined = body._metadata?.next;
        url = next ? `${base}/v3/marketing/lists?${new URL(next).searchParams.toString()}` : null;
      }
      return out;
    },
    async listMembers(listId, cursor) {
      if (!cursor) {
        const body = (await request({ method: 'POST', url: `${base}/v3/marketing/contacts/exports`, body: { list_ids: [listId], file_type: 'csv' } })).body as { id: string };
        return { members: [], nextCursor: `export:${body.id}` };
      }
      const [kind, id = '', urlIndex = '0', offset = '0'] = cursor.split(':');
      const status = await exportStatus(id);
      if (status.status === 'failure') throw new RemoteError(`SendGrid could not export the list: ${status.message ?? 'export failed'}`);
      // Not ready yet: the job is put back on the queue and looks again shortly.
      if (status.status !== 'ready') throw new RateLimitedError(EXPORT_POLL_MS);
      const urls = status.urls ?? [];
      if (kind === 'export') return { members: [], nextCursor: urls.length > 0 ? `file:${id}:0:0` : null };
      const file = Number(urlIndex);
      const from = Number(offset);
      const rows = await readExportFile(urls[file]!);
      const members = rows.slice(from, from + memberPage);
      const next = from + memberPage < rows.length ? `file:${id}:${file}:${from + memberPage}` : file + 1 < urls.length ? `file:${id}:${file + 1}:0` : null;
      return { members, nextCursor: next };
    },
    async prepareWriteBack(_listId, mode) {
      if (!mode.append) return;
      const have = await fieldIds();
      for (const name of Object.values(NAMES)) {
        if (!have.has(name)) await request({ method: 'POST', url: `${base}/v3/marketing/field_definitions`, body: { name, field_type: 'Text' } });
      }
    },
    async writeBack(listId, items, mode) {
      if (mode.append) {
        const ids = await fieldIds();
        const contacts = items.map((it) => {
          const values: Record<keyof typeof NAMES, string> = { status: it.status, safeToSend: it.safeToSend ? 'yes' : 'no', reason: it.reason };
          const custom_fields: Record<string, string> = {};
          for (const [k, name] of Object.entries(NAMES) as [keyof typeof NAMES, string][]) {
            const id = ids.get(name);
            if (id) custom_fields[id] = values[k];
          }
          return { email: it.member.email, custom_fields };
        });
        // Upserts are asynchronous on SendGrid (202 with a job id) and eventually consistent.
        if (contacts.length > 0) await request({ method: 'PUT', url: `${base}/v3/marketing/contacts`, body: { contacts } });
      }
      const remove = items.filter((it) => it.undeliverable).map((it) => it.member.id);
      if (mode.unsubscribe && remove.length > 0) {
        await request({ method: 'DELETE', url: `${base}/v3/marketing/lists/${encodeURIComponent(listId)}/contacts?contact_ids=${remove.map(encodeURIComponent).join(',')}` });
      }
    },
  };
}
