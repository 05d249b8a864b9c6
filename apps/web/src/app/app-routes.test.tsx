import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { groupMenusByArea, visibleMenus, type TRole } from '@verilead/contracts';
import { BUILT_SCREENS } from './built-screens';
import { useSessionStore } from '../lib/session-store';
import { buildLogin, buildProfile } from '../test/fixtures';
import { currentLocation, renderAppAt } from '../test/render-app';

/** Canned API answers by path (test only). */
function stubApi() {
  const limits = { daily: { limit: null, used: 0, remaining: null }, life_time: { limit: null, used: 0, remaining: null } };
  const answers: Record<string, unknown> = {
    '/api/v1/user/credits_and_limits': {
      credits: 1234,
      org_credits: 1234,
      limits,
      show_daily_limits: false,
      low_credit_alert: { enabled: false, threshold: 100 },
      org_low_credit_alert: { enabled: false, threshold: 100 },
    },
    '/api/v1/user/activities': { items: [], total: 0, page: 1, limit: 25 },
    '/api/v1/user/announcement': { announcement: null, timestamp: 0 },
    // The same credits as credits_and_limits: the shell reads both, as the server would answer them.
    '/api/v1/user/profile': buildProfile({ credits: 1234, timezone: 'Asia/Kolkata', organisation: { ...buildProfile().organisation, credits: 1234 } }),
    '/api/v1/user/current_plan': buildProfile().current_plan,
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const path = url.split('?')[0] ?? url;
      const data = answers[path];
      if (data === undefined) return new Response(JSON.stringify({ status: 'failed', error: { code: 'not_found', message: 'x' } }), { status: 404 });
      return new Response(JSON.stringify({ status: 'success', data }), { status: 200 });
    }),
  );
}

function logInAs(role: TRole) {
  useSessionStore.getState().fillSession(buildLogin({ user_role: role, name: `The ${role}` }));
}


describe('app routes and guards', () => {
  beforeEach(() => {
    useSessionStore.getState().logout();
    stubApi();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    useSessionStore.getState().logout();
  });

  it('shows Loading... while a lazy screen loads, then the screen', async () => {
    renderAppAt('/login');
    expect(screen.getByText('Loading...').textContent).toBe('Loading...');
    expect((await screen.findByRole('heading', { name: 'Log in to Verilead' })).tagName).toBe('H2');
  });

  it('sends a logged-out user to /login keeping the path and query string', async () => {
    renderAppAt('/account/credits?page=2&kind=charge');
    await waitFor(() => expect(currentLocation()).toBe(`/login?${new URLSearchParams({ redirect: '/account/credits?page=2&kind=charge' })}`));
    expect(await screen.findByLabelText('Email')).toHaveProperty('type', 'email');
  });

  it('sends a logged-in user from /login to ?redirect= with its query string', async () => {
    logInAs('owner');
    renderAppAt(`/login?${new URLSearchParams({ redirect: '/activities?page=2' })}`);
    await waitFor(() => expect(currentLocation()).toBe('/activities?page=2'));
    expect((await screen.findByRole('heading', { name: 'Activities' })).tagName).toBe('H2');
  });

  it('sends a logged-in user from /signup to / keeping the query string', async () => {
    logInAs('analyst');
    renderAppAt('/signup?ref=newsletter');
    await waitFor(() => expect(currentLocation()).toBe('/?ref=newsletter'));
  });

  it('renders open routes for logged-in users too', async () => {
    logInAs('owner');
    renderAppAt('/resetpassword');
    expect((await screen.findByText('This reset link is incomplete.')).textContent).toBe('This reset link is incomplete.');
    expect(currentLocation()).toBe('/resetpassword');
  });

  it('sends an unknown path to /', async () => {
    logInAs('owner');
    renderAppAt('/no/such/screen?x=1');
    await waitFor(() => expect(currentLocation()).toBe('/'));
  });

  it('sends an unknown path of a logged-out user through /login', async () => {
    renderAppAt('/no/such/screen');
    await waitFor(() => expect(currentLocation()).toBe(`/login?${new URLSearchParams({ redirect: '/no/such/screen' })}`));
  });

  it("tells a role it has no access to a menu screen it may not use, in place", async () => {
    logInAs('analyst');
    renderAppAt('/account/delete');
    expect((await screen.findByRole('heading', { name: "You don't have access to this page" })).tagName).toBe('H2');
    expect(currentLocation()).toBe('/account/delete');
    expect(screen.getByRole('link', { name: 'Go to the dashboard' }).getAttribute('href')).toBe('/');
    // Inside the app shell: the navigation stays.
    expect(screen.getByRole('navigation', { name: 'Main navigation' }).querySelectorAll('a')).toHaveLength(31);
    expect(screen.queryByRole('heading', { name: 'Delete account' })).toBeNull();
  });

  it.each(['admin', 'analyst'] as const)('keeps /pricing owner-only: the %s sees the no-access screen', async (role) => {
    logInAs(role);
    renderAppAt('/pricing');
    expect((await screen.findByRole('heading', { name: "You don't have access to this page" })).tagName).toBe('H2');
    expect(currentLocation()).toBe('/pricing');
    expect(screen.queryByText('Price per credit')).toBeNull();
  });

  it('opens /pricing for the owner', async () => {
    logInAs('owner');
    renderAppAt('/pricing');
    expect((await screen.findByText('Price per credit')).textContent).toBe('Price per credit');
    expect(screen.queryByText("You don't have access to this page")).toBeNull();
  });

  it.each(['owner', 'admin', 'analyst'] as const)('shows exactly the visible menus of the %s, grouped by area', async (role) => {
    logInAs(role);
    renderAppAt('/');
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
    const links = within(nav)
      .getAllByRole('link')
      .map((link) => link.getAttribute('href'));
    const expected = groupMenusByArea(visibleMenus(role, BUILT_SCREENS)).flatMap((group) => group.entries.map((entry) => entry.path));
    expect(links).toEqual(expected);
    expect(links).toContain('/account/profile');
    expect(links.includes('/account/delete')).toBe(role === 'owner');
    expect(links.includes('/account/api')).toBe(role !== 'analyst');
  });

  it('shows the credits balance in the header, exactly (it read "1.2k" for 1,234 credits)', async () => {
    logInAs('owner');
    renderAppAt('/');
    await waitFor(() => expect(screen.getByTestId('credits-balance').textContent).toBe('1,234'));
  });

  it('takes the time zone setting from the profile on every load (changed on another device, dates follow)', async () => {
    logInAs('owner');
    useSessionStore.getState().setTimezone('UTC');
    renderAppAt('/');
    await waitFor(() => expect(useSessionStore.getState().timezone).toBe('Asia/Kolkata'));
  });
});
