import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { AppProviders } from '../../../app/providers';
import { createQueryClient } from '../../../lib/query-client';
import { useSessionStore } from '../../../lib/session-store';
import { buildLogin } from '../../../test/fixtures';
import { EfSettingsScreen } from './ef-settings-screen';

const PREFERENCES = {
  ev_settings: {
    setting_last_modified_on: null,
    can_show_email_verify_mode: false,
    default_email_verify_mode: 'highest_accuracy',
    auto_pilot_status: false,
    gibberish_threshold_value: 'medium',
  },
  ef_settings: { setting_last_modified_on: null, include_role_email: true, strict_domain_check: false },
  prospect_settings: {
    setting_last_modified_on: null,
    person_enrich_settings: { phones: 'all', emails: 'all' },
    company_enrich_settings: { phones: 'all', emails: 'all' },
  },
  notification_settings: { setting_last_modified_on: null, notifications: true, low_credit_notification: true },
};

describe('EfSettingsScreen', { timeout: 30_000 }, () => {
  const puts: unknown[] = [];
  beforeEach(() => {
    puts.length = 0;
    useSessionStore.getState().fillSession(buildLogin());
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit = {}) => {
        if (url.endsWith('/user_preferences')) return new Response(JSON.stringify({ status: 'success', data: PREFERENCES }), { status: 200 });
        if (url.endsWith('/user_preferences/email_finder_settings') && init.method === 'PUT') {
          const body = JSON.parse(String(init.body)) as Record<string, boolean>;
          puts.push(body);
          const data = { ...PREFERENCES.ef_settings, ...body, setting_last_modified_on: '2026-11-22T15:30:00.000Z' };
          return new Response(JSON.stringify({ status: 'success', data }), { status: 200 });
        }
        return new Response('{}', { status: 404 });
      }),
    );
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    useSessionStore.getState().logout();
  });

  it('shows the defaults, saves one toggle and shows the new last-modified time', async () => {
    render(
      <AppProviders queryClient={createQueryClient()}>
        <MemoryRouter>
          <EfSettingsScreen />
        </MemoryRouter>
      </AppProviders>,
    );
    const role = (await screen.findByRole('switch', { name: 'Include role addresses' })) as HTMLInputElement;
    const strict = screen.getByRole('switch', { name: 'Strict domain check' }) as HTMLInputElement;
    expect(role.checked).toBe(true);
    expect(strict.checked).toBe(false);
    expect(screen.getByTestId('ef-last-modified').textContent).toContain('never');
    fireEvent.click(strict);
    await waitFor(() => expect((screen.getByRole('switch', { name: 'Strict domain check' }) as HTMLInputElement).checked).toBe(true));
    expect(puts).toEqual([{ strict_domain_check: true }]);
    expect(screen.getByTestId('ef-last-modified').textContent).not.toContain('never');
  });
});
