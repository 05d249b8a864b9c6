import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { AppProviders } from '../../../app/providers';
import { cancelPendingPricingRedirect } from '../../../lib/api-client';
import { createQueryClient } from '../../../lib/query-client';
import { useSessionStore } from '../../../lib/session-store';
import { buildLogin } from '../../../test/fixtures';
import { buildList } from '../test-data';
import { VerifyListModal } from './verify-list-modal';

describe('VerifyListModal', () => {
  let bodies: unknown[];
  beforeEach(() => {
    bodies = [];
    useSessionStore.getState().fillSession(buildLogin({ credits: 4 }));
    useSessionStore.getState().setCredits(4);
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        if (url.endsWith('/user_preferences')) return new Response('{}', { status: 404 });
        bodies.push(JSON.parse(String(init?.body)));
        return new Response(
          JSON.stringify({ status: 'failed', error: { code: 'insufficient_credits', message: 'Not enough credits', additional_info: { required_credits: 6 } } }),
          { status: 402 },
        );
      }),
    );
  });
  afterEach(() => {
    cancelPendingPricingRedirect();
    vi.unstubAllGlobals();
    useSessionStore.getState().logout();
  });

  it('shows the billable count and cost, warns when credits are short, and shows the 402 answer', async () => {
    render(
      <AppProviders queryClient={createQueryClient()}>
        <VerifyListModal list={buildList()} onClose={() => undefined} />
      </AppProviders>,
    );
    expect((await screen.findByTestId('verify-billable')).textContent).toBe('10');
    expect(screen.getByTestId('verify-credits-required').textContent).toBe('10');
    expect(screen.getByTestId('verify-credits-available').textContent).toBe('4');
    expect(screen.getByText(/Add 6 credits to verify it all/).textContent).toBe('This list needs 10 credits and you have 4. Add 6 credits to verify it all.');
    fireEvent.click(screen.getByRole('button', { name: 'Verify 10 addresses' }));
    expect((await screen.findByText('Not enough credits')).textContent).toBe('Not enough credits');
    expect(bodies).toEqual([{ list_id: buildList().id }]);
    expect((await screen.findByText('You have exhausted your credits, please add additional 6 credits to continue')).textContent).toBe('You have exhausted your credits, please add additional 6 credits to continue');
  });

  it('counts what is skipped in words that agree with the numbers, and names no kind that has none', async () => {
    const cases: Array<[Partial<ReturnType<typeof buildList>['counts']>, string, string]> = [
      [{ duplicate: 1, syntax_error: 1, remaining: 7 }, '1 duplicate and 1 syntax error are skipped and cost nothing. Unknown results are not billed, so the final charge can be lower.', 'Verify 7 addresses'],
      [{ duplicate: 1, syntax_error: 0, remaining: 1 }, '1 duplicate is skipped and costs nothing. Unknown results are not billed, so the final charge can be lower.', 'Verify 1 address'],
      [{ duplicate: 0, syntax_error: 0, remaining: 2500 }, 'Unknown results are not billed, so the final charge can be lower.', 'Verify 2,500 addresses'],
      [{ duplicate: 1200, syntax_error: 3, remaining: 9 }, '1,200 duplicates and 3 syntax errors are skipped and cost nothing. Unknown results are not billed, so the final charge can be lower.', 'Verify 9 addresses'],
    ];
    for (const [counts, note, button] of cases) {
      const list = buildList();
      const { unmount } = render(
        <AppProviders queryClient={createQueryClient()}>
          <VerifyListModal list={{ ...list, counts: { ...list.counts, ...counts } }} onClose={() => undefined} />
        </AppProviders>,
      );
      expect((await screen.findByTestId('verify-skipped-note')).textContent).toBe(note);
      expect(screen.getByRole('button', { name: button }).textContent).toBe(button);
      unmount();
    }
  });
});
