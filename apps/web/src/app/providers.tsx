import { useEffect, type ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { DatesProvider } from '@mantine/dates';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { TOAST_DISMISS_MS } from '@verilead/contracts';
import { AlertHost } from '../components/alert-host';
import { cancelPendingPricingRedirect } from '../lib/api-client';
import { useSessionStore } from '../lib/session-store';
import { theme } from './theme';

/** Clears cached server state whenever the session ends (logout, 401 sign-out, deletion). */
function SessionCacheReset({ queryClient }: { queryClient: QueryClient }) {
  useEffect(
    () =>
      useSessionStore.subscribe((state, previous) => {
        if (previous.isLogged && !state.isLogged) {
          cancelPendingPricingRedirect();
          queryClient.clear();
        }
      }),
    [queryClient],
  );
  return null;
}

export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <MantineProvider theme={theme} defaultColorScheme="light">
      <DatesProvider settings={{ firstDayOfWeek: 1 }}>
        <QueryClientProvider client={queryClient}>
          <ModalsProvider>
            <Notifications position="top-center" autoClose={TOAST_DISMISS_MS} limit={4} zIndex={2000} />
            <SessionCacheReset queryClient={queryClient} />
            {children}
            <AlertHost />
          </ModalsProvider>
        </QueryClientProvider>
      </DatesProvider>
    </MantineProvider>
  );
}
