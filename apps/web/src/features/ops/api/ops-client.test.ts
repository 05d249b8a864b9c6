import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ZMessageData } from '@verilead/contracts';
import { useAlertStore } from '../../../lib/alert-store';
import { ApiError } from '../../../lib/api-error';
import { useSessionStore } from '../../../lib/session-store';
import { requestOps } from './ops-client';
import { useOpsSession } from './ops-session-store';

type TCall = { url: string; init: RequestInit };

function answerWith(status: number, body: unknown): TCall[] {
  const calls: TCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    }),
  );
  return calls;
}

const operator = { id: 'op-1', email: 'ops@example.test', name: 'Ops', active: true, disabled: false, created_at: '2026-01-01T00:00:00.000Z' };

describe('requestOps', () => {
  beforeEach(() => {
    useOpsSession.getState().signIn('vlo_operator-token', operator);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    useOpsSession.getState().signOut();
  });

  it("sends the operator's token to /api/v1/ops, never the customer session's", async () => {
    useSessionStore.setState({ jwtToken: 'vls_customer-token', isLogged: true });
    const calls = answerWith(200, { status: 'success', data: { message: 'ok' } });
    await expect(requestOps({ path: '/orgs', query: { q: 'acme', page: 1 }, schema: ZMessageData })).resolves.toEqual({ message: 'ok' });
    expect(calls[0]!.url).toBe('/api/v1/ops/orgs?q=acme&page=1');
    expect((calls[0]!.init.headers as Record<string, string>).authorization).toBe('Bearer vlo_operator-token');
  });

  it('ends the operator session on 401 without opening the customer app’s session-expired alert', async () => {
    answerWith(401, { status: 'failed', error: { code: 'session_expired', message: 'Your operator session has ended.' } });
    const error = await requestOps({ path: '/me', schema: ZMessageData }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('Your operator session has ended.');
    expect(useOpsSession.getState().token).toBeNull();
    expect(useAlertStore.getState().current).toBeNull();
  });

  it('keeps the session on a refused action and answers the server’s reasons', async () => {
    answerWith(400, { status: 'failed', error: { code: 'validation_failed', message: 'The prices are not valid', reasons: [{ field: 'plans.0.price', location: 'body', messages: ['plans.0.price: Too small'] }] } });
    const error = (await requestOps({ method: 'PUT', path: '/pricing', body: {}, schema: ZMessageData }).catch((e: unknown) => e)) as ApiError;
    expect(error.reasons[0]!.messages).toEqual(['plans.0.price: Too small']);
    expect(useOpsSession.getState().token).toBe('vlo_operator-token');
  });
});
