import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import type { TActivity } from '@verilead/contracts';
import { AppProviders } from '../../../app/providers';
import { createQueryClient } from '../../../lib/query-client';
import { useSessionStore } from '../../../lib/session-store';
import { buildLogin } from '../../../test/fixtures';
import { ActivitiesScreen } from './activities-screen';

const ok = (data: unknown) => new Response(JSON.stringify({ status: 'success', data }), { status: 200 });
const at = '2026-11-20T10:00:00Z';
const item = (over: Partial<TActivity>): TActivity => ({ id: 'x', type: 'login', description: '', metadata: {}, created_at: at, status: null, progress: null, ...over });

let items: TActivity[];
beforeEach(() => {
  useSessionStore.getState().fillSession(buildLogin());
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => ok({ items, total: items.length, page: 1, limit: 25 })),
  );
});
afterEach(() => vi.unstubAllGlobals());

function renderScreen() {
  return render(
    <AppProviders queryClient={createQueryClient()}>
      <MemoryRouter>
        <ActivitiesScreen />
      </MemoryRouter>
    </AppProviders>,
  );
}

describe('activities screen', () => {
  it('words each job by where it stands: queued, in progress with its progress, history, cancelled and failed', async () => {
    items = [
      item({ id: '1', type: 'export', status: 'queued', description: 'The activity log' }),
      item({ id: '2', type: 'verify', status: 'in_progress', progress: 40, description: 'The list "leads"' }),
      item({ id: '3', type: 'find_emails', status: 'completed', description: 'Found emails for the list "people"' }),
      item({ id: '4', type: 'enrich', status: 'cancelled', description: 'Cancelled enriching the list "x"' }),
      item({ id: '5', type: 'failed', status: 'failed', description: 'Syncing "News" failed' }),
      item({ id: '6', type: 'login', description: 'Logged in' }),
    ];
    renderScreen();
    await screen.findByText('The activity log');
    const table = within(screen.getByRole('table'));
    expect(table.getByText('Export queued').textContent).toBe('Export queued');
    expect(table.getByText('Verifying').textContent).toBe('Verifying');
    expect(table.getByLabelText('Progress').textContent).toBe('40%');
    expect(table.getByText('Emails found').textContent).toBe('Emails found');
    expect(table.getByText('Enrichment cancelled').textContent).toBe('Enrichment cancelled');
    expect(table.getByText('Failed').textContent).toBe('Failed');
    expect(table.getByText('Logged in').textContent).toBe('Logged in');
  });

  it('says when there is nothing yet', async () => {
    items = [];
    renderScreen();
    expect((await screen.findByText('No activity yet')).textContent).toBe('No activity yet');
  });
});
