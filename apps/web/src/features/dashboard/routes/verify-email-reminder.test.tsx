import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, within } from '@testing-library/react';
import { AppProviders } from '../../../app/providers';
import { createQueryClient } from '../../../lib/query-client';
import { VerifyEmailReminder } from './verify-email-reminder';

describe('VerifyEmailReminder', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('reminds an unverified person and sends a new link on request, saying where it went', async () => {
    const calls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        calls.push(`${init?.method ?? 'GET'} ${new URL(url, 'http://x').pathname}`);
        return new Response(JSON.stringify({ status: 'success', data: { message: 'We sent a new verification link to ada@example.test.' } }), { status: 200 });
      }),
    );
    const { container } = render(
      <AppProviders queryClient={createQueryClient()}>
        <VerifyEmailReminder email="ada@example.test" />
      </AppProviders>,
    );
    const view = within(container);
    expect(view.getByTestId('verify-email-reminder').textContent).toContain('We sent a verification link to ada@example.test. Open it to confirm your address.');
    fireEvent.click(view.getByRole('button', { name: 'Send a new link' }));
    expect((await view.findByRole('status')).textContent).toBe('We sent a new verification link to ada@example.test.');
    expect(calls).toEqual(['POST /api/v1/user/resend_verification']);
  });
});
