/**
 * Navigation tables shared by the web app (menus, route guards) and the server (authorisation).
 * Source: spec/routes.tsv (route access) and spec/menus.tsv (menus per area and role).
 */

import type { TRole } from './enums';

/** How a route may be reached: only when logged out, by anyone, or only when logged in. */
export const ROUTE_ACCESS = ['logged-out-only', 'open', 'login'] as const;
export type TRouteAccess = (typeof ROUTE_ACCESS)[number];

export type TRouteRule = { readonly path: string; readonly access: TRouteAccess };

/** The route table of spec/routes.tsv. Every path not listed needs login. */
export const ROUTE_RULES: readonly TRouteRule[] = [
  { path: '/login', access: 'logged-out-only' },
  { path: '/register', access: 'logged-out-only' },
  { path: '/signup', access: 'logged-out-only' },
  { path: '/sso/signin', access: 'logged-out-only' },
  { path: '/forgot_password', access: 'logged-out-only' },
  { path: '/expired_password', access: 'logged-out-only' },
  { path: '/onetool_login', access: 'logged-out-only' },
  { path: '/enterprise/register', access: 'open' },
  { path: '/setup_password', access: 'open' },
  { path: '/public/instant_search', access: 'open' },
  { path: '/public/reverse-lookup', access: 'open' },
  { path: '/public/credits', access: 'open' },
  { path: '/public/chrome-extension-uninstall', access: 'open' },
  { path: '/resetpassword', access: 'open' },
  { path: '/emailverification', access: 'open' },
  { path: '/public/marketing_stats/', access: 'open' },
  { path: '/download_result/:download_id', access: 'open' },
  { path: '/download/result', access: 'open' },
  { path: '/input_download/:request_id', access: 'open' },
  { path: '/download_email_finder_history', access: 'open' },
  { path: '/download/email_finder_result', access: 'open' },
  { path: '/download_leads', access: 'open' },
  { path: '/download_leads_in_list', access: 'open' },
  { path: '/download_prospects', access: 'open' },
  { path: '/download/user_activity', access: 'open' },
  // Not in spec/routes.tsv: the terms and privacy page the login screen links to.
  { path: '/terms', access: 'open' },
  // Not in spec/routes.tsv: the thank-you page the spec implies (after the extension uninstall survey).
  { path: '/thank_you', access: 'open' },
  { path: '/', access: 'login' },
];

function splitPath(path: string): string[] {
  return path.split('/').filter((part) => part.length > 0);
}

/** True when a concrete pathname matches a route pattern (`:param` segments match one segment). */
export function matchRoutePath(pattern: string, pathname: string): boolean {
  const want = splitPath(pattern);
  const have = splitPath(pathname);
  if (want.length !== have.length) return false;
  return want.every((part, index) => part.startsWith(':') || part === have[index]);
}

/** The access rule of a pathname; paths not in the table need login. */
export function getRouteAccess(pathname: string): TRouteAccess {
  const rule = ROUTE_RULES.find((candidate) => matchRoutePath(candidate.path, pathname));
  return rule ? rule.access : 'login';
}

export const MENU_AREAS = [
  'dashboard',
  'email_verifier',
  'email_finder',
  'prospect',
  'reverse_lookup',
  'analytics',
  'integrations',
  'apps',
  'developer',
  'admin',
  'settings',
  'account',
] as const;
export type TMenuArea = (typeof MENU_AREAS)[number];

export const MENU_AREA_LABELS: Readonly<Record<TMenuArea, string>> = {
  dashboard: 'Dashboard',
  email_verifier: 'Email Verifier',
  email_finder: 'Email Finder',
  prospect: 'Prospect',
  reverse_lookup: 'Reverse Lookup',
  analytics: 'Analytics',
  integrations: 'Integrations',
  apps: 'Apps',
  developer: 'Developer',
  admin: 'Admin',
  settings: 'Settings',
  account: 'Account',
};

export type TMenuEntry = {
  readonly area: TMenuArea;
  readonly key: string;
  readonly roles: readonly TRole[];
  /** Path of the screen; `:param` segments mean the screen is opened from another screen, not the navbar. */
  readonly path: string;
  readonly label: string;
  /** Extra restriction noted in the spec, e.g. some integrations are owner only. */
  readonly note?: string;
};

const EVERYONE: readonly TRole[] = ['owner', 'admin', 'analyst'];
const OWNER: readonly TRole[] = ['owner'];
const OWNER_ADMIN: readonly TRole[] = ['owner', 'admin'];

