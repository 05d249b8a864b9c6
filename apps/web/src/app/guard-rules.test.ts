import { describe, expect, it } from 'vitest';
import { getRouteAccess } from '@verilead/contracts';
import { decideGuard, decideUnknownPath, getLoggedInTarget, getSafeRedirect } from './guard-rules';

describe('decideGuard', () => {
  it('renders logged-out-only routes for logged-out users', () => {
    expect(decideGuard('logged-out-only', { pathname: '/login', search: '' }, false)).toEqual({ kind: 'render' });
  });

  it('sends a logged-in user from a logged-out-only route to ?redirect=, keeping its query string', () => {
    const search = `?${new URLSearchParams({ redirect: '/account/profile?tab=security' })}`;
    expect(decideGuard('logged-out-only', { pathname: '/login', search }, true)).toEqual({
      kind: 'redirect',
      to: '/account/profile?tab=security',
    });
  });

  it('sends a logged-in user to / when there is no redirect, keeping the other query parameters', () => {
    expect(decideGuard('logged-out-only', { pathname: '/signup', search: '?utm_source=mail&x=1' }, true)).toEqual({
      kind: 'redirect',
      to: '/?utm_source=mail&x=1',
    });
  });

  it('keeps extra query parameters next to the redirect target', () => {
    expect(getLoggedInTarget('?redirect=%2Factivities%3Fpage%3D2&ref=abc')).toBe('/activities?page=2&ref=abc');
  });

  it('ignores redirects that leave the origin', () => {
    expect(getLoggedInTarget('?redirect=https%3A%2F%2Fevil.example%2F')).toBe('/');
    expect(getLoggedInTarget('?redirect=%2F%2Fevil.example%2Fx')).toBe('/');
    expect(getLoggedInTarget('?redirect=javascript%3Aalert(1)')).toBe('/');
    expect(getSafeRedirect('/\\evil.example')).toBeNull();
    expect(getSafeRedirect('/settings?a=1#top')).toBe('/settings?a=1#top');
  });

  it('does not bounce a logged-in user back to another logged-out-only route', () => {
    expect(getLoggedInTarget('?redirect=%2Fsignup')).toBe('/');
  });

  it('renders open routes for everyone', () => {
    for (const isLogged of [true, false]) {
      expect(decideGuard('open', { pathname: '/resetpassword', search: '?token=abc' }, isLogged)).toEqual({ kind: 'render' });
    }
  });

  it('sends a logged-out user from a login route to /login with the path and query string', () => {
    const decision = decideGuard('login', { pathname: '/account/credits', search: '?page=3&kind=charge' }, false);
    expect(decision.kind).toBe('redirect');
    const to = decision.kind === 'redirect' ? decision.to : '';
    const url = new URL(to, 'http://x.invalid');
    expect(url.pathname).toBe('/login');
    expect(url.searchParams.get('redirect')).toBe('/account/credits?page=3&kind=charge');
  });

  it('sends a logged-out user from / to plain /login', () => {
    expect(decideGuard('login', { pathname: '/', search: '' }, false)).toEqual({ kind: 'redirect', to: '/login' });
  });

  it('renders login routes for logged-in users', () => {
    expect(decideGuard('login', { pathname: '/account/profile', search: '' }, true)).toEqual({ kind: 'render' });
  });

  it('sends unknown paths to / (through login when logged out)', () => {
    expect(decideUnknownPath({ pathname: '/no/such/page', search: '?a=1' }, true)).toBe('/');
    expect(decideUnknownPath({ pathname: '/no/such/page', search: '?a=1' }, false)).toBe(
      `/login?${new URLSearchParams({ redirect: '/no/such/page?a=1' })}`,
    );
  });
});

describe('route table access', () => {
  it('follows spec/routes.tsv', () => {
    expect(getRouteAccess('/login')).toBe('logged-out-only');
    expect(getRouteAccess('/expired_password')).toBe('logged-out-only');
    expect(getRouteAccess('/setup_password')).toBe('open');
    expect(getRouteAccess('/download_result/abc123')).toBe('open');
    expect(getRouteAccess('/public/marketing_stats')).toBe('open');
    expect(getRouteAccess('/')).toBe('login');
    expect(getRouteAccess('/account/profile')).toBe('login');
    expect(getRouteAccess('/anything/else')).toBe('login');
  });
});
