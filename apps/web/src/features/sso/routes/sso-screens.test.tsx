import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { SSO_ONLY_MESSAGE } from '@verilead/contracts';
import { useSessionStore } from '../../../lib/session-store';
import { buildLogin } from '../../../test/fixtures';
import { answerFailed, answerOk as ok, renderAppAt, stubApi } from '../../../test/render-app';
import { rememberPendingSso } from '../api/sso-api';

const limits = { daily: { limit: null, used: 0, remaining: null }, life_time: { limit: null, used: 0, remaining: null } };
const loggedIn = {
  'GET /api/v1/user/credits_and_limits': ok({ credits: 10, org_credits: 10, limits, show_daily_limits: false, low_credit_alert: { enabled: false, threshold: 0 }, org_low_credit_alert: { enabled: false, threshold: 0 } }),
  'GET /api/v1/user/announcement': ok({ announcement: null, timestamp: 0 }),
};
const noSso = ok({ sso_enabled: false, sso_only: false, protocol: null, social_providers: ['google'] });

describe('SSO screens', () => {
  beforeEach(() => useSessionStore.getState().logout());
  afterEach(() => {
    vi.unstubAllGlobals();
    sessionStorage.clear();
    useSessionStore.getState().logout();
  });

  it('finishes a Google sign-in from the provider answer and logs in', async () => {
    const bodies = stubApi({ ...loggedIn, 'GET /api/v1/sso/config': noSso, 'POST /api/v1/sso/google/activate': ok(buildLogin()) });
    rememberPendingSso('google');
    renderAppAt('/sso/signin?code=the-code&state=the-state&iss=http%3A%2F%2Fidp');
    await waitFor(() => expect(bodies['POST /api/v1/sso/google/activate']).toBeTruthy());
    await waitFor(() => expect(useSessionStore.getState().isLogged).toBe(true));
    expect(bodies['POST /api/v1/sso/google/activate']).toEqual({ code: 'the-code', state: 'the-state', iss: 'http://idp' });
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/'));
  });

  it('shows why a sign-in was refused, and says when a domain has no SSO', async () => {
    stubApi({ 'GET /api/v1/sso/config': noSso });
    renderAppAt(`/sso/signin?sso_error=${encodeURIComponent('This sign-in answer was already used. Please start again.')}`);
    expect((await screen.findByText('This sign-in answer was already used. Please start again.')).textContent).toBe('This sign-in answer was already used. Please start again.');
    expect(await screen.findByRole('button', { name: 'Sign in with Google' })).toHaveProperty('disabled', false);
    expect(screen.queryByRole('button', { name: 'Sign in with Microsoft' })).toBeNull();
    fireEvent.change(screen.getByLabelText('Work email'), { target: { value: 'me@nosso.test' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue with SSO' }));
    expect((await screen.findByText(/not set up for this e-mail domain/)).textContent).toBe('Single sign-on is not set up for this e-mail domain. Please log in with your password.');
    expect(useSessionStore.getState().isLogged).toBe(false);
  });

  it('one-tool link: logs in once, or explains an expired link', async () => {
    stubApi({ ...loggedIn, 'POST /api/v1/onetool/verify_token': ok({ valid: true, email: 'olivia@acme.test' }), 'POST /api/v1/onetool/login': ok(buildLogin()) });
    renderAppAt('/onetool_login?token=vlo_0123456789abcdef');
    await waitFor(() => expect(useSessionStore.getState().isLogged).toBe(true));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/'));
  });

  it('one-tool link refused by an SSO-only organisation shows the message', async () => {
    stubApi({ 'POST /api/v1/onetool/verify_token': ok({ valid: true, email: 'a@b.test' }), 'POST /api/v1/onetool/login': answerFailed(403, 'sso_required', SSO_ONLY_MESSAGE) });
    renderAppAt('/onetool_login?token=vlo_0123456789abcdef');
    expect((await screen.findByText(SSO_ONLY_MESSAGE)).textContent).toBe('Your organisation requires single sign-on. Please sign in with SSO.');
    expect(useSessionStore.getState().isLogged).toBe(false);
  });
});

describe('Authentication screen', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    useSessionStore.getState().logout();
  });

  it('asks for a domain before saving', async () => {
    const empty = { setting_last_modified_on: null, enabled: false, enforce: false, provider: null, domains: [], issuer_url: null, sso_url: null, client_id: null, has_client_secret: false, has_certificate: false, default_role: 'analyst', domain_claims: [] };
    const bodies = stubApi({ ...loggedIn, 'GET /api/v1/user_preferences/sso': ok(empty) });
    useSessionStore.getState().fillSession(buildLogin());
    renderAppAt('/account/authentication');
    fireEvent.click(await screen.findByRole('button', { name: 'Save' }));
    expect((await screen.findByText('Please enter at least one domain')).textContent).toBe('Please enter at least one domain');
    expect(bodies['POST /api/v1/user_preferences/sso']).toBeUndefined();
  });

  it('turns SSO on and saves the OIDC settings; a server reason lands on its field', async () => {
    const saved = { setting_last_modified_on: null, enabled: false, enforce: false, provider: 'oidc', domains: ['acme.test'], issuer_url: null, sso_url: null, client_id: null, has_client_secret: false, has_certificate: false, default_role: 'analyst', domain_claims: [] };
    const bodies = stubApi({
      ...loggedIn,
      'GET /api/v1/user_preferences/sso': ok(saved),
      'POST /api/v1/user_preferences/sso': answerFailed(409, 'conflict', 'acme.test is already used', { reasons: [{ field: 'domains', location: 'body', messages: ['acme.test is already used for single sign-on by another organisation'] }] }),
    });
    useSessionStore.getState().fillSession(buildLogin());
    renderAppAt('/account/authentication');
    const toggle = await screen.findByRole('switch', { name: 'Single sign-on is on' });
    fireEvent.click(toggle);
    await waitFor(() => expect((toggle as HTMLInputElement).checked).toBe(true));
    fireEvent.change(screen.getByLabelText('Issuer URL'), { target: { value: 'https://idp.acme.test' } });
    fireEvent.change(screen.getByLabelText('Client ID'), { target: { value: 'client-1' } });
    fireEvent.change(screen.getByLabelText('Client secret'), { target: { value: 'secret-1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByText('acme.test is already used for single sign-on by another organisation')).textContent).toBe('acme.test is already used for single sign-on by another organisation');
    expect(bodies['POST /api/v1/user_preferences/sso']).toMatchObject({ enabled: true, provider: 'oidc', domains: ['acme.test'], issuer_url: 'https://idp.acme.test', client_id: 'client-1', client_secret: 'secret-1' });
  }, 20_000);

  it('shows a pending domain with its TXT record and the reason of a failed check, and verifies it', async () => {
    const pending = {
      domain: 'acme.test',
      status: 'pending',
      txt_name: '_verilead-challenge.acme.test',
      txt_value: 'verilead-domain-verification=0123456789abcdef0123456789abcdef',
      verified_at: null,
      checked_at: '2026-11-28T10:00:00.000Z',
      failure: 'No TXT record found for _verilead-challenge.acme.test.',
    };
    const settings = { setting_last_modified_on: '2026-11-28T10:00:00.000Z', enabled: true, enforce: false, provider: 'oidc', domains: ['acme.test'], issuer_url: 'https://idp.acme.test', sso_url: null, client_id: 'c', has_client_secret: true, has_certificate: false, default_role: 'analyst', domain_claims: [pending] };
    const bodies = stubApi({
      ...loggedIn,
      'GET /api/v1/user_preferences/sso': ok(settings),
      'POST /api/v1/user_preferences/sso/domains/verify': ok({ ...pending, status: 'verified', verified_at: '2026-11-28T11:00:00.000Z', checked_at: '2026-11-28T11:00:00.000Z', failure: null }),
    });
    useSessionStore.getState().fillSession(buildLogin());
    renderAppAt('/account/authentication');
    const row = await screen.findByTestId('domain-claim-acme.test');
    expect(within(row).getByText('Pending').textContent).toBe('Pending');
    expect(within(row).getByText('_verilead-challenge.acme.test').tagName).toBe('CODE');
    expect(within(row).getByText('verilead-domain-verification=0123456789abcdef0123456789abcdef').tagName).toBe('CODE');
    expect(within(row).getByRole('alert').textContent).toContain('No TXT record found for _verilead-challenge.acme.test.');
    fireEvent.click(within(row).getByRole('button', { name: 'Verify' }));
    expect((await within(row).findByText('Verified')).textContent).toBe('Verified');
    expect(within(row).getByText(/^Verified on /).textContent).toMatch(/^Verified on .*2026/);
    expect(within(row).queryByRole('button', { name: 'Verify' })).toBeNull();
    expect(bodies['POST /api/v1/user_preferences/sso/domains/verify']).toEqual({ domain: 'acme.test' });
  }, 20_000);
});
