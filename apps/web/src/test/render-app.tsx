import { render, screen } from '@testing-library/react';
import { vi } from 'vitest';
import { MemoryRouter, useLocation } from 'react-router';
import { AppRoutes } from '../app/app-routes';
import { AppProviders } from '../app/providers';
import { createQueryClient } from '../lib/query-client';

function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{`${location.pathname}${location.search}`}</output>;
}

/** Renders the whole app (providers, routes, guards) at a path, with a probe showing the current location. */
export function renderAppAt(path: string) {
  return render(
    <AppProviders queryClient={createQueryClient()}>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
        <LocationProbe />
      </MemoryRouter>
    </AppProviders>,
  );
}

export const currentLocation = () => screen.getByTestId('location').textContent;

export type TCannedAnswer = { status: number; body: unknown };
export const answerOk = (data: unknown): TCannedAnswer => ({ status: 200, body: { status: 'success', data } });
export const answerFailed = (status: number, code: string, message: string, extra: Record<string, unknown> = {}): TCannedAnswer => ({
  status,
  body: { status: 'failed', error: { code, message, ...extra } },
});

/** A fetch stand-in answering by "METHOD /api/v1/path" (tests only); returns the request bodies it saw. */
export function stubApi(answers: Record<string, TCannedAnswer>): Record<string, unknown> {
  const bodies: Record<string, unknown> = {};
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const key = `${init.method ?? 'GET'} ${url.split('?')[0]}`;
      if (init.body) bodies[key] = JSON.parse(String(init.body));
      const answer = answers[key] ?? answerFailed(404, 'not_found', 'Not found');
      return new Response(JSON.stringify(answer.body), { status: answer.status });
    }),
  );
  return bodies;
}
