import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { notifications } from '@mantine/notifications';
import { APP_VERSION, ZUserProfile } from '@verilead/contracts';
import { buildLogin } from '../test/fixtures';
import { useAlertStore } from './alert-store';
import { ApiError } from './api-error';
import { cancelPendingPricingRedirect, requestApi, subscribeAnnouncementChange } from './api-client';
import { setAppNavigator } from './app-navigator';
import { useSessionStore } from './session-store';

type TCall = { url: string; init: RequestInit };

/** A fetch stand-in answering one canned response per call (test only). */
function answerWith(status: number, body: unknown, headers: Record<string, string> = {}) {
  const calls: TCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
    }),
  );
  return calls;
}

function failure(code: string, message: string, additional_info?: Record<string, unknown>) {
  return { status: 'failed', error: { code, message, ...(additional_info ? { additional_info } : {}) } };
}

async function catchError(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

describe('requestApi', () => {
  let toasts: ReturnType<typeof vi.spyOn>;
  let navigated: string[];

  beforeEach(() => {
    useSessionStore.getState().fillSession(buildLogin());
    useAlertStore.setState({ current: null });
    toasts = vi.spyOn(notifications, 'show').mockImplementation(() => 'toast');
    navigated = [];
    setAppNavigator((path) => navigated.push(path));
  });

  afterEach(() => {
    cancelPendingPricingRedirect();
    setAppNavigator(null);
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    vi.useRealTimers();
    useSessionStore.getState().logout();
  });

  it('sends the bearer token and app version and unwraps the success envelope', async () => {
    const profile = buildLogin().user;
    const calls = answerWith(200, { status: 'success', data: profile });
    const data = await requestApi({ path: '/user/profile', schema: ZUserProfile });
    expect(data.email).toBe(profile.email);
    expect(calls[0]?.url).toBe('/api/v1/user/profile');
    const headers = calls[0]?.init.headers as Record<string, string>;
    expect(headers.authorization).toBe('Bearer token-abc');
    expect(headers['x-app-version']).toBe(APP_VERSION);
    expect(APP_VERSION).toBe('31.3.1');
  });

  it('sends no token when logged out and serialises query and body', async () => {
    useSessionStore.getState().logout();
    const calls = answerWith(200, { status: 'success', data: { ok: true } });
    await requestApi({ method: 'POST', path: '/user/activities', query: { page: 2, kind: undefined }, body: { limit: 25 } });
    expect(calls[0]?.url).toBe('/api/v1/user/activities?page=2');
    expect((calls[0]?.init.headers as Record<string, string>).authorization).toBeUndefined();
    expect(calls[0]?.init.body).toBe('{"limit":25}');
  });

  it('rejects a response that does not match the schema', async () => {
    answerWith(200, { status: 'success', data: { nope: 1 } });
    const error = await catchError(requestApi({ path: '/user/profile', schema: ZUserProfile }));
    expect(error.code).toBe('invalid_response');
  });

  it('401: opens Login Required, rejects, and signs out when the modal closes', async () => {
    answerWith(401, failure('session_expired', 'Session expired'));
    const error = await catchError(requestApi({ path: '/user/profile' }));
    expect(error.status).toBe(401);
    expect(error.code).toBe('session_expired');
    const alert = useAlertStore.getState().current;
    expect(alert).toMatchObject({
      kind: 'session_expired',
      title: 'Login Required',
      message: 'Session expired. Please login again to continue.',
    });
    expect(useSessionStore.getState().isLogged).toBe(true);
    useAlertStore.getState().closeAlert();
    expect(useSessionStore.getState().isLogged).toBe(false);
    expect(useAlertStore.getState().current).toBeNull();
  });

  it('401 account_suspended: the alert says the account is suspended, with the server message', async () => {
    answerWith(401, failure('account_suspended', 'Your account is suspended by Verilead support. Please contact support to restore it.'));
    await catchError(requestApi({ path: '/user/profile' }));
    expect(useAlertStore.getState().current).toMatchObject({
      kind: 'session_expired',
      title: 'Account suspended',
      message: 'Your account is suspended by Verilead support. Please contact support to restore it.',
    });
    useAlertStore.getState().closeAlert();
    expect(useSessionStore.getState().isLogged).toBe(false);
  });

  it('401 without a session (e.g. a wrong password) opens no modal', async () => {
    useSessionStore.getState().logout();
    answerWith(401, failure('invalid_credentials', 'Wrong email or password'));
    const error = await catchError(requestApi({ method: 'POST', path: '/user/login', body: {} }));
    expect(error.message).toBe('Wrong email or password');
    expect(useAlertStore.getState().current).toBeNull();
  });

  it('402 with required_credits: Payment Required toast, then /pricing after 5 s', async () => {
    vi.useFakeTimers();
    answerWith(402, failure('insufficient_credits', 'Not enough credits', { required_credits: 250 }));
    const error = await catchError(requestApi({ method: 'POST', path: '/email_verify/instant', body: {} }));
    expect(error.status).toBe(402);
    expect(toasts).toHaveBeenCalledWith(
      expect.objectContaining({
        title: 'Payment Required',
        message: 'You have exhausted your credits, please add additional 250 credits to continue',
        autoClose: 5000,
      }),
    );
    vi.advanceTimersByTime(4999);
    expect(navigated).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(navigated).toEqual(['/pricing']);
  });

  it('402 for a member who may not open /pricing: the toast, and no redirect to a page they cannot use', async () => {
    vi.useFakeTimers();
    useSessionStore.getState().fillSession(buildLogin({ user_role: 'analyst' }));
    answerWith(402, failure('insufficient_credits', 'Not enough credits', { required_credits: 250 }));
    await catchError(requestApi({ method: 'POST', path: '/email_verify/instant', body: {} }));
    expect(toasts).toHaveBeenCalledWith(expect.objectContaining({ title: 'Payment Required' }));
    vi.advanceTimersByTime(10_000);
    expect(navigated).toEqual([]);
  });

  it("402 for a member's own daily limit: the server's daily-limit message, and no redirect even for the owner", async () => {
    vi.useFakeTimers();
    answerWith(
      402,
      failure('daily_limit_exceeded', 'Your daily credit limit is reached. It resets at the start of the next day.', {
        required_credits: 1,
        limit_type: 'daily',
        limit: 5,
        remaining: 0,
      }),
    );
    await catchError(requestApi({ method: 'POST', path: '/email_verify/instant', body: {} }));
    expect(toasts).toHaveBeenCalledWith(
      expect.objectContaining({ title: 'Daily limit reached', message: 'Your daily credit limit is reached. It resets at the start of the next day.' }),
    );
    vi.advanceTimersByTime(10_000);
    expect(navigated).toEqual([]);
  });

  it("402 without required_credits shows the server's message", async () => {
    answerWith(402, failure('insufficient_credits', 'Your organisation has no credits left'));
    await catchError(requestApi({ path: '/user/check_credit_status' }));
    expect(toasts).toHaveBeenCalledWith(expect.objectContaining({ title: 'Payment Required', message: 'Your organisation has no credits left' }));
  });

  it('418: opens the version-update modal with the code and message', async () => {
    answerWith(418, failure('app_version_outdated', 'A new version of Verilead is available.', { update_code: 'clear_storage_reload' }));
    const error = await catchError(requestApi({ path: '/user/profile' }));
    expect(error.status).toBe(418);
    expect(useAlertStore.getState().current).toEqual({
      kind: 'version_update',
      code: 'clear_storage_reload',
      message: 'A new version of Verilead is available.',
    });
  });

  it('418 beats 401: only one alert, chosen by priority', async () => {
    answerWith(401, failure('session_expired', 'Session expired'));
    await catchError(requestApi({ path: '/user/profile' }));
    expect(useAlertStore.getState().current?.kind).toBe('session_expired');
    answerWith(418, failure('app_version_outdated', 'Update', { update_code: 'hard_reload' }));
    await catchError(requestApi({ path: '/user/profile' }));
    expect(useAlertStore.getState().current?.kind).toBe('version_update');
    answerWith(401, failure('session_expired', 'Session expired'));
    await catchError(requestApi({ path: '/user/profile' }));
    expect(useAlertStore.getState().current?.kind).toBe('version_update');
  });

  it('429: only logged, still rejected', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    answerWith(429, failure('rate_limited', 'Too many requests'));
    const error = await catchError(requestApi({ path: '/user/profile' }));
    expect(error.status).toBe(429);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(useAlertStore.getState().current).toBeNull();
    expect(toasts).not.toHaveBeenCalled();
  });

  it('400: rejected with the reasons, no alert', async () => {
    answerWith(400, {
      status: 'failed',
      error: { code: 'validation_failed', message: 'Invalid input', reasons: [{ field: 'name', location: 'body', messages: ['Required'] }] },
    });
    const error = await catchError(requestApi({ method: 'POST', path: '/user/name/edit', body: {} }));
    expect(error.reasons).toEqual([{ field: 'name', location: 'body', messages: ['Required'] }]);
    expect(useAlertStore.getState().current).toBeNull();
  });

  it('re-fetches the announcement when x-co-ann-ts differs from the stored timestamp', async () => {
    const seen: number[] = [];
    const unsubscribe = subscribeAnnouncementChange((timestamp) => seen.push(timestamp));
    answerWith(200, { status: 'success', data: {} }, { 'x-co-ann-ts': '0' });
    await requestApi({ path: '/user/profile' });
    expect(seen).toEqual([]);
    answerWith(200, { status: 'success', data: {} }, { 'x-co-ann-ts': '1763800000' });
    await requestApi({ path: '/user/profile' });
    await requestApi({ path: '/user/profile' });
    expect(seen).toEqual([1763800000]);
    expect(useSessionStore.getState().announcement_timestamp).toBe(1763800000);
    unsubscribe();
  });
});
