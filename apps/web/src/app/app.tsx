import { BrowserRouter } from 'react-router';
import { queryClient } from '../lib/query-client';
import { AppRoutes } from './app-routes';
import { AppProviders } from './providers';

export function App() {
  return (
    <AppProviders queryClient={queryClient}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AppProviders>
  );
}
