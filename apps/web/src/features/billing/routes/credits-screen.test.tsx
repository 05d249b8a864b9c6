import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
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

const line = (key: string, kind: string, amount: number, balance: number, over: Record<string, unknown> = {}) => ({
  key,
  group: 'single',
  kind,
  amount,
  count: 1,
  reason: `${kind} row`,
  source_agent: null,
  object_type: null,
  job_id: null,
  day: null,
  balance_after: balance,
  user_name: 'Olivia Owner',
  first_at: '2026-11-20T10:00:00.000Z',
  last_at: '2026-11-20T10:00:00.000Z',
  ...over,
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
      'GET /api/v1/user/credits_and_limits/ledger': ok({
        items: [line('t3', 'charge', -1, 98), line('t2', 'refund', 1, 99), line('t1', 'grant', 100, 100)],
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

  // Issue 28: a 496-address list is one line with its total, expandable to its rows; instant calls one line per day.
  it('shows a job as one line with its total and its rows when expanded', async () => {
    stubApi({
      'GET /api/v1/user/credits_and_limits': ok({
        credits: 504,
        org_credits: 504,
        limits,
        show_daily_limits: false,
        low_credit_alert: { enabled: false, threshold: 0 },
        org_low_credit_alert: { enabled: false, threshold: 0 },
      }),
      'GET /api/v1/user/credits_and_limits/ledger': ok({
        items: [
          line('job:bulk_verify:list-1', 'charge', -496, 504, { group: 'job', count: 496, reason: 'Bulk verification', source_agent: 'bulk_verify', job_id: 'list-1' }),
          line('day:2026-11-20:instant_verify:email', 'charge', -3, 1000, { group: 'day', count: 3, reason: 'Instant verification', source_agent: 'instant_verify', day: '2026-11-20' }),
        ],
        total: 2,
        page: 1,
        limit: 25,
      }),
      'GET /api/v1/user/credits_and_limits/ledger/rows': ok({ items: [row('r2', 'charge', -1, 504), row('r1', 'charge', -1, 505)], total: 496, page: 1, limit: 25 }),
    });
    render(
      <AppProviders queryClient={createQueryClient()}>
        <MemoryRouter>
          <CreditsScreen />
        </MemoryRouter>
      </AppProviders>,
    );
    const table = await screen.findByRole('table', { name: 'Credit transactions' });
    expect(within(table).getAllByTestId('transaction-amount').map((c) => c.textContent)).toEqual(['\u2212496', '\u22123']);
    expect(within(table).getByText('Bulk verification · 496 rows').tagName).toBe('P');
    expect(within(table).getByText('Instant verification · 3 calls on 20 Nov 2026').tagName).toBe('P');
    fireEvent.click(within(table).getByRole('button', { name: 'Show the 496 rows of Bulk verification · 496 rows' }));
    const rows = await screen.findByRole('table', { name: 'Rows of Bulk verification · 496 rows' });
    expect(within(rows).getAllByRole('row')).toHaveLength(2);
    expect(screen.getByText('1 / 20').textContent).toBe('1 / 20');
  });
});
