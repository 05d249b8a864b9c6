import { OutboundRefusedError } from '../../../platform/outbound-http/guard';
import type { TAdapterContext } from './types';

/** The platform said "slow down": wait `retryAfterMs` then try again. */
export class RateLimitedError extends Error {
  constructor(public readonly retryAfterMs: number) {
    super(`The platform asked us to slow down; retrying in ${Math.ceil(retryAfterMs / 1000)} s`);
    this.name = 'RateLimitedError';
  }
}
/** The platform refused the credentials. */
export class RemoteAuthError extends Error {
  constructor(message = 'The platform did not accept these credentials') {
    super(message);
    this.name = 'RemoteAuthError';
  }
}
/** Any other failure of the platform (its message kept, readable). */
export class RemoteError extends Error {
  constructor(
    message: string,
    public readonly httpStatus = 0,
  ) {
    super(message);
    this.name = 'RemoteError';
  }
}

export type TRemoteResponse = { status: number; headers: Headers; body: unknown };

/** Reads a throttling signal: ms to wait, or null when the response is not a throttle. Default: 429 + Retry-After. */
export type TThrottleRule = (res: TRemoteResponse) => number | null;

const DEFAULT_WAIT_MS = 1_000;

/** `Retry-After` as seconds or an HTTP date, in ms (null when absent or unreadable). */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

export const retryAfterRule: TThrottleRule = (res) => (res.status === 429 ? (parseRetryAfter(res.headers.get('retry-after')) ?? DEFAULT_WAIT_MS) : null);

/** `form`: a form-encoded body (OAuth token endpoints) instead of JSON. */
export type THttpRequest = { method?: string; url: string; headers?: Record<string, string>; body?: unknown; form?: Record<string, string> };

/**
 * A JSON client for one platform: every request goes through the adapter's guarded outbound client (each connection
 * resolved once, every address checked, the socket pinned to it; a redirect is refused, never followed), answers
 * 401/403 as RemoteAuthError, honours the platform's throttling signal (waits in process a few times, then throws
 * RateLimitedError so the job is retried later) and turns other failures into RemoteError.
 */
export function createJsonClient(ctx: TAdapterContext, opts: { authHeaders: () => Record<string, string>; throttle?: TThrottleRule; errorMessage?: (body: unknown) => string | undefined }) {
  const throttle = opts.throttle ?? retryAfterRule;
  const maxWaits = ctx.maxThrottleWaits ?? 3;
  const maxInlineWaitMs = ctx.maxInlineWaitMs ?? 10_000;

  async function once(req: THttpRequest): Promise<TRemoteResponse> {
    let res: Response;
    try {
      res = await ctx.outbound.fetch(req.url, {
        method: req.method ?? 'GET',
        headers: {
          accept: 'application/json',
          ...(req.form ? { 'content-type': 'application/x-www-form-urlencoded' } : req.body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...opts.authHeaders(),
          ...req.headers,
        },
        body: req.form ? new URLSearchParams(req.form).toString() : req.body !== undefined ? JSON.stringify(req.body) : undefined,
        signal: AbortSignal.timeout(30_000),
      });
    } catch (err) {
      if (err instanceof OutboundRefusedError) throw new RemoteError(err.message);
      throw new RemoteError(`The platform could not be reached (${(err as { cause?: Error }).cause?.message ?? (err as Error).message})`);
    }
    if (res.status >= 300 && res.status < 400) {
      await res.body?.cancel().catch(() => undefined);
      throw new RemoteError(`The platform answered ${res.status}, a redirect to ${res.headers.get('location') ?? 'another address'}; redirects are not followed`, res.status);
    }
    const text = await res.text();
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = text;
    }
    return { status: res.status, headers: res.headers, body };
  }

  return async function request(req: THttpRequest): Promise<TRemoteResponse> {
    for (let waits = 0; ; waits += 1) {
      const res = await once(req);
      const waitMs = throttle(res);
      if (waitMs !== null) {
        if (waits >= maxWaits || waitMs > maxInlineWaitMs) throw new RateLimitedError(waitMs);
        await new Promise((r) => setTimeout(r, waitMs));
        continue;
      }
      if (res.status === 401 || res.status === 403) throw new RemoteAuthError(opts.errorMessage?.(res.body) ?? undefined);
      if (res.status >= 400) {
        throw new RemoteError(`The platform answered ${res.status}${opts.errorMessage?.(res.body) ? `: ${opts.errorMessage(res.body)}` : ''}`, res.status);
      }
      return res;
    }
  };
}

export type TRequest = ReturnType<typeof createJsonClient>;

/** A base URL without its trailing slash. */
export function trimBase(url: string): string {
  return url.replace(/\/+$/, '');
}
