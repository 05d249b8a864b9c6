import { createJsonClient, RemoteError, retryAfterRule, trimBase } from './http';
import { RESULT_FIELDS, type TAdapterContext, type TIntegrationAdapter, type TRemoteMember } from './types';

const BATCH = 5_000; // `batch_size` cap of the profiles download
const UPLOAD = 1_000; // records per upload
const WINDOW_DAYS = 30;
/** CleverTap has no endpoint that lists audiences: a "list" is the profiles who did one of these system events lately. */
export const CLEVERTAP_EVENTS = ['App Launched', 'App Installed', 'Charged', 'UTM Visited', 'Notification Clicked'] as const;
export const CLEVERTAP_DEFAULT_BASE = 'https://{region}.api.clevertap.com/1';

const ymd = (d: Date) => Number(d.toISOString().slice(0, 10).replace(/-/g, ''));

type TProfileRecord = { identity?: string | null; email?: string | null; name?: string | null; profileData?: Record<string, unknown> | null };
type TEnvelope = { status?: string; error?: string };

/** A reply of `{status: "fail"}` (CleverTap sometimes says so with HTTP 200) as a RemoteError. */
function ensureSuccess(body: unknown, what: string): void {
  const b = body as TEnvelope | null;
  if (b?.status === 'fail') throw new RemoteError(`CleverTap could not ${what}: ${b.error ?? 'failed'}`, 400);
}

function toMember(r: TProfileRecord): TRemoteMember | null {
  const email = (r.email ?? (typeof r.profileData?.email === 'string' ? r.profileData.email : '') ?? '').trim();
  const id = (r.identity ?? '').trim() || email;
  if (!id) return null;
  const [first = '', ...rest] = (r.name ?? '').trim().split(/\s+/);
  return { id, email, firstName: first, lastName: rest.join(' ') };
}

/**
 * CleverTap (`X-CleverTap-Account-Id` + `X-CleverTap-Passcode`, at `https://{region}.api.clevertap.com/1`; the
 * injected base URL may hold `{region}` too). A list is "profiles who did this event in the last 30 days", read with
 * the asynchronous cursor download: the first page asks for a cursor (`POST /profiles.json`), the next ones follow
 * `next_cursor` until it is absent. Write-back uploads profile properties (`POST /upload`); "unsubscribe" sets
 * `MSG-email: false`. Throttling is a concurrency limit answered with a bare 429.
 */
export function createClevertapAdapter(ctx: TAdapterContext): TIntegrationAdapter {
  const batch = Math.min(ctx.pageSize ?? BATCH, BATCH);
  const region = ctx.credentials.region ?? 'eu1';
  const base = trimBase((ctx.baseUrls.clevertap ?? CLEVERTAP_DEFAULT_BASE).replace('{region}', encodeURIComponent(region)));
  const request = createJsonClient(ctx, {
    authHeaders: () => ({ 'x-clevertap-account-id': ctx.credentials.accountId ?? '', 'x-clevertap-passcode': ctx.credentials.apiKey }),
    throttle: retryAfterRule,
    errorMessage: (b) => (b as TEnvelope | null)?.error,
  });
  return {
    platform: 'clevertap',
    async verifyCredentials() {
      // A profile lookup is the cheapest authenticated call; "not found" still proves the credentials. No answer at
      // all (httpStatus 0: unreachable, or a destination the outbound guard refused) proves nothing.
      try {
        await request({ url: `${base}/profile.json?identity=verilead-connection-check` });
      } catch (err) {
        if (!(err instanceof RemoteError) || err.httpStatus === 0 || (err.httpStatus >= 300 && err.httpStatus < 400)) throw err;
      }
      return { accountLabel: `CleverTap ${ctx.credentials.accountId ?? ''} (${region})`.trim() };
    },
    async listLists() {
      return CLEVERTAP_EVENTS.map((e) => ({ id: e, name: `${e} (last ${WINDOW_DAYS} days)`, memberCount: null }));
    },
    async listMembers(eventName, cursor) {
      if (!cursor) {
        const to = new Date();
        const from = new Date(to.getTime() - WINDOW_DAYS * 86_400_000);
        const body = (await request({ method: 'POST', url: `${base}/profiles.json?batch_size=${batch}`, body: { event_name: eventName, from: ymd(from), to: ymd(to) } })).body as TEnvelope & { cursor?: string };
        ensureSuccess(body, 'start the profile download');
        return { members: [], nextCursor: body.cursor ?? null };
      }
      const body = (await request({ url: `${base}/profiles.json?cursor=${encodeURIComponent(cursor)}` })).body as TEnvelope & { records?: TProfileRecord[]; next_cursor?: string | null };
      ensureSuccess(body, 'read the profiles');
      return { members: (body.records ?? []).map(toMember).filter((m): m is TRemoteMember => m !== null), nextCursor: body.next_cursor ?? null };
    },
    async prepareWriteBack() {
      // Custom profile properties come into being with their first upload.
    },
    async writeBack(_eventName, items, mode, written) {
      const d = items
        .map((it) => {
          const profileData: Record<string, unknown> = {};
          if (mode.append) Object.assign(profileData, { [RESULT_FIELDS.status]: it.status, [RESULT_FIELDS.safeToSend]: it.safeToSend ? 'yes' : 'no', [RESULT_FIELDS.reason]: it.reason });
          if (mode.unsubscribe && it.undeliverable) profileData['MSG-email'] = false;
          return { type: 'profile', identity: it.member.id, profileData };
        })
        .filter((r) => Object.keys(r.profileData).length > 0);
      for (let i = 0; i < d.length; i += UPLOAD) {
        const body = (await request({ method: 'POST', url: `${base}/upload`, body: { d: d.slice(i, i + UPLOAD) } })).body as TEnvelope & { unprocessed?: { error?: string }[] };
        ensureSuccess(body, 'update the profiles');
        const failed = body.unprocessed ?? [];
        if (failed.length > 0) throw new RemoteError(`CleverTap refused ${failed.length} profile update(s): ${failed[0]?.error ?? 'unprocessed'}`, 400);
        written?.(d.slice(i, i + UPLOAD).map((r) => r.identity));
      }
    },
  };
}
