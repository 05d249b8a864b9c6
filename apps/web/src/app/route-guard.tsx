import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { findMenuByPath, isMenuAllowed, type TRouteAccess } from '@verilead/contracts';
import { useSessionStore } from '../lib/session-store';
import { ForbiddenScreen } from './forbidden-screen';
import { decideGuard, decideUnknownPath } from './guard-rules';

/** Applies the route table's access rule (and the menu table's roles) to the current location. */
export function RouteGuard({ access, children, checkRole = true }: { access: TRouteAccess; children: ReactNode; checkRole?: boolean }) {
  const location = useLocation();
  const isLogged = useSessionStore((state) => state.isLogged);
  const role = useSessionStore((state) => state.user_role);
  const decision = decideGuard(access, location, isLogged);
  if (decision.kind === 'redirect') return <Navigate to={decision.to} replace />;
  // The shell's own guard checks only the login; the screen's guard answers "no access" inside the shell.
  if (access === 'login' && role && checkRole) {
    const menu = findMenuByPath(location.pathname);
    if (menu && !isMenuAllowed(menu, role)) return <ForbiddenScreen />;
  }
  return <>{children}</>;
}

/** The catch-all route: unknown paths go to `/` (through login when logged out). */
export function UnknownRoute() {
  const location = useLocation();
  const isLogged = useSessionStore((state) => state.isLogged);
  return <Navigate to={decideUnknownPath(location, isLogged)} replace />;
}
