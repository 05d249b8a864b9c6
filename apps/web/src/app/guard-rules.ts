import { getRouteAccess, type TRouteAccess } from '@verilead/contracts';

export type TGuardLocation = { pathname: string; search: string };
export type TGuardDecision = { kind: 'render' } | { kind: 'redirect'; to: string };

const BASE = 'http://app.invalid';

/** A redirect target is used only when it is a same-origin path (no scheme, no `//host`). */
export function getSafeRedirect(value: string | null): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  try {
    const url = new URL(value, BASE);
    if (url.origin !== BASE) return null;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return null;
  }
}

/** Where a logged-in user goes from a logged-out-only route: `?redirect=` or `/`, other query parameters kept. */
export function getLoggedInTarget(search: string): string {
  const params = new URLSearchParams(search);
  const redirect = getSafeRedirect(params.get('redirect'));
  params.delete('redirect');
  const url = new URL(redirect ?? '/', BASE);
  // A redirect back to a logged-out-only route would bounce again; go home instead.
  if (getRouteAccess(url.pathname) === 'logged-out-only') url.pathname = '/';
  for (const [key, value] of params) {
    if (!url.searchParams.has(key)) url.searchParams.append(key, value);
  }
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The login page with the current path and query string to come back to. */
export function getLoginTarget(location: TGuardLocation): string {
  const back = `${location.pathname}${location.search}`;
  if (back === '/') return '/login';
  return `/login?${new URLSearchParams({ redirect: back }).toString()}`;
}

/** The guard rules of spec/routes.tsv. */
export function decideGuard(access: TRouteAccess, location: TGuardLocation, isLogged: boolean): TGuardDecision {
  if (access === 'open') return { kind: 'render' };
  if (access === 'logged-out-only') {
    return isLogged ? { kind: 'redirect', to: getLoggedInTarget(location.search) } : { kind: 'render' };
  }
  return isLogged ? { kind: 'render' } : { kind: 'redirect', to: getLoginTarget(location) };
}

/** An unknown path: logged-out users log in first (query string kept), logged-in users go home. */
export function decideUnknownPath(location: TGuardLocation, isLogged: boolean): string {
  return isLogged ? '/' : getLoginTarget(location);
}
