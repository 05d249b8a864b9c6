import type { z } from 'zod';
import { APP_VERSION, APP_VERSION_HEADER } from '@verilead/contracts';
import { API_BASE, type THttpMethod, type TQueryValue } from '../../../lib/api-client';
import { ApiError } from '../../../lib/api-error';
import { useOpsSession } from './ops-session-store';

export type TOpsRequest<S extends z.ZodType> = {
  method?: THttpMethod;
  /** Relative to /api/v1/ops (e.g. `/orgs`). */
  path: string;
  query?: Record<string, TQueryValue>;
  body?: unknown;
  schema: S;
  signal?: AbortSignal;
};

/**
 * Calls an operator console route with the operator's token (never the customer session's). A 401 ends the operator
 * session (the console shows its sign-in page); the customer app's alerts and redirects are not involved.
 */
export async function requestOps<S extends z.ZodType>(request: TOpsRequest<S>): Promise<z.infer<S>> {
  const token = useOpsSession.getState().token;
  const headers: Record<string, string> = { [APP_VERSION_HEADER]: APP_VERSION, accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(request.query ?? {})) if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  const search = params.toString();
  let response: Response;
  try {
    response = await fetch(`${API_BASE}/ops${request.path}${search ? `?${search}` : ''}`, {
      method: request.method ?? 'GET',
      headers,
      body: request.body !== undefined ? JSON.stringify(request.body) : undefined,
      signal: request.signal,
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new ApiError({ status: 0, code: 'network_error', message: 'Could not reach the server. Check your connection.' });
  }
  const text = await response.text();
  let payload: unknown = null;
  try {
    payload = text ? (JSON.parse(text) as unknown) : null;
  } catch {
    payload = null;
  }
  if (!response.ok) {
    const { toApiError } = await import('../../../lib/failure-envelope');
    if (response.status === 401 && token) useOpsSession.getState().signOut();
    throw toApiError(response.status, payload, response.statusText);
  }
  const parsed = request.schema.safeParse((payload as { data?: unknown } | null)?.data);
  if (!parsed.success) throw new ApiError({ status: response.status, code: 'invalid_response', message: 'The server answered with an unexpected response.' });
  return parsed.data as z.infer<S>;
}
