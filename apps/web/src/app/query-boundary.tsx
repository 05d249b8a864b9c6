import type { ComponentType } from 'react';
import { QueryClientProvider, useQueryClient } from '@tanstack/react-query';
import { queryClient } from '../lib/query-client';

/**
 * Gives a lazily loaded screen the app's query client. The client (react-query's cache, observers, retryer) loads
 * with the first screen that needs it instead of with every page: the log-in page does not (issue 12).
 * When a client is already provided above (tests pass their own to AppProviders), that one is kept.
 */
function QueryBoundary({ children }: { children: React.ReactNode }) {
  let provided = true;
  try {
    useQueryClient();
  } catch {
    provided = false;
  }
  return provided ? <>{children}</> : <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}

export function withQueryClient<P extends object>(Screen: ComponentType<P>): ComponentType<P> {
  function WithQueryClient(props: P) {
    return (
      <QueryBoundary>
        <Screen {...props} />
      </QueryBoundary>
    );
  }
  return WithQueryClient;
}
