/** True when `pathname` is the menu path itself or a screen below it. */
function isUnderPath(path: string, pathname: string): boolean {
  return path === '/' ? pathname === '/' : pathname === path || pathname.startsWith(`${path}/`);
}

/** Screens outside the menu that belong to a menu entry: a profile is opened from its search. */
const OPENED_FROM: readonly (readonly [prefix: string, menuPath: string])[] = [
  ['/prospect/people/', '/prospect/people_search'],
  ['/prospect/company/', '/prospect/company_search'],
];

/**
 * The one menu path to highlight for `pathname`: the longest visible menu path it falls under,
 * so `/settings/email_verifier` lights "Email Verifier" and not "General" (`/settings`) as well.
 */
export function findActiveMenuPath(paths: readonly string[], pathname: string): string | null {
  const from = OPENED_FROM.find(([prefix, menuPath]) => pathname.startsWith(prefix) && paths.includes(menuPath));
  if (from) return from[1];
  let best: string | null = null;
  for (const path of paths) {
    if (isUnderPath(path, pathname) && (best === null || path.length > best.length)) best = path;
  }
  return best;
}
