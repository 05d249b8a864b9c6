import { gunzipSync } from 'node:zlib';
import { Client } from '@sendgrid/client';
import { parse as parseCsv } from 'csv-parse/sync';
import { OutboundRefusedError } from '../../../platform/outbound-http/guard';
import { RateLimitedError, RemoteError, trimBase, type TRemoteResponse, type TThrottleRule } from './http';
import { createSdkCaller, toHeaders } from './sdk-call';
import { type TAdapterContext, type TIntegrationAdapter, type TRemoteMember } from './types';

const PAGE = 1_000;
const EXPORT_POLL_MS = 2_000;
const NAMES = { status: 'verilead_status', safeToSend: 'verilead_safe_to_send', reason: 'verilead_reason' } as const;

/** 429 with `X-RateLimit-Reset` (epoch seconds): wait until then. */
export const sendgridThrottle: TThrottleRule = (res) => {
  if (res.status !== 429) return null;
  const reset = Number(res.headers.get('x-ratelimit-reset'));
  return Number.isFinite(reset) && reset > 0 ? Math.max(0, reset * 1000 - Date.now()) : 1_000;
};

/** The SDK's ResponseError (`code` = HTTP status, `response: { headers, body }`); null when it never got a response. */
function sendgridFailure(err: unknown): TRemoteResponse | null {
  const e = err as { code?: unknown; response?: { headers?: unknown; body?: unknown } } | null;
  if (!e || typeof e.code !== 'number' || !e.response) return null;
  return { status: e.code, headers: toHeaders(e.response.headers), body: e.response.body ?? null };
}

/**
 * SendGrid Marketing Campaigns (Bearer API key) through the official `@sendgrid/client` (one client per account,
 * its `baseUrl` default request the injectable base URL; axios underneath, which never retries). There is no paged
 * read of a list's contacts: an import asks for an asynchronous export (`POST /v3/marketing/contacts/exports`),
 * polls it, then reads the CSV file(s) it points to in pages of 1,000 rows (cursor `export:<id>` while pending,
 * `file:<id>:<url index>:<row offset>` after). The export files are signed storage URLs, not SendGrid's API: they
 * are downloaded through the guarded client, without the API key.
 */
export function createSendgridAdapter(ctx: TAdapterContext): TIntegrationAdapter {
  const memberPage = Math.min(ctx.pageSize ?? PAGE, PAGE);
  const base = trimBase(ctx.baseUrls.sendgrid ?? 'https://api.sendgrid.com');
  const sendgrid = new Client();
  sendgrid.setApiKey(ctx.credentials.apiKey);
  // After setApiKey, which resets the base URL to the account's region.
  sendgrid.setDefaultRequest('baseUrl', base);
  // axios underneath: through the guarded agents, no redirect followed, no proxy from the environment.
  sendgrid.setDefaultRequest({ httpAgent: ctx.outbound.nodeAgent('http:'), httpsAgent: ctx.outbound.nodeAgent('https:'), maxRedirects: 0, proxy: false } as never);
  const call = createSdkCaller(ctx, {
    baseUrl: base,
    readFailure: sendgridFailure,
    throttle: sendgridThrottle,
    errorMessage: (b) => (b as { errors?: { message?: string }[] } | null)?.errors?.map((e) => e.message).join(' '),
  });
  /** One API call; answers the response body. */
  const request = async (req: { method?: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string; qs?: Record<string, string>; body?: unknown }): Promise<unknown> => {
    const [, body] = await call(() => sendgrid.request({ method: req.method ?? 'GET', url: req.url, ...(req.qs ? { qs: req.qs } : {}), ...(req.body !== undefined ? { body: req.body as object } : {}) }));
    return body as unknown;
  };
  const exportStatus = async (id: string) =>
    (await request({ url: `/v3/marketing/contacts/exports/${encodeURIComponent(id)}` })) as { status: 'pending' | 'ready' | 'failure'; urls?: string[]; message?: string };

  async function readExportFile(url: string): Promise<TRemoteMember[]> {
    // The file's address comes from the platform's answer: the same guard as every other destination.
    let res: Response;
    try {
      res = await ctx.outbound.fetch(url, { signal: AbortSignal.timeout(60_000) });
    } catch (err) {
      if (err instanceof OutboundRefusedError) throw new RemoteError(err.message);
      throw new RemoteError(`The SendGrid export file could not be downloaded (${(err as { cause?: Error }).cause?.message ?? (err as Error).message})`);
    }
    if (!res.ok) throw new RemoteError(`The SendGrid export file could not be downloaded (${res.status})`);
    let bytes = Buffer.from(await res.arrayBuffer());
    if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = gunzipSync(bytes);
    const rows = parseCsv(bytes, { columns: (h: string[]) => h.map((c) => c.trim().toUpperCase()), skip_empty_lines: true, bom: true }) as Record<string, string>[];
    return rows.filter((r) => r.EMAIL).map((r) => ({ id: r.CONTACT_ID ?? r.EMAIL!, email: r.EMAIL!, firstName: r.FIRST_NAME ?? '', lastName: r.LAST_NAME ?? '' }));
  }
  const fieldIds = async (): Promise<Map<string, string>> => {
    const body = (await request({ url: '/v3/marketing/field_definitions' })) as { custom_fields?: { id: string; name: string }[] };
    return new Map((body.custom_fields ?? []).map((f) => [f.name, f.id]));
  };

  return {
    platform: 'sendgrid',
    async verifyCredentials() {
      await request({ url: '/v3/scopes' });
      return { accountLabel: 'SendGrid account' };
    },
    async listLists() {
      const out = [];
      for (let qs: Record<string, string> | null = { page_size: '1000' }; qs; ) {
        const body = (await request({ url: '/v3/marketing/lists', qs })) as { result: { id: string; name: string; contact_count?: number }[]; _metadata?: { next?: string } };
        out.push(...body.result.map((l) => ({ id: l.id, name: l.name, memberCount: l.contact_count ?? null })));
        const next: string | undefined = body._metadata?.next;
        // `next` is an absolute URL on SendGrid's host: only its query (page_token…) is followed, on our base URL.
        qs = next ? Object.fromEntries(new URL(next).searchParams) : null;
      }
      return out;
    },
    async listMembers(listId, cursor) {
      if (!cursor) {
        const body = (await request({ method: 'POST', url: '/v3/marketing/contacts/exports', body: { list_ids: [listId], file_type: 'csv' } })) as { id: string };
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
        if (!have.has(name)) await request({ method: 'POST', url: '/v3/marketing/field_definitions', body: { name, field_type: 'Text' } });
      }
    },
    async writeBack(listId, items, mode, written) {
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
        if (contacts.length > 0) await request({ method: 'PUT', url: '/v3/marketing/contacts', body: { contacts } });
      }
      const remove = items.filter((it) => it.undeliverable).map((it) => it.member.id);
      // The members not removed from the list are done once their fields are upserted.
      written?.(items.filter((it) => !(mode.unsubscribe && it.undeliverable)).map((it) => it.member.id));
      if (mode.unsubscribe && remove.length > 0) {
        await request({ method: 'DELETE', url: `/v3/marketing/lists/${encodeURIComponent(listId)}/contacts`, qs: { contact_ids: remove.join(',') } });
        written?.(remove);
      }
    },
  };
}
