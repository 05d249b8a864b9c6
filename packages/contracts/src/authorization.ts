/**
 * Who may call an API route: the look-ups over the authorisation table (authorization-table.ts), which the
 * server runs for every request (fail closed: a route missing from the table answers 403 unless it is public)
 * and the web app runs to hide actions a role cannot use. The table and the object visibility rules are
 * re-exported here, so `@verilead/contracts` keeps one authorisation surface.
 */
import type { TRole } from './enums';
import { API_AUTHORIZATION, type TApiRule } from './authorization-table';

export * from './authorization-objects';
export * from './authorization-table';

/** Prefix of every API route. */
export const API_BASE_PATH = '/api/v1';

export const ALL_ROLES: readonly TRole[] = ['owner', 'admin', 'analyst'];

/**
 * Integrations only the owner may connect, change or remove (spec section 6: "an owner-only list
 * also exists"): the ones that authorise Verilead against the organisation's whole CRM or
 * marketing account through OAuth.
 */
export const OWNER_ONLY_INTEGRATIONS: readonly string[] = ['hubspot', 'mailchimp', 'zoho'];

/** Normalises `METHOD /path`: strips /api/v1, query and trailing slash; HEAD is GET; `{x}` and `:x` become `:`. */
export function normalizeApiRouteKey(method: string, path: string): string {
  let p = path.split('?')[0] ?? '';
  if (p.startsWith(API_BASE_PATH)) p = p.slice(API_BASE_PATH.length);
  p = p
    .replace(/\/+$/, '')
    .split('/')
    .map((seg) => (seg.startsWith(':') || /^\{[^}]+\}$/.test(seg) ? ':' : seg))
    .join('/');
  const m = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
  return `${m} ${p || '/'}`;
}

const NORMALISED: ReadonlyMap<string, TApiRule> = new Map(
  Object.entries(API_AUTHORIZATION).map(([key, rule]) => {
    const space = key.indexOf(' ');
    return [normalizeApiRouteKey(key.slice(0, space), key.slice(space + 1)), rule];
  }),
);

/** The rule of a route pattern (as registered, e.g. `/api/v1/apps/:id`), or undefined when the table lacks it. */
export function findApiRule(method: string, routePattern: string): TApiRule | undefined {
  return NORMALISED.get(normalizeApiRouteKey(method, routePattern));
}

/** True when a route pattern is public (needs no login). */
export function isPublicApiRoute(method: string, routePattern: string): boolean {
  return findApiRule(method, routePattern)?.access === 'public';
}

/** The roles a rule lets through. */
export function getRuleRoles(rule: TApiRule): readonly TRole[] {
  if (rule.access === 'operator') return [];
  return typeof rule.access === 'string' ? ALL_ROLES : rule.access;
}

/**
 * Whether `role` may call the route. Unknown routes are refused (fail closed).
 * `params` lets owner-only integrations be told apart.
 */
export function isApiAllowed(method: string, routePattern: string, role: TRole, params: Readonly<Record<string, unknown>> = {}): boolean {
  const rule = findApiRule(method, routePattern);
  if (!rule) return false;
  if (!getRuleRoles(rule).includes(role)) return false;
  if (rule.ownerOnlyIntegrations && role !== 'owner') {
    const integration = params.integration;
    if (typeof integration === 'string' && OWNER_ONLY_INTEGRATIONS.includes(integration)) return false;
  }
  return true;
}
