import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { TKeepVerifiedData } from '@verilead/contracts';
import { AppProviders } from '../../../app/providers';
import { createQueryClient } from '../../../lib/query-client';
import { useSessionStore } from '../../../lib/session-store';
import { buildLogin } from '../../../test/fixtures';
import { KeepVerifiedCard } from './keep-verified-card';

const LIST = '11111111-1111-4111-8111-111111111111';
const ok = (data: unknown) => new Response(JSON.stringify({ status: 'success', data }), { status: 200 });
const off: TKeepVerifiedData = {
  list_id: LIST,
  schedule: 'off',
  age_days: 30,
  cost_per_run: 0,
  confirmed_cost_per_run: null,
  next_run_at: null,
  last_run_at: null,
  skipped_reason: null,
  credits_balance: 500,
  available: true,
  unavailable_reason: null,
  runs: [],
};

function renderCard() {
  render(
    <AppProviders queryClient={createQueryClient()}>
      <KeepVerifiedCard listId={LIST} />
    </AppProviders>,
  );
}

describe('KeepVerifiedCard', () => {
  beforeEach(() => useSessionStore.getState().fillSession(buildLogin()));
  afterEach(() => {
    vi.unstubAllGlobals();
    useSessionStore.getState().logout();
  });

  it('shows the cost per run of the choice, then turns the schedule on with exactly that cost confirmed', async () => {
    const puts: unknown[] = [];
    let saved = off;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        if (init?.method === 'PUT') {
          puts.push(JSON.parse(String(init.body)));
          saved = { ...off, schedule: 'monthly', cost_per_run: 12, confirmed_cost_per_run: 12, next_run_at: '2026-12-29T10:00:00.000Z' };
          return ok(saved);
        }
        if (url.includes('schedule=monthly')) return ok({ ...off, schedule: 'monthly', cost_per_run: 12, next_run_at: '2026-12-29T10:00:00.000Z' });
        return ok(saved);
      }),
    );
    renderCard();
    expect((await screen.findByTestId('runs-empty')).textContent).toBe('No run yet. Turn a schedule on to keep this list verified.');
    fireEvent.click(screen.getByText('Monthly'));
    await waitFor(() => expect(screen.getByTestId('keep-verified-cost').textContent).toContain('Up to 12 credits per run'));
    fireEvent.click(screen.getByRole('button', { name: 'Turn on' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('keep-verified-confirm-cost').textContent).toBe('Up to 12 credits per run');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm 12 credits per run' }));
    await waitFor(() => expect(puts).toEqual([{ list_id: LIST, schedule: 'monthly', age_days: 30, accepted_cost_per_run: 12 }]));
    await waitFor(() => expect(screen.getByTestId('keep-verified-next').textContent).toContain('Next run'));
  });

  it("lists the runs with what changed, and a skipped run's reason", async () => {
    const data: TKeepVerifiedData = {
      ...off,
      schedule: 'quarterly',
      age_days: 90,
      next_run_at: '2027-02-28T10:00:00.000Z',
      skipped_reason: 'Skipped: not enough credits (this run needs up to 6 credits, the organisation has 2)',
      runs: [
        { id: 'r2', kind: 'scheduled', state: 'skipped', reason: 'Skipped: not enough credits', due_at: '2026-11-28T10:00:00.000Z', started_at: null, finished_at: '2026-11-28T10:00:01.000Z', planned: 6, rechecked: 0, charged: 0, changed: 0, transitions: [] },
        {
          id: 'r1',
          kind: 'scheduled',
          state: 'completed',
          reason: null,
          due_at: '2026-08-28T10:00:00.000Z',
          started_at: '2026-08-28T10:00:00.000Z',
          finished_at: '2026-08-28T10:01:00.000Z',
          planned: 4,
          rechecked: 4,
          charged: 4,
          changed: 3,
          transitions: [
            { from: 'valid', to: 'invalid', count: 3 },
            { from: 'valid', to: 'valid', count: 1 },
          ],
        },
      ],
    };
    vi.stubGlobal('fetch', vi.fn(async () => ok(data)));
    renderCard();
    expect((await screen.findByTestId('keep-verified-skipped')).textContent).toContain('the organisation has 2');
    const rows = within(screen.getByTestId('reverify-runs')).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(rows[1]!.textContent).toContain('skipped');
    expect(rows[2]!.textContent).toContain('Valid → Invalid: 3');
    expect(rows[2]!.textContent).not.toContain('Valid → Valid');
    expect(within(rows[2]!).getByRole('button', { name: 'See changes' }).textContent).toBe('See changes');
  });

  it('says so when the schedule cannot be loaded, with a retry', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ status: 'failed', error: { code: 'not_found', message: 'List not found' } }), { status: 404 })));
    renderCard();
    expect((await screen.findByText('Could not load the schedule')).textContent).toBe('Could not load the schedule');
  });
});
