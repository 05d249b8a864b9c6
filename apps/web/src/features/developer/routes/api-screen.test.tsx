import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { DEFAULT_APP_RATE_LIMIT } from '@verilead/contracts';
import { AppProviders } from '../../../app/providers';
import { createQueryClient } from '../../../lib/query-client';
import { useSessionStore } from '../../../lib/session-store';
import { buildLogin } from '../../../test/fixtures';
import { DeveloperApiScreen } from './api-screen';

const app = {
  id: '11111111-1111-4111-8111-111111111111',
  name: 'Default app',
  description: 'Created from the API page',
  type: 'server',
  status: 'new',
  status_label: 'New',
  is_default: true,
  token_hint: 'vla_abcd',
  token: 'vla_abcdefghijklmnop',
  credit_limit: null,
  rate_limit: DEFAULT_APP_RATE_LIMIT,
  allowed_origins: [],
  form_guard: null,
  credits_used: { today: 0, life_time: 0 },
  last_used_at: null,
  created_at: '2026-11-28T10:00:00Z',
  updated_at: '2026-11-28T10:00:00Z',
};

describe('DeveloperApiScreen', () => {
  const calls: { method: string; url: string }[] = [];
  beforeEach(() => {
    calls.length = 0;
    useSessionStore.getState().fillSession(buildLogin());
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        const method = init?.method ?? 'GET';
        calls.push({ method, url: String(url) });
        if (String(url).includes('/v2/openapi.json')) return new Response(JSON.stringify({ servers: [{ url: 'http://127.0.0.1:3000/v2' }] }), { status: 200 });
        const data = method === 'POST' ? app : null;
        return new Response(JSON.stringify({ status: 'success', data }), { status: 200 });
      }),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  it('opening the page creates no app: it offers to create the token, which is then shown once', async () => {
    const { container } = render(
      <AppProviders queryClient={createQueryClient()}>
        <MemoryRouter>
          <DeveloperApiScreen />
        </MemoryRouter>
      </AppProviders>,
    );
    const view = within(container);
    const heading = await view.findByRole('heading', { name: 'No API token yet' });
    expect(heading.textContent).toBe('No API token yet');
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
    fireEvent.click(view.getByRole('button', { name: 'Create my API token' }));
    const token = await view.findByTestId('default-token');
    expect(token.textContent).toBe('vla_abcdefghijklmnop');
    expect(calls.filter((c) => c.method === 'POST').map((c) => new URL(c.url, 'http://x').pathname)).toEqual(['/api/v1/apps/default']);
    expect(view.getByTestId('api-base-url').textContent).toBe('http://127.0.0.1:3000/v2');
  });
});