/** The menu table of spec/menus.tsv, in navigation order within each area. */
export const MENU_ENTRIES: readonly TMenuEntry[] = [
  { area: 'dashboard', key: 'overview', roles: EVERYONE, path: '/', label: 'Overview' },

  { area: 'email_verifier', key: 'quick_validation', roles: EVERYONE, path: '/email_verifier/quick_validation', label: 'Quick Validation' },
  { area: 'email_verifier', key: 'email_verifier_list', roles: EVERYONE, path: '/email_verifier/lists', label: 'Lists' },
  { area: 'email_verifier', key: 'add_list', roles: EVERYONE, path: '/email_verifier/add_list', label: 'Add List' },
  // Not in spec/menus.tsv: bounce reports and ESP bounce webhooks (issue 32 point 2), for those who see the organisation's results.
  { area: 'email_verifier', key: 'bounces', roles: OWNER_ADMIN, path: '/email_verifier/bounces', label: 'Bounces' },

  { area: 'email_finder', key: 'quick_email_finder', roles: EVERYONE, path: '/email_finder/quick', label: 'Quick Finder' },
  { area: 'email_finder', key: 'email_finder_lists', roles: EVERYONE, path: '/email_finder/lists', label: 'Lists' },
  { area: 'email_finder', key: 'add_list', roles: EVERYONE, path: '/email_finder/add_list', label: 'Add List' },

  { area: 'prospect', key: 'home', roles: EVERYONE, path: '/prospect', label: 'Home' },
  { area: 'prospect', key: 'people_search', roles: EVERYONE, path: '/prospect/people_search', label: 'People Search' },
  { area: 'prospect', key: 'company_search', roles: EVERYONE, path: '/prospect/company_search', label: 'Company Search' },
  { area: 'prospect', key: 'lists', roles: EVERYONE, path: '/prospect/lists', label: 'Lists' },
  { area: 'prospect', key: 'saved_searches', roles: EVERYONE, path: '/prospect/saved_searches', label: 'Saved Searches' },
  { area: 'prospect', key: 'people_profile', roles: EVERYONE, path: '/prospect/people/:person_id', label: 'Person Profile' },
  { area: 'prospect', key: 'company_profile', roles: EVERYONE, path: '/prospect/company/:company_id', label: 'Company Profile' },

  { area: 'reverse_lookup', key: 'rl_email', roles: EVERYONE, path: '/reverse_lookup/email', label: 'By Email' },
  { area: 'reverse_lookup', key: 'rl_linkedin', roles: EVERYONE, path: '/reverse_lookup/linkedin', label: 'By LinkedIn URL' },

  { area: 'analytics', key: 'overview', roles: EVERYONE, path: '/analytics', label: 'Overview' },
  { area: 'analytics', key: 'email_verifier', roles: EVERYONE, path: '/analytics/email_verifier', label: 'Email Verifier' },
  { area: 'analytics', key: 'email_finder', roles: EVERYONE, path: '/analytics/email_finder', label: 'Email Finder' },
  { area: 'analytics', key: 'prospect', roles: EVERYONE, path: '/analytics/prospect', label: 'Prospect' },
  { area: 'analytics', key: 'team', roles: OWNER_ADMIN, path: '/analytics/team', label: 'Team' },
  { area: 'analytics', key: 'form_guard', roles: EVERYONE, path: '/analytics/form_guard', label: 'Form Guard' },

  { area: 'integrations', key: 'integration_list', roles: EVERYONE, path: '/integrations', label: 'All Integrations' },
  { area: 'integrations', key: 'connected_accounts', roles: OWNER_ADMIN, path: '/integrations/connected_accounts', label: 'Connected Accounts' },
  {
    area: 'integrations',
    key: 'connect_account',
    roles: OWNER_ADMIN,
    path: '/integrations/:integration/connect',
    label: 'Connect Account',
    note: 'some integrations owner only',
  },
  { area: 'integrations', key: 'individual_integration', roles: OWNER_ADMIN, path: '/integrations/:integration', label: 'Integration' },

  { area: 'apps', key: 'list_app', roles: EVERYONE, path: '/apps', label: 'Apps' },
  { area: 'apps', key: 'create_app', roles: EVERYONE, path: '/apps/create', label: 'Create App' },
  { area: 'apps', key: 'edit_app', roles: EVERYONE, path: '/apps/:app_id/edit', label: 'Edit App' },

  { area: 'developer', key: 'api', roles: EVERYONE, path: '/developer/api', label: 'API' },
  { area: 'developer', key: 'reference', roles: EVERYONE, path: '/developer/reference', label: 'API Reference' },
  { area: 'developer', key: 'webhook', roles: EVERYONE, path: '/developer/webhooks', label: 'Webhooks' },

  { area: 'admin', key: 'admin', roles: OWNER_ADMIN, path: '/admin', label: 'Members' },
  { area: 'admin', key: 'email_verifier', roles: OWNER_ADMIN, path: '/admin/email_verifier', label: 'Email Verifier' },
  { area: 'admin', key: 'email_finder', roles: OWNER_ADMIN, path: '/admin/email_finder', label: 'Email Finder' },
  { area: 'admin', key: 'prospect', roles: OWNER_ADMIN, path: '/admin/prospect', label: 'Prospect' },

  { area: 'settings', key: 'settings', roles: EVERYONE, path: '/settings', label: 'General' },
  { area: 'settings', key: 'email_verifier', roles: EVERYONE, path: '/settings/email_verifier', label: 'Email Verifier' },
  { area: 'settings', key: 'email_finder', roles: EVERYONE, path: '/settings/email_finder', label: 'Email Finder' },
  { area: 'settings', key: 'prospect', roles: EVERYONE, path: '/settings/prospect', label: 'Prospect' },

  { area: 'account', key: 'profile', roles: EVERYONE, path: '/account/profile', label: 'Profile' },
  { area: 'account', key: 'plan', roles: OWNER_ADMIN, path: '/account/plan', label: 'Plan' },
  { area: 'account', key: 'pricing', roles: OWNER, path: '/pricing', label: 'Pricing' },
  { area: 'account', key: 'billing', roles: OWNER, path: '/account/billing', label: 'Billing' },
  { area: 'account', key: 'coupons', roles: OWNER, path: '/account/coupons', label: 'Coupons' },
  { area: 'account', key: 'api', roles: OWNER_ADMIN, path: '/account/api', label: 'API Key' },
  { area: 'account', key: 'authentication', roles: OWNER_ADMIN, path: '/account/authentication', label: 'Authentication' },
  { area: 'account', key: 'audit_log', roles: OWNER_ADMIN, path: '/account/audit-log', label: 'Audit Log' },
  { area: 'account', key: 'help', roles: EVERYONE, path: '/account/help', label: 'Help' },
  { area: 'account', key: 'delete', roles: OWNER, path: '/account/delete', label: 'Delete Account' },
];

