import { Suspense } from 'react';
import { Center } from '@mantine/core';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { LoadingScreen } from '../../../components/loading-screen';
import { useOpsSession } from '../api/ops-session-store';
import { OpsLayout } from '../components/ops-layout';
import { OPS_SECTIONS } from '../sections';
import { OpsLoginScreen } from './ops-login-screen';
import { OpsSetPasswordScreen } from './ops-set-password-screen';

/** Sends a visitor without an operator session to the console's sign-in page (and back afterwards). */
function RequireOperator({ children }: { children: React.ReactNode }) {
  const token = useOpsSession((s) => s.token);
  const location = useLocation();
  if (!token) return <Navigate to={`/ops/login?next=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  return <>{children}</>;
}

/** The operator console under /ops: its own sign-in, session and shell (the customer app's guards are not involved). */
export function OpsConsole() {
  return (
    <Suspense
      fallback={
        <Center mih="100vh">
          <LoadingScreen />
        </Center>
      }
    >
      <Routes>
        <Route path="login" element={<OpsLoginScreen />} />
        <Route path="set-password" element={<OpsSetPasswordScreen />} />
        <Route
          element={
            <RequireOperator>
              <OpsLayout />
            </RequireOperator>
          }
        >
          <Route index element={<Navigate to={`/ops/${OPS_SECTIONS[0]!.path}`} replace />} />
          {OPS_SECTIONS.flatMap((section) => [
            <Route key={section.path} path={section.path} element={<section.screen />} />,
            ...(section.extraRoutes ?? []).map((extra) => <Route key={extra.path} path={extra.path} element={<extra.screen />} />),
          ])}
          <Route path="*" element={<Navigate to="/ops" replace />} />
        </Route>
      </Routes>
    </Suspense>
  );
}
