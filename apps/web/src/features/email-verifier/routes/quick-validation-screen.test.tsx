import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
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
    expect((await screen.findByText('No checks yet')).textContent).toBe('No checks yet');
    await waitFor(() => expect(urls.some((url) => url.includes('/email_verify/instant/recent'))).toBe(true));
    const recent = new URL(urls.find((url) => url.includes('/email_verify/instant/recent'))!, 'http://localhost');
    expect(recent.searchParams.get('source')).toBe('app');
  });

  it.each([
    ['daily_limit_exceeded', 'Your daily credit limit is reached. It resets at the start of the next day.', 'Daily limit reached'],
    ['insufficient_credits', 'You have exhausted your credits, please add additional 1 credits to continue', 'Not enough credits'],
  ])('a 402 %s is titled by the rule that refused it', async (code, message, title) => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) =>
        url.includes('/email_verify/instant/recent')
          ? new Response(JSON.stringify({ status: 'success', data: { items: [] } }), { status: 200 })
          : new Response(JSON.stringify({ status: 'failed', error: { code, message, additional_info: { required_credits: 1 } } }), { status: 402 }),
      ),
    );
    const { container } = render(
      <AppProviders queryClient={createQueryClient()}>
        <MemoryRouter>
          <QuickValidationScreen />
        </MemoryRouter>
      </AppProviders>,
    );
    const view = within(container);
    fireEvent.change(view.getByLabelText(/Email address/), { target: { value: 'someone@example.com' } });
    fireEvent.click(view.getByRole('button', { name: /Verify/ }));
    const alert = await view.findByRole('alert');
    expect(alert.textContent).toBe(`${title}${message}`);
  });
});
