import { beforeEach, describe, expect, it } from 'vitest';
import { buildLogin } from '../test/fixtures';
import { SESSION_STORAGE_KEY, createDefaultSession, getSessionToken, useSessionStore } from './session-store';

function readStored(): Record<string, unknown> | null {
  const raw = window.localStorage.getItem(SESSION_STORAGE_KEY);
  return raw ? ((JSON.parse(raw) as { state: Record<string, unknown> }).state ?? null) : null;
}

describe('session store', () => {
  beforeEach(() => {
    useSessionStore.getState().logout();
    window.localStorage.clear();
  });

  it('starts logged out with the spec defaults', () => {
    const state = useSessionStore.getState();
    expect(state.isLogged).toBe(false);
    expect(state.name).toBe('User');
    expect(state.dashboard_type).toBe('individual');
    expect(getSessionToken()).toBeNull();
  });

  it('marks login start and fills the session from the login response', () => {
    useSessionStore.getState().startLogin();
    expect(useSessionStore.getState().isLoggingIn).toBe(true);
    useSessionStore.getState().fillSession(buildLogin(), { firstLogin: true });
    const state = useSessionStore.getState();
    expect(state.isLogged).toBe(true);
    expect(state.isLoggingIn).toBe(false);
    expect(state.jwtToken).toBe('token-abc');
    expect(state.email).toBe('olivia@acme.test');
    expect(state.user_role).toBe('owner');
    expect(state.organisation?.name).toBe('Acme');
    expect(state.showWelcome).toBe(true);
    expect(getSessionToken()).toBe('token-abc');
  });

  it('resets to the defaults when login fails', () => {
    useSessionStore.getState().startLogin();
    useSessionStore.getState().failLogin();
    expect(useSessionStore.getState()).toMatchObject(createDefaultSession());
  });

  it('saves every change to localStorage', () => {
    useSessionStore.getState().fillSession(buildLogin());
    expect(readStored()?.jwtToken).toBe('token-abc');
    useSessionStore.getState().setName('Olivia O.');
    expect(readStored()?.name).toBe('Olivia O.');
    useSessionStore.getState().setCredits(42);
    expect(readStored()?.credits).toBe(42);
    useSessionStore.getState().setOrgName('Acme Ltd');
    expect((readStored()?.organisation as { name: string }).name).toBe('Acme Ltd');
    useSessionStore.getState().setMemberSeats(12);
    expect((readStored()?.organisation as { plan: { user_create_limit: number } }).plan.user_create_limit).toBe(12);
    useSessionStore.getState().setAnnouncementTimestamp(1700);
    expect(readStored()?.announcement_timestamp).toBe(1700);
    useSessionStore.getState().setCardValidity(true);
    expect(readStored()?.payment).toEqual({ stripe: { is_valid_card: true } });
  });

  it('has a single-field update for each field the spec names', () => {
    const store = useSessionStore.getState();
    store.fillSession(buildLogin());
    store.setEmail('new@acme.test');
    store.setAddress({ line1: '1 Main St', line2: '', city: 'Town', state: '', postal_code: '1000', country: 'NL' });
    store.setOrgCredits(10);
    store.setOrgLimits({ daily: { limit: 5, used: 1, remaining: 4 }, life_time: { limit: null, used: 1, remaining: null } });
    store.setOrgUrl('https://acme.test');
    store.setOrgTel('+31 20 555 0100');
    store.setLocale('nl');
    store.setIntegrations(['mailchimp']);
    store.setLimits({ daily: { limit: 9, used: 0, remaining: 9 }, life_time: { limit: null, used: 0, remaining: null } });
    store.setPhone('+31 6 5555 0100');
    store.setHasPassword(false);
    store.setDashboardType('team');
    const state = useSessionStore.getState();
    expect(state).toMatchObject({
      email: 'new@acme.test',
      locale: 'nl',
      integrations: ['mailchimp'],
      phone_number: '+31 6 5555 0100',
      has_password: false,
      dashboard_type: 'team',
    });
    expect(state.address?.city).toBe('Town');
    expect(state.organisation).toMatchObject({ credits: 10, org_website_url: 'https://acme.test', org_tel: '+31 20 555 0100' });
    expect(state.organisation?.limits.daily.limit).toBe(5);
    expect(state.limits?.daily.remaining).toBe(9);
  });

  it('restores the saved session on start', async () => {
    useSessionStore.getState().fillSession(buildLogin({ name: 'Restored Person' }));
    const saved = window.localStorage.getItem(SESSION_STORAGE_KEY);
    useSessionStore.setState(createDefaultSession());
    expect(useSessionStore.getState().isLogged).toBe(false);
    window.localStorage.setItem(SESSION_STORAGE_KEY, saved ?? '');
    await useSessionStore.persist.rehydrate();
    const state = useSessionStore.getState();
    expect(state.isLogged).toBe(true);
    expect(state.name).toBe('Restored Person');
    expect(state.jwtToken).toBe('token-abc');
  });

  it('clears the whole store and its localStorage key on logout', () => {
    useSessionStore.getState().fillSession(buildLogin());
    useSessionStore.getState().setPhone('+1 415 555 0100');
    expect(window.localStorage.getItem(SESSION_STORAGE_KEY)).not.toBeNull();
    useSessionStore.getState().logout();
    expect(window.localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
    const state = useSessionStore.getState();
    expect(state).toMatchObject(createDefaultSession());
    expect(state.email).toBeUndefined();
    expect(state.phone_number).toBeUndefined();
    expect(state.organisation).toBeUndefined();
  });
});
