import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { useSessionStore } from '../../../lib/session-store';
import { buildLogin } from '../../../test/fixtures';
import { answerFailed, answerOk as ok, renderAppAt as renderAt, stubApi } from '../../../test/render-app';
import { readSignupSignIn, saveSignupSignIn } from '../stores/signup-sign-in-store';

async function submitLogin(email: string, password: string) {
  fireEvent.change(await screen.findByLabelText('Email'), { target: { value: email } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
}

const limits = { daily: { limit: null, used: 0, remaining: null }, life_time: { limit: null, used: 0, remaining: null } };
const loggedInAnswers = {
  'GET /api/v1/user/credits_and_limits': ok({
    credits: 10,
    org_credits: 10,
    limits,
    show_daily_limits: false,
    low_credit_alert: { enabled: false, threshold: 0 },
    org_low_credit_alert: { enabled: false, threshold: 0 },
  }),
  'GET /api/v1/user/announcement': ok({ announcement: null, timestamp: 0 }),
};

describe('login screen', () => {
  beforeEach(() => useSessionStore.getState().logout());
  afterEach(() => {
    vi.unstubAllGlobals();
    useSessionStore.getState().logout();
  });

  it('logs in, fills the session, follows ?redirect= and welcomes a first login', async () => {
    const bodies = stubApi({
      ...loggedInAnswers,
      'POST /api/v1/user/login': ok(buildLogin()),
      'POST /api/v1/user/activities': ok({ items: [], total: 1, page: 1, limit: 25 }),
    });
    renderAt(`/login?${new URLSearchParams({ redirect: '/activities?page=1' })}`);
    await submitLogin('Olivia@Acme.test', 'Secret-Password-1');
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/activities?page=1'));
    expect(bodies['POST /api/v1/user/login']).toEqual({ email: 'olivia@acme.test', password: 'Secret-Password-1' });
    expect(useSessionStore.getState()).toMatchObject({ isLogged: true, jwtToken: 'token-abc', email: 'olivia@acme.test' });
    expect((await screen.findByText('Welcome to Verilead, Olivia Owner!')).textContent).toBe('Welcome to Verilead, Olivia Owner!');
  });

  it('shows the server message on wrong credentials and stays logged out', async () => {
    stubApi({
      'POST /api/v1/user/login': answerFailed(401, 'invalid_credentials', 'Wrong email or password'),
    });
    renderAt('/login');
    await submitLogin('olivia@acme.test', 'nope');
    expect((await screen.findByText('Wrong email or password')).textContent).toBe('Wrong email or password');
    expect(useSessionStore.getState().isLogged).toBe(false);
    expect(screen.queryByText('Login Required')).toBeNull();
  });

  it('validates with the contracts schema before calling the server', async () => {
    const bodies = stubApi({});
    renderAt('/login');
    await submitLogin('not-an-email', '');
    expect((await screen.findByText('Please enter a valid email address')).textContent).toBe('Please enter a valid email address');
    expect(Object.keys(bodies)).toEqual([]);
  });

  it('sends an expired password to /expired_password and changes it with the change token', async () => {
    const bodies = stubApi({
      'POST /api/v1/user/login': answerFailed(403, 'password_expired', 'Password expired', {
        additional_info: { change_token: 'change-token-123456' },
      }),
      'POST /api/v1/user/reset-password': ok({ message: 'Password changed' }),
    });
    renderAt('/login');
    await submitLogin('olivia@acme.test', 'Old-Password-1');
    expect((await screen.findByRole('heading', { name: 'Your password has expired' })).tagName).toBe('H2');
    expect(screen.getByTestId('location').textContent).toBe('/expired_password');
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'New-Password-2' } });
    fireEvent.change(screen.getByLabelText('Confirm new password'), { target: { value: 'New-Password-2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect((await screen.findByText('Password changed. Log in with your new password.')).textContent).toBe('Password changed. Log in with your new password.');
    expect(bodies['POST /api/v1/user/reset-password']).toEqual({ token: 'change-token-123456', password: 'New-Password-2' });
    expect(screen.getByTestId('location').textContent).toBe('/login');
  });
});

/** The error text Mantine shows on the labelled field (its aria-describedby error element). */
function fieldError(label: string): string | null {
  const input = screen.getAllByLabelText(label).find((element) => element.tagName === 'INPUT')!;
  const ids = (input.getAttribute('aria-describedby') ?? '').split(' ').filter((id) => id.endsWith('-error'));
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ') || null;
}

describe('signup screen', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows a human message on each field before calling the server', async () => {
    const bodies = stubApi({});
    renderAt('/signup');
    fireEvent.change(await screen.findByLabelText('Work email'), { target: { value: 'ab' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() => expect(fieldError('Full name')).toBe('Please enter your name'));
    expect(fieldError('Work email')).toBe('Please enter a valid email address');
    expect(fieldError('Password')).toBe('Password must be at least 8 characters');
    expect(fieldError('How did you hear about us?')).toBe('Please choose how you heard about us');
    expect(document.body.textContent).not.toMatch(/Too small|Invalid option|expected/);
    expect(Object.keys(bodies)).toEqual([]);
  });

  it('puts the server\'s field reasons on their fields without key prefixes', async () => {
    stubApi({
      'POST /api/v1/user/signup': answerFailed(400, 'validation_failed', 'Please use an address that can receive mail.', {
        reasons: [{ field: 'email', location: 'body', messages: ['Please use an address that can receive mail'] }],
      }),
    });
    renderAt('/signup');
    fireEvent.change(await screen.findByLabelText('Full name'), { target: { value: 'New Person' } });
    fireEvent.change(screen.getByLabelText('Work email'), { target: { value: 'new@acme.test' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'Strong-Pass-1' } });
    fireEvent.click(screen.getByRole('combobox', { name: 'How did you hear about us?' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Friends', hidden: true }));
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() => expect(fieldError('Work email')).toBe('Please use an address that can receive mail'));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('asks to specify "others" and sends the signup', async () => {
    const bodies = stubApi({ 'POST /api/v1/user/signup': ok({ message: 'We sent a message to new@acme.test.', email: 'new@acme.test', sign_in_key: 'vlk_signup-key-0123456789' }) });
    renderAt('/signup');
    fireEvent.change(await screen.findByLabelText('Full name'), { target: { value: 'New Person' } });
    fireEvent.change(screen.getByLabelText('Work email'), { target: { value: 'new@acme.test' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'Strong-Pass-1' } });
    fireEvent.click(screen.getByRole('combobox', { name: 'How did you hear about us?' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Others (specify)', hidden: true }));
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect((await screen.findByText('Please specify how you heard about us')).textContent).toBe('Please specify how you heard about us');
    fireEvent.change(screen.getByLabelText('Please specify'), { target: { value: 'A podcast' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect((await screen.findByRole('heading', { name: 'Check your inbox' })).tagName).toBe('H2');
    // Login works before verification (spec: the session carries isEmailVerified), so the copy does not ask to activate
    // first; and it reads the same for an address that had an account (sign-up never tells which, issue 27.12).
    expect(screen.getAllByText(/new@acme\.test/)).toHaveLength(1);
    expect(screen.queryByText(/activate/i)).toBeNull();
    expect(screen.getByText(/new@acme\.test/).closest('p')?.textContent).toBe(
      'We sent a message to new@acme.test. If this is a new account, open the link in it in this browser: it verifies your address ' +
        'and signs you in (or log in now and verify later). If the address already has an account, the message tells you how to log in or reset your password.',
    );
    // This browser keeps the sign-up's key for the link.
    expect(readSignupSignIn()).toEqual({ email: 'new@acme.test', key: 'vlk_signup-key-0123456789' });
    expect(screen.getByRole('link', { name: 'Go to login' }).getAttribute('href')).toBe('/login');
    expect(bodies['POST /api/v1/user/signup']).toEqual({
      name: 'New Person',
      email: 'new@acme.test',
      password: 'Strong-Pass-1',
      signup_source: 'others',
      signup_source_other: 'A podcast',
    });
  });
});

describe('reset password screen', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('sets the new password with the token and goes to login', async () => {
    const bodies = stubApi({ 'POST /api/v1/user/verify_token': ok({ valid: true, kind: 'password_reset', email: 'olivia@acme.test', expires_at: '2026-12-01T00:00:00Z', reason: 'ok' }), 'POST /api/v1/user/reset-password': ok({ message: 'Password changed' }) });
    renderAt('/resetpassword?token=reset-token-123456');
    fireEvent.change(await screen.findByLabelText('New password'), { target: { value: 'New-Password-2' } });
    fireEvent.change(screen.getByLabelText('Confirm new password'), { target: { value: 'New-Password-2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    expect((await screen.findByText('Your password has been changed. Log in with it now.')).textContent).toBe('Your password has been changed. Log in with it now.');
    expect(screen.getByTestId('location').textContent).toBe('/login');
    expect(bodies['POST /api/v1/user/reset-password']).toEqual({ token: 'reset-token-123456', password: 'New-Password-2' });
  });

  it('says so when the link was already used, and catches mismatched passwords first', async () => {
    const bodies = stubApi({
      'POST /api/v1/user/verify_token': ok({ valid: true, kind: 'password_reset', email: 'olivia@acme.test', expires_at: '2026-12-01T00:00:00Z', reason: 'ok' }),
      'POST /api/v1/user/reset-password': answerFailed(400, 'invalid_token', 'This link is invalid or has expired', {
        reasons: [{ field: 'token', location: 'body', messages: ['Invalid or expired token'] }],
      }),
    });
    renderAt('/resetpassword?token=used-token-123456');
    fireEvent.change(await screen.findByLabelText('New password'), { target: { value: 'New-Password-2' } });
    fireEvent.change(screen.getByLabelText('Confirm new password'), { target: { value: 'Other-Password-3' } });
    fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    expect((await screen.findByText('Passwords do not match')).textContent).toBe('Passwords do not match');
    expect(Object.keys(bodies)).toEqual(['POST /api/v1/user/verify_token']);
    fireEvent.change(screen.getByLabelText('Confirm new password'), { target: { value: 'New-Password-2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    expect((await screen.findByRole('alert')).textContent).toContain('This link is invalid or has expired');
    expect(screen.getByTestId('location').textContent).toBe('/resetpassword?token=used-token-123456');
  });

  it('a link already used shows no form: it says so and offers a new link', async () => {
    const bodies = stubApi({ 'POST /api/v1/user/verify_token': ok({ valid: false, kind: 'password_reset', email: null, expires_at: null, reason: 'used' }) });
    renderAt('/resetpassword?token=used-token-123456');
    expect((await screen.findByText('This link has already been used.')).textContent).toBe('This link has already been used.');
    expect(screen.queryByLabelText('New password')).toBeNull();
    expect(screen.getByRole('link', { name: 'Request a new link' }).getAttribute('href')).toBe('/forgot_password');
    expect(bodies['POST /api/v1/user/verify_token']).toEqual({ token: 'used-token-123456', kind: 'password_reset' });
  });
});

describe('the demo notice on the sign-in pages', () => {
  afterEach(() => vi.unstubAllGlobals());
  const demo = ok({
    demo: true,
    demo_accounts: [
      { role: 'Owner', email: 'owner@demo.verilead.test' },
      { role: 'Manager', email: 'manager@demo.verilead.test' },
    ],
    demo_password: 'Demo-Password-1',
  });

  it('says the quick start is a demo, with its accounts, on the login screen', async () => {
    stubApi({ 'GET /api/v1/public/instance': demo });
    renderAt('/login');
    const notice = await screen.findByRole('note', { name: 'Demo' });
    expect(notice.textContent).toBe(
      "DemoThis server is the quick start's demo: its data is made up and payments run in test mode." +
        'Log in as owner@demo.verilead.test (owner) or manager@demo.verilead.test (manager) with the password Demo-Password-1.',
    );
  });

  it('shows on the sign-up screen too', async () => {
    stubApi({ 'GET /api/v1/public/instance': demo });
    renderAt('/signup');
    expect((await screen.findByRole('note', { name: 'Demo' })).textContent).toContain('payments run in test mode');
  });

  for (const [label, answers] of [
    ['on a production server', { 'GET /api/v1/public/instance': ok({ demo: false, demo_accounts: [], demo_password: null }) }],
    ['when the server cannot tell', {}],
  ] as const) {
    it(`shows nothing ${label}`, async () => {
      stubApi(answers);
      renderAt('/login');
      await screen.findByRole('button', { name: 'Log in' });
      // The notice's question was asked and its answer's body read (when it had one); one macrotask turn then lets the promise chain
      // after the read and React's update finish, before the absence is checked.
      await waitFor(() => expect(vi.mocked(fetch).mock.calls.map((c) => String(c[0]))).toContain('/api/v1/public/instance'));
      const asked = vi.mocked(fetch).mock.calls.findIndex((c) => String(c[0]) === '/api/v1/public/instance');
      const response = (await vi.mocked(fetch).mock.results[asked]!.value) as Response;
      await waitFor(() => expect(!response.ok || response.bodyUsed).toBe(true));
      await act(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));
      expect(screen.queryByRole('note', { name: 'Demo' })).toBeNull();
    });
  }
});

describe('email verification screen', () => {
  beforeEach(() => {
    useSessionStore.getState().logout();
    window.localStorage.clear();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    useSessionStore.getState().logout();
    window.localStorage.clear();
  });
  const validToken = ok({ valid: true, kind: 'email_verification', email: 'olivia@acme.test', expires_at: '2026-12-01T00:00:00Z', reason: 'ok' });

  it('in the browser that signed up, verifies and signs in with the kept key, lands on the dashboard and forgets the key', async () => {
    saveSignupSignIn('olivia@acme.test', 'vlk_signup-key-0123456789');
    const bodies = stubApi({
      ...loggedInAnswers,
      'POST /api/v1/user/verify_token': validToken,
      'POST /api/v1/user/activate': ok({ message: 'Your e-mail address is verified', email: 'olivia@acme.test', isEmailVerified: true, login: buildLogin() }),
      'POST /api/v1/user/activities': ok({ items: [], total: 1, page: 1, limit: 25 }),
    });
    renderAt('/emailverification?token=verify-token-123456');
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/'));
    expect(bodies['POST /api/v1/user/activate']).toEqual({ token: 'verify-token-123456', sign_in_key: 'vlk_signup-key-0123456789' });
    expect(useSessionStore.getState()).toMatchObject({ isLogged: true, jwtToken: 'token-abc', email: 'olivia@acme.test' });
    expect(readSignupSignIn()).toBeNull();
    // A first sign-in: the welcome modal greets the person, as after a first login.
    expect((await screen.findByText('Welcome to Verilead, Olivia Owner!')).textContent).toBe('Welcome to Verilead, Olivia Owner!');
  });

  it('elsewhere (no key), says the address is verified on the login screen with the address filled in', async () => {
    const bodies = stubApi({
      'POST /api/v1/user/verify_token': validToken,
      'POST /api/v1/user/activate': ok({ message: 'Your e-mail address is verified', email: 'olivia@acme.test', isEmailVerified: true, login: null }),
    });
    renderAt('/emailverification?token=verify-token-123456');
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/login'));
    expect(bodies['POST /api/v1/user/activate']).toEqual({ token: 'verify-token-123456' });
    expect((await screen.findByText('olivia@acme.test is verified. Log in to start verifying.')).textContent).toBe('olivia@acme.test is verified. Log in to start verifying.');
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('olivia@acme.test');
    expect(useSessionStore.getState().isLogged).toBe(false);
  });

  it('already signed in, verifies without asking for a new session and offers the dashboard', async () => {
    saveSignupSignIn('olivia@acme.test', 'vlk_signup-key-0123456789');
    useSessionStore.getState().fillSession(buildLogin());
    const bodies = stubApi({
      ...loggedInAnswers,
      'POST /api/v1/user/verify_token': validToken,
      'POST /api/v1/user/activate': ok({ message: 'Your e-mail address is verified', email: 'olivia@acme.test', isEmailVerified: true, login: null }),
    });
    renderAt('/emailverification?token=verify-token-123456');
    expect((await screen.findByText('Your email is verified')).textContent).toBe('Your email is verified');
    expect(bodies['POST /api/v1/user/activate']).toEqual({ token: 'verify-token-123456' });
    expect(screen.getByTestId('email-verification-detail').textContent).toBe('olivia@acme.test is confirmed.');
    expect(screen.getByRole('link', { name: 'Go to dashboard' }).getAttribute('href')).toBe('/');
  });
});
