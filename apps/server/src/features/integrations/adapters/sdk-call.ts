import { findRefusal } from '../../../platform/outbound-http/client';
import { OutboundRefusedError, resolveDestination } from '../../../platform/outbound-http/guard';
import { RateLimitedError, RemoteAuthError, RemoteError, retryAfterRule, type TRemoteResponse, type TThrottleRule } from './http';
import type { TAdapterContext } from './types';

/** Headers of an SDK's failure (a plain object, axios' headers or a Headers) as a Headers. */
export function toHeaders(raw: unknown): Headers {
  if (raw instanceof Headers) return raw;
  const out = new Headers();
  if (raw && typeof raw === 'object') {
    for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
      if (typeof v === 'string' || typeof v === 'number') out.set(k, String(v));
      else if (Array.isArray(v)) out.set(k, v.join(', '));
    }
  }
  return out;
}

/** An axios error's response (the SendGrid and MailerLite SDKs call through axios), or null. */
export function axiosFailure(err: unknown): TRemoteResponse | null {
  const res = (err as { response?: { status?: number; headers?: unknown; data?: unknown; body?: unknown } } | null)?.response;
  if (!res || typeof res.status !== 'number') return null;
  return { status: res.status, headers: toHeaders(res.headers), body: res.data ?? res.body ?? null };
}

/**
 * Calls a platform through its official SDK with the same rules as createJsonClient: the SDK's HTTP agent is the
 * adapter's guarded one (`ctx.outbound.nodeAgent`: every connection resolved once, checked and pinned, each redirect
 * hop checked again), the base URL checked first for a readable refusal, the platform's throttling signal honoured (a few short waits in process, then
 * RateLimitedError for the job's back-off; SDK-internal retries stay off so the job decides), 401/403 as
 * RemoteAuthError, any other failure as RemoteError with the platform's message. `readFailure` turns the SDK's
 * error into the platform's response (null: it never got one, e.g. the host could not be reached).
 */
export function createSdkCaller(
  ctx: TAdapterContext,
  opts: { baseUrl: string; readFailure: (err: unknown) => TRemoteResponse | null; throttle?: TThrottleRule; errorMessage?: (body: unknown) => string | undefined },
) {
  const throttle = opts.throttle ?? retryAfterRule;
  const maxWaits = ctx.maxThrottleWaits ?? 3;
  const maxInlineWaitMs = ctx.maxInlineWaitMs ?? 10_000;
  let hostChecked = false;

  async function checkHost() {
    if (hostChecked) return;
    try {
      await resolveDestination(opts.baseUrl, ctx.outbound.policy);
    } catch (err) {
      if (err instanceof OutboundRefusedError) throw new RemoteError(err.message);
      throw err;
    }
    hostChecked = true;
  }

  return async function call<T>(fn: () => Promise<T>): Promise<T> {
    await checkHost();
    for (let waits = 0; ; waits += 1) {
      let res: TRemoteResponse | null;
      try {
        return await fn();
      } catch (err) {
        res = opts.readFailure(err);
        if (!res) throw new RemoteError(findRefusal(err)?.message ?? `The platform could not be reached (${(err as Error).message})`);
      }
      const waitMs = throttle(res);
      if (waitMs !== null) {
        if (waits >= maxWaits || waitMs > maxInlineWaitMs) throw new RateLimitedError(waitMs);
        await new Promise((r) => setTimeout(r, waitMs));
        continue;
      }
      const message = opts.errorMessage?.(res.body);
      if (res.status === 401 || res.status === 403) throw new RemoteAuthError(message ?? undefined);
      throw new RemoteError(`The platform answered ${res.status}${message ? `: ${message}` : ''}`, res.status);
    }
  };
}

export type TSdkCall = ReturnType<typeof createSdkCaller>;
