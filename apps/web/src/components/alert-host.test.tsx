import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { AppProviders } from '../app/providers';
import { useAlertStore } from '../lib/alert-store';
import { createQueryClient } from '../lib/query-client';
import { useSessionStore } from '../lib/session-store';
import { buildLogin } from '../test/fixtures';

function renderHost() {
  return render(
    <AppProviders queryClient={createQueryClient()}>
      <div />
    </AppProviders>,
  );
}

describe('AlertHost', () => {
  afterEach(() => {
    useAlertStore.setState({ current: null });
    useSessionStore.getState().logout();
    vi.restoreAllMocks();
  });

  it('shows Login Required and signs out when closed with Ok', async () => {
    useSessionStore.getState().fillSession(buildLogin());
    renderHost();
    useAlertStore.getState().openAlert({
      kind: 'session_expired',
      title: 'Login Required',
      message: 'Session expired. Please login again to continue.',
      onClose: () => useSessionStore.getState().logout(),
    });
    expect((await screen.findByText('Session expired. Please login again to continue.')).textContent).toBe('Session expired. Please login again to continue.');
    expect(screen.getByText('Login Required').textContent).toBe('Login Required');
    fireEvent.click(screen.getByRole('button', { name: 'Ok' }));
    await waitFor(() => expect(useSessionStore.getState().isLogged).toBe(false));
  });

  it('shows the version-update modal; Update Now with clear_storage_reload clears localStorage first', async () => {
    const reload = vi.fn();
    const realLocation = window.location;
    Object.defineProperty(window, 'location', { configurable: true, value: { ...realLocation, reload } });
    window.localStorage.setItem('something', 'kept?');
    renderHost();
    useAlertStore.getState().openAlert({ kind: 'version_update', code: 'clear_storage_reload', message: 'Please update the app.' });
    expect((await screen.findByText('Please update the app.')).textContent).toBe('Please update the app.');
    expect(screen.getByTestId('update-code').textContent).toContain('clear_storage_reload');
    fireEvent.click(screen.getByRole('button', { name: 'Update Now' }));
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    expect(window.localStorage.getItem('something')).toBeNull();
    Object.defineProperty(window, 'location', { configurable: true, value: realLocation });
  });
});
