import { useEffect, type ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { DatesProvider } from '@mantine/dates';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { cancelPendingPricingRedirect } from '../lib/pricing-redirect';
import { useSessionStore } from '../lib/session-store';
import { AlertHostGate } from './hosts/alert-host-gate';
import { ModalsHost } from './hosts/modals-host';
import { NotificationsHost } from './hosts/notifications-host';
import { theme } from './theme';

/** Clears cached server state whenever the session ends (logout, 401 sign-out, deletion). */
function SessionCacheReset({ queryClient }: { queryClient?: QueryClient }) {
  useEffect(
    () =>
      useSessionStore.subscribe((state, previous) => {
        if (previous.isLogged && !state.isLogged) {
          cancelPendingPricingRedirect();
          if (queryClient) queryClient.clear();
          // The app's own client loads with the first screen that uses it (app/query-boundary.tsx).
          else void import('../lib/query-client').then((module) => module.queryClient.clear());
        }
      }),
    [queryClient],
  );
  return null;
}

/**
 * The providers around the whole app. `queryClient` is for tests that render screens directly; the app passes
 * none, and each lazily loaded screen brings the app's client (app/query-boundary.tsx).
 */
export function AppProviders({ queryClient, children }: { queryClient?: QueryClient; children: ReactNode }) {
  const content = (
    <>
      {/* Toasts, modals and alerts load with their first use, so the sign-in pages stay small (issue 12). */}
      <ModalsHost />
      <NotificationsHost />
      <SessionCacheReset queryClient={queryClient} />
      {children}
      <AlertHostGate />
    </>
  );
  return (
    <MantineProvider theme={theme} defaultColorScheme="light">
      <DatesProvider settings={{ firstDayOfWeek: 1 }}>
        {queryClient ? <QueryClientProvider client={queryClient}>{content}</QueryClientProvider> : content}
      </DatesProvider>
    </MantineProvider>
  );
}
