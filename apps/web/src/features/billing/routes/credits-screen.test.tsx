import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { AppProviders } from '../../../app/providers';
import { createQueryClient } from '../../../lib/query-client';
import { useSessionStore } from '../../../lib/session-store';
import { buildLogin } from '../../../test/fixtures';
import { answerOk as ok, stubApi } from '../../../test/render-app';
import { CreditsScreen } from './credits-screen';

const limits = { daily: { limit: null, used: 0, remaining: null }, life_time: { limit: null, used: 0, remaining: null } };
const row = (id: string, kind: string, amount: number, balance: number) => ({
  id,
  kind,
  amount,
  reason: `${kind} row`,
  source_agent: null,
  object_type: null,
  object_id: null,
  balance_after: balance,
  user_id: 'user-1',
  user_name: 'Olivia Owner',
  created_at: '2026-11-20T10:00:00.000Z',
});

describe('CreditsScreen', () => {
  beforeEach(() => useSessionStore.getState().fillSession(buildLogin()));
  afterEach(() => {
    vi.unstubAllGlobals();
    useSessionStore.getState().logout();
  });

  it('shows a charge as a negative amount in a neutral colour, and credits added as positive green', async () => {
    stubApi({
      'GET /api/v1/user/credits_and_limits': ok({
        credits: 98,
        org_credits: 98,
        limits,
        show_daily_limits: false,
        low_credit_alert: { enabled: false, threshold: 0 },
        org_low_credit_alert: { enabled: false, threshold: 0 },
      }),
      'GET /api/v1/user/credits_and_limits/transactions': ok({
        items: [row('t3', 'charge', -1, 98), row('t2', 'refund', 1, 99), row('t1', 'grant', 100, 100)],
        total: 3,
        page: 1,
        limit: 25,
      }),
    });
    render(
      <AppProviders queryClient={createQueryClient()}>
        <MemoryRouter>
          <CreditsScreen />
        </MemoryRouter>
      </AppProviders>,
    );
    const table = await screen.findByRole('table', { name: 'Credit transactions' });
    const amounts = within(table).getAllByTestId('transaction-amount');
    expect(amounts.map((cell) => cell.textContent)).toEqual(['\u22121', '+1', '+100']);
    expect(amounts[0]!.dataset.tone).toBe('neutral');
    expect(amounts[0]!.getAttribute('style') ?? '').not.toMatch(/red|teal|green/);
    expect(amounts[1]!.dataset.tone).toBe('positive');
    expect(amounts[1]!.getAttribute('style') ?? '').toMatch(/green/);
  });
});