/** The id of a menu entry, unique across areas: `<area>.<menu_key>`. */
export type TMenuId = `${TMenuArea}.${string}`;

export function getMenuId(entry: Pick<TMenuEntry, 'area' | 'key'>): TMenuId {
  return `${entry.area}.${entry.key}`;
}

export function findMenuEntry(area: TMenuArea, key: string): TMenuEntry | undefined {
  return MENU_ENTRIES.find((entry) => entry.area === area && entry.key === key);
}

/** True when the role may use the menu entry (server authorisation and web guards use this). */
export function isMenuAllowed(entry: TMenuEntry, role: TRole): boolean {
  return entry.roles.includes(role);
}

/** The menu entry whose screen path matches a pathname, if any. */
export function findMenuByPath(pathname: string): TMenuEntry | undefined {
  return MENU_ENTRIES.find((entry) => matchRoutePath(entry.path, pathname));
}

/**
 * The menu entries a role sees: allowed for the role and whose screen is built.
 * Entries opened from another screen (paths with `:param`) are never listed in the navigation.
 */
export function visibleMenus(role: TRole, builtScreens: ReadonlySet<string>): TMenuEntry[] {
  return MENU_ENTRIES.filter(
    (entry) => isMenuAllowed(entry, role) && builtScreens.has(getMenuId(entry)) && !entry.path.includes(':'),
  );
}

export type TMenuGroup = { readonly area: TMenuArea; readonly label: string; readonly entries: TMenuEntry[] };

/** Visible menus grouped by area in MENU_AREAS order, empty areas left out. */
export function groupMenusByArea(entries: readonly TMenuEntry[]): TMenuGroup[] {
  return MENU_AREAS.map((area) => ({
    area,
    label: MENU_AREA_LABELS[area],
    entries: entries.filter((entry) => entry.area === area),
  })).filter((group) => group.entries.length > 0);
}
