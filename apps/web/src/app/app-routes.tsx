import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router';
import { LoadingScreen } from '../components/loading-screen';
import { AuthLayout } from './layouts/auth-layout';
import { NavigatorBridge } from './navigator-bridge';
import { RouteGuard, UnknownRoute } from './route-guard';
import { APP_ROUTES } from './route-table';
import { useSessionStore } from '../lib/session-store';
import { opsScreens } from '../features/ops';

// The logged-in shell (navigation, header, announcement bar) loads only once someone is signed in,
// so the sign-in pages download as little JavaScript as they can.
const AppLayout = lazy(async () => {
  const [{ AppLayout: Layout }, { withQueryClient }] = await Promise.all([import('./layouts/app-layout'), import('./query-boundary')]);
  return { default: withQueryClient(Layout) };
});

// The operator console (/ops): its own sign-in, session, guard and shell; customer sessions play no part there.
const OpsConsole = lazy(async () => {
  const [{ OpsConsole: Console }, { withQueryClient }] = await Promise.all([opsScreens.console(), import('./query-boundary')]);
  return { default: withQueryClient(Console) };
});

/** The app's routes: each screen behind its guard, inside its layout; unknown paths go to `/`. */
export function AppRoutes() {
  const authRoutes = APP_ROUTES.filter((route) => route.layout === 'auth');
  const appRoutes = APP_ROUTES.filter((route) => route.layout === 'app');
  // Dates are formatted in the user's timezone: a new setting redraws the open screen.
  const timezone = useSessionStore((state) => state.timezone) ?? '';
  return (
    <Routes>
      <Route
        path="/ops/*"
        element={
          <Suspense fallback={<LoadingScreen />}>
            <OpsConsole />
          </Suspense>
        }
      />
      <Route element={<NavigatorBridge />}>
        <Route element={<AuthLayout />}>
          {authRoutes.map((route) => (
            <Route
              key={route.path}
              path={route.path}
              element={
                <RouteGuard access={route.access}>
                  <route.screen />
                </RouteGuard>
              }
            />
          ))}
        </Route>
        <Route
          element={
            <RouteGuard access="login" checkRole={false}>
              <Suspense fallback={<LoadingScreen />}>
                <AppLayout />
              </Suspense>
            </RouteGuard>
          }
        >
          {appRoutes.map((route) => (
            <Route
              key={route.path}
              path={route.path}
              element={
                <RouteGuard access={route.access}>
                  <route.screen key={timezone} />
                </RouteGuard>
              }
            />
          ))}
        </Route>
        <Route path="*" element={<UnknownRoute />} />
      </Route>
    </Routes>
  );
}
