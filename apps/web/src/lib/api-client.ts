import type { z } from 'zod';
import {
  ANNOUNCEMENT_TS_HEADER,
  APP_VERSION,
  APP_VERSION_HEADER,
  PAYMENT_REDIRECT_MS,
  findMenuEntry,
  isAppUpdateCode,
  isMenuAllowed,
} from '@verilead/contracts';
import { ApiError } from './api-error';
import { useAlertStore } from './alert-store';
import { navigateApp } from './app-navigator';
import { cancelPendingPricingRedirect, isPricingRedirectPending, schedulePricingRedirect } from './pricing-redirect';
import { getSessionToken, useSessionStore } from './session-store';
import { showToast } from './toast';

export const API_BASE = '/api/v1';

export type THttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type TQueryValue = string | number | boolean | null | undefined;

export type TApiRequest<S extends z.ZodType | undefined> = {
  method?: THttpMethod;
  path: string;
  query?: Record<string, TQueryValue>;
  body?: unknown;
  /** Schema of the success envelope's `data`; the response is validated against it. */
  schema?: S;
  signal?: AbortSignal;
  /** Set false for calls that must not carry the session token. */
  auth?: boolean;
  /** A token to use instead of the session's (a call made right after login, before the session is filled). */
  bearer?: string;
};

type TAnnouncementListener = (timestamp: number) => void;
const announcementListeners = new Set<TAnnouncementListener>();

/** Called when a response's x-co-ann-ts differs from the stored announcement timestamp. */
export function subscribeAnnouncementChange(listener: TAnnouncementListener): () => void {
  announcementListeners.add(listener);
  return () => announcementListeners.delete(listener);
}

/** Re-exported for the callers and tests that cancel it through the API client. */
export { cancelPendingPricingRedirect };

function buildUrl(path: string, query?: Record<string, TQueryValue>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const search = params.toString();
  return `${API_BASE}${path}${search ? `?${search}` : ''}`;
}

function checkAnnouncementHeader(response: Response): void {
  const header = response.headers.get(ANNOUNCEMENT_TS_HEADER);
  if (header === null || !getSessionToken()) return;
  const timestamp = Number(header);
  if (!Number.isFinite(timestamp)) return;
  const session = useSessionStore.getState();
  if (session.announcement_timestamp === timestamp) return;
  session.setAnnouncementTimestamp(timestamp);
  for (const listener of announcementListeners) listener(timestamp);
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

function signOut(): void {
  cancelPendingPricingRedirect();
  useSessionStore.getState().logout();
}

function canOpenPricing(): boolean {
  const role = useSessionStore.getState().user_role;
  const pricing = findMenuEntry('account', 'pricing');
  return Boolean(role && pricing && isMenuAllowed(pricing, role));
}

/** The side effects of spec section 8; the error is still rejected to the caller afterwards. */
export function handleApiError(error: ApiError, hadSession: boolean): void {
  switch (error.status) {
    case 401:
      if (hadSession) {
        useAlertStore.getState().openAlert({
          kind: 'session_expired',
          title: error.code === 'account_suspended' ? 'Account suspended' : 'Login Required',
          // A suspension by Verilead support says so (the server's message); anything else is an ended session.
          message: error.code === 'account_suspended' ? error.message : 'Session expired. Please login again to continue.',
          onClose: signOut,
        });
      }
      return;
    case 402: {
      // A member's own daily or life-time limit: the organisation has credits, so no "exhausted" message and no pricing page.
      if (error.code === 'daily_limit_exceeded' || error.code === 'life_time_limit_exceeded') {
        const title = error.code === 'daily_limit_exceeded' ? 'Daily limit reached' : 'Credit limit reached';
        showToast({ id: 'payment-required', title, message: error.message, kind: 'error' });
        return;
      }
      const required = error.additionalInfo.required_credits;
      const message =
        typeof required === 'number'
          ? `You have exhausted your credits, please add additional ${required} credits to continue`
          : error.message;
      showToast({ id: 'payment-required', title: 'Payment Required', message, kind: 'error' });
      // Only a role that may open /pricing (the owner) is sent there; others keep the toast.
      if (!isPricingRedirectPending() && canOpenPricing()) schedulePricingRedirect(() => navigateApp('/pricing'), PAYMENT_REDIRECT_MS);
      return;
    }
    case 418: {
      const code = error.additionalInfo.update_code;
      useAlertStore.getState().openAlert({
        kind: 'version_update',
        code: isAppUpdateCode(code) ? code : 'reload',
        message: error.message,
      });
      return;
    }
    case 429:
      console.warn(`[api] rate limited (429): ${error.message}`);
      return;
    default:
      return;
  }
}

/** Calls the API: adds the bearer token and app version, unwraps the envelope, validates `data`. */
export async function requestApi<S extends z.ZodType | undefined = undefined>(
  request: TApiRequest<S>,
): Promise<S extends z.ZodType ? z.infer<S> : unknown> {
  const token = request.auth === false ? null : (request.bearer ?? getSessionToken());
  const headers: Record<string, string> = { [APP_VERSION_HEADER]: APP_VERSION, accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const hasBody = request.body !== undefined;
  if (hasBody) headers['content-type'] = 'application/json';

  let response: Response;
  try {
    response = await fetch(buildUrl(request.path, request.query), {
      method: request.method ?? 'GET',
      headers,
      body: hasBody ? JSON.stringify(request.body) : undefined,
      signal: request.signal,
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new ApiError({ status: 0, code: 'network_error', message: 'Could not reach the server. Check your connection.' });
  }

  checkAnnouncementHeader(response);
  const payload = await readJson(response);

  if (!response.ok) {
    // The failure envelope's schema loads with the first failed answer (not on every page; issue 12).
    const { toApiError } = await import('./failure-envelope');
    const error = toApiError(response.status, payload, response.statusText);
    handleApiError(error, token !== null);
    throw error;
  }

  const data = (payload as { data?: unknown } | null)?.data;
  if (!request.schema) return data as S extends z.ZodType ? z.infer<S> : unknown;
  const parsed = request.schema.safeParse(data);
  if (!parsed.success) {
    throw new ApiError({
      status: response.status,
      code: 'invalid_response',
      message: 'The server answered with an unexpected response.',
    });
  }
  return parsed.data as S extends z.ZodType ? z.infer<S> : unknown;
}
