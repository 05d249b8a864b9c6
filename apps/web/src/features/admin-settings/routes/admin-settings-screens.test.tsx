import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { DEFAULT_EV_SETTINGS, TEAM_MESSAGES, type TOrgDefaultSettings } from '@verilead/contracts';
import { AppProviders } from '../../../app/providers';
import { createQueryClient } from '../../../lib/query-client';
import { useSessionStore } from '../../../lib/session-store';
import { buildLogin } from '../../../test/fixtures';
import { AdminEmailFinderScreen } from './admin-email-finder-screen';
import { AdminEmailVerifierScreen } from './admin-email-verifier-screen';

const SETTINGS: TOrgDefaultSettings = {
  ev_settings: DEFAULT_EV_SETTINGS,
  ef_settings: { setting_last_modified_on: '2026-11-20T09:30:00.000Z', include_role_email: true, strict_domain_check: false },
  prospect_settings: {
    setting_last_modified_on: null,
    person_enrich_settings: { phones: 'all', emails: 'all' },
    company_enrich_settings: { phones: 'all', emails: 'all' },
  },
};

type TCall = { method: string; path: string; body: unknown };

/** Canned answers (test only): GET /admin/settings, and every PUT answers the merged defaults. */
function stubApi(calls: TCall[], fail = false) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const path = url.split('?')[0] ?? url;
      const method = init?.method ?? 'GET';
      const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : undefined;
      calls.push({ method, path, body });
      if (fail) return new Response(JSON.stringify({ status: 'failed', error: { code: 'internal_error', message: 'Database is down' } }), { status: 500 });
      if (method === 'GET' && path === '/api/v1/admin/settings') return new Response(JSON.stringify({ status: 'success', data: SETTINGS }));
      if (method === 'PUT' && path === '/api/v1/admin/settings/email_finder') {
        const data = {
          ...SETTINGS,
          ef_settings: { ...SETTINGS.ef_settings, ...body, setting_last_modified_on: '2026-11-22T10:00:00.000Z' },
          message: TEAM_MESSAGES.settingsUpdated,
        };
        return new Response(JSON.stringify({ status: 'success', data }));
      }
      return new Response(JSON.stringify({ status: 'failed', error: { code: 'not_found', message: 'x' } }), { status: 404 });
    }),
  );
}

function renderWith(screenElement: React.ReactNode) {
  return render(<AppProviders queryClient={createQueryClient()}>{screenElement}</AppProviders>);
}

describe('admin settings screens', { timeout: 60_000 }, () => {
  let calls: TCall[];
  beforeEach(() => {
    calls = [];
    useSessionStore.getState().fillSession(buildLogin());
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    useSessionStore.getState().logout();
  });

  it('email verifier: says the product defaults apply when never changed', async () => {
    stubApi(calls);
    renderWith(<AdminEmailVerifierScreen />);
    expect((await screen.findByText('Never changed: the product defaults apply')).textContent).toBe('Never changed: the product defaults apply');
    expect(screen.getByRole('button', { name: 'Save defaults' })).toHaveProperty('disabled', true);
  });

  it('email finder: sends only the changed setting and shows the new modification date', async () => {
    stubApi(calls);
    renderWith(<AdminEmailFinderScreen />);
    expect((await screen.findByText(/Last modified on 20 Nov 2026/)).textContent).toBe('Last modified on 20 Nov 2026, 09:30');
    fireEvent.click(screen.getByRole('switch', { name: /^Strict domain check/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Save defaults' }));
    expect((await screen.findByText('Settings updated successfully')).textContent).toBe('Settings updated successfully');
    const put = calls.find((call) => call.method === 'PUT');
    expect(put).toEqual({ method: 'PUT', path: '/api/v1/admin/settings/email_finder', body: { strict_domain_check: true } });
    await waitFor(() => expect(screen.getByText(/Last modified on 22 Nov 2026/).textContent).toBe('Last modified on 22 Nov 2026, 10:00'));
  });

  it('shows the error state with the server message', async () => {
    stubApi(calls, true);
    renderWith(<AdminEmailFinderScreen />);
    expect((await screen.findByText('Database is down', {}, { timeout: 10_000 })).textContent).toBe('Database is down');
    expect(screen.getByRole('button', { name: 'Try again' })).toHaveProperty('disabled', false);
  });
});
