import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { findMenuByPath, isMenuAllowed, type TRouteAccess } from '@verilead/contracts';
import { useSessionStore } from '../lib/session-store';
import { ForbiddenScreen } from './forbidden-screen';
import { decideGuard, decideUnknownPath } from './guard-rules';

/** Applies the route table's access rule (and the menu table's roles) to the current location. */
export function RouteGuard({ access, children }: { access: TRouteAccess; children: ReactNode }) {
  const location = useLocation();
  const isLogged = useSessionStore((state) => state.isLogged);
  const role = useSessionStore((state) => state.user_role);
  const decision = decideGuard(access, location, isLogged);
  if (decision.kind === 'redirect') return <Navigate to={decision.to} replace />;
  if (access === 'login' && role) {
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
