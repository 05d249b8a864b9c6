import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { AppProviders } from '../../../app/providers';
import { createQueryClient } from '../../../lib/query-client';
import { useSessionStore } from '../../../lib/session-store';
import { buildLogin } from '../../../test/fixtures';
import { QuickValidationScreen } from './quick-validation-screen';

describe('QuickValidationScreen', () => {
  beforeEach(() => useSessionStore.getState().fillSession(buildLogin()));
  afterEach(() => {
    vi.unstubAllGlobals();
    useSessionStore.getState().logout();
  });

  it('lists as recent results only the verifications made in the app ("here"), not API calls', async () => {
    const urls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        urls.push(url);
        return new Response(JSON.stringify({ status: 'success', data: { items: [] } }), { status: 200 });
      }),
    );
    render(
      <AppProviders queryClient={createQueryClient()}>
        <MemoryRouter>
          <QuickValidationScreen />
        </MemoryRouter>
      </AppProviders>,
    );
    expect(await screen.findByText('No checks yet')).toBeTruthy();
    await waitFor(() => expect(urls.some((url) => url.includes('/email_verify/instant/recent'))).toBe(true));
    const recent = new URL(urls.find((url) => url.includes('/email_verify/instant/recent'))!, 'http://localhost');
    expect(recent.searchParams.get('source')).toBe('app');
  });
});
