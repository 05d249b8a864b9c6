import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { buildDefaultFormGuardSettings } from '@verilead/contracts';
import { AppProviders } from '../../../app/providers';
import { createQueryClient } from '../../../lib/query-client';
import { useSessionStore } from '../../../lib/session-store';
import { buildLogin } from '../../../test/fixtures';
import { buildEmbedSnippet } from '../components/embed-snippet';
import { FormGuardCreateScreen } from './form-guard-create-screen';
import { FormGuardEditScreen } from './form-guard-edit-screen';
import { FormGuardsScreen } from './form-guards-screen';

const ok = (data: unknown) => new Response(JSON.stringify({ status: 'success', data }), { status: 200 });
const guard = {
  id: '11111111-1111-4111-8111-111111111111',
  name: 'Signup',
  description: 'Form guard',
  type: 'client',
  status: 'active',
  status_label: 'Active',
  is_default: false,
  token_hint: 'vla_abcdef…',
  token: null,
  credit_limit: null,
  rate_limit: { window: 'minute', max: 100, scope: 'ip' },
  allowed_origins: ['https://www.example.com'],
  form_guard: buildDefaultFormGuardSettings(),
  credits_used: { today: 2, life_time: 7 },
  last_used_at: null,
  created_at: '2026-11-20T10:00:00Z',
  updated_at: '2026-11-20T10:00:00Z',
};

function renderAt(path: string) {
  return render(
    <AppProviders queryClient={createQueryClient()}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/form-guard" element={<FormGuardsScreen />} />
          <Route path="/form-guard/create" element={<FormGuardCreateScreen />} />
          <Route path="/form-guard/:app_id" element={<FormGuardEditScreen />} />
        </Routes>
      </MemoryRouter>
    </AppProviders>,
  );
}

let fetchMock: ReturnType<typeof vi.fn>;
let guards: (typeof guard)[];
beforeEach(() => {
  useSessionStore.getState().fillSession(buildLogin());
  guards = [guard];
  fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    if (url.includes('/apps/list')) return ok({ items: guards, total: guards.length, page: 1, limit: 25 });
    if (url.endsWith('/apps/create')) return ok({ ...guard, ...JSON.parse(String(init?.body)), token: 'vla_secret_token_123' });
    if (url.includes(`/apps/${guard.id}`)) return ok(guard);
    return new Response(JSON.stringify({ status: 'failed', error: { code: 'not_found', message: 'no' } }), { status: 404 });
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

describe('form guard screens', () => {
  it('lists the guards with their checks and usage', async () => {
    renderAt('/form-guard');
    expect((await screen.findByRole('link', { name: 'Signup' })).getAttribute('href')).toBe('/form-guard/11111111-1111-4111-8111-111111111111');
    expect(screen.getByText('E-mail').textContent).toBe('E-mail');
    expect(screen.getByText('2 / 7').textContent).toBe('2 / 7');
    expect(String(fetchMock.mock.calls[0]?.[0])).toContain('form_guard=true');
  });

  it('shows an empty state', async () => {
    guards = [];
    renderAt('/form-guard');
    expect((await screen.findByText('No form guards yet')).textContent).toBe('No form guards yet');
  });

  it('puts messages on their fields, creates a client app with the settings and shows its snippet once', async () => {
    renderAt('/form-guard/create');
    fireEvent.change(screen.getByLabelText('Timeout (ms)'), { target: { value: '10' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create form guard' }));
    expect((await screen.findByText('Please enter a name')).textContent).toBe('Please enter a name');
    expect(screen.getByText('Add the origin of your site, e.g. https://www.example.com').textContent).toBe('Add the origin of your site, e.g. https://www.example.com');
    expect(screen.getByText('The timeout is between 1000 and 60000 ms').textContent).toBe('The timeout is between 1000 and 60000 ms');
    expect(fetchMock.mock.calls.some(([u]) => String(u).endsWith('/apps/create'))).toBe(false);

    fireEvent.change(screen.getByLabelText('Timeout (ms)'), { target: { value: '5000' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Guard name' }), { target: { value: 'Signup' } });
    const origins = screen.getByRole('combobox', { name: 'Allowed origins' });
    await userEvent.type(origins, 'https://www.example.com{Enter}');
    fireEvent.click(screen.getByRole('button', { name: 'Create form guard' }));
    await waitFor(() => expect(fetchMock.mock.calls.some(([u]) => String(u).endsWith('/apps/create'))).toBe(true));
    const [, init] = fetchMock.mock.calls.find(([u]) => String(u).endsWith('/apps/create'))!;
    const body = JSON.parse(String(init.body));
    expect(body).toMatchObject({ name: 'Signup', type: 'client', allowed_origins: ['https://www.example.com'], form_guard: { timeout_ms: 5000, fields: { email: true } } });
    expect((await screen.findByText(buildEmbedSnippet(window.location.origin, 'vla_secret_token_123'))).tagName).toBe('PRE');
    expect(screen.getByText(/The token is shown only now/).textContent).toBe('The token is shown only now: copy the snippet before leaving this page.');
  }, 30_000);

  it('builds the snippet from the server origin and token', () => {
    expect(buildEmbedSnippet('https://app.verilead.test', 'vla_x')).toBe('<script async src="https://app.verilead.test/form-guard.js" data-token="vla_x"></script>');
  });
});
