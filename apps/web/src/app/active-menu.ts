/** True when `pathname` is the menu path itself or a screen below it. */
function isUnderPath(path: string, pathname: string): boolean {
  return path === '/' ? pathname === '/' : pathname === path || pathname.startsWith(`${path}/`);
}

/**
 * The one menu path to highlight for `pathname`: the longest visible menu path it falls under,
 * so `/settings/email_verifier` lights "Email Verifier" and not "General" (`/settings`) as well.
 */
export function findActiveMenuPath(paths: readonly string[], pathname: string): string | null {
  let best: string | null = null;
  for (const path of paths) {
    if (isUnderPath(path, pathname) && (best === null || path.length > best.length)) best = path;
  }
  return best;
}
