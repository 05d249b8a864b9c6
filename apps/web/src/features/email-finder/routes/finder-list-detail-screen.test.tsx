import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import type { TFinderList } from '@verilead/contracts';
import { AppProviders } from '../../../app/providers';
import { createQueryClient } from '../../../lib/query-client';
import { useSessionStore } from '../../../lib/session-store';
import { buildLogin } from '../../../test/fixtures';
import { buildFinderList, buildFinderStats } from '../test-data';
import { FinderListDetailScreen } from './finder-list-detail-screen';

type TCall = { method: string; path: string; body: unknown };
const ok = (data: unknown) => new Response(JSON.stringify({ status: 'success', data }), { status: 200 });

function stubServer(lists: () => TFinderList, progress?: () => unknown): TCall[] {
  const calls: TCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const path = url.split('?')[0]?.replace('/api/v1', '') ?? '';
      calls.push({ method: init.method ?? 'GET', path, body: init.body ? (JSON.parse(String(init.body)) as unknown) : null });
      if (path === '/email_finder/list') return ok({ items: [lists()], total: 1, page: 1, limit: 25 });
      if (path === '/email_finder/bulk/progress_status' && progress) return ok(progress());
      if (path === '/email_finder/list/find_emails') return ok({ message: 'Started' });
      return new Response('{}', { status: 404 });
    }),
  );
  return calls;
}

function renderAt(listId: string) {
  return render(
    <AppProviders queryClient={createQueryClient()}>
      <MemoryRouter initialEntries={[`/email_finder/lists/${listId}`]}>
        <Routes>
          <Route path="/email_finder/lists/:listId" element={<FinderListDetailScreen />} />
        </Routes>
      </MemoryRouter>
    </AppProviders>,
  );
}

describe('FinderListDetailScreen', { timeout: 30_000 }, () => {
  beforeEach(() => useSessionStore.getState().fillSession(buildLogin()));
  afterEach(() => {
    vi.unstubAllGlobals();
    useSessionStore.getState().logout();
  });

  it('shows counts and the cost note, and starts find_emails after the confirmation', async () => {
    const list = buildFinderList();
    const calls = stubServer(() => list);
    renderAt(list.id);
    expect((await screen.findByTestId('count-searchable')).textContent).toBe('10');
    expect(screen.getByTestId('find-cost').textContent).toContain('Only found addresses are charged');
    expect(screen.getByTestId('list-state').textContent).toBe('Not processed');
    fireEvent.click(screen.getByRole('button', { name: 'Find addresses' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('find-cost-note').textContent).toContain('people not found cost nothing');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Find addresses' }));
    await waitFor(() => expect(calls.find((call) => call.path === '/email_finder/list/find_emails')?.body).toEqual({ list_id: list.id }));
  });

  it('says how many rows repeat a person, searched and charged once', async () => {
    const list = buildFinderList({ counts: { rows: 12, searchable: 10, skipped: 0, duplicate: 2, processed: 0, remaining: 10 } });
    stubServer(() => list);
    renderAt(list.id);
    expect((await screen.findByTestId('duplicate-note')).textContent).toBe('2 rows repeat a person already in the list: searched once, charged once, and given the same result in the download.');
  });

  it('follows a running search through progress_status and shows the finder metrics', async () => {
    const running = buildFinderList({
      state: 'in_progress',
      activity: 'find_emails',
      progress: 40,
      counts: { rows: 10, searchable: 10, skipped: 0, duplicate: 0, processed: 4, remaining: 6 },
      stats: buildFinderStats({ total: 4, found: 3, not_found: 1, business: 3, role: 1, catch_all: 1, confidence_score: 82, billable: 3 }),
    });
    const calls = stubServer(
      () => running,
      () => ({ list_id: running.id, state: 'in_progress', activity: 'find_emails', progress: 60, processed: 6, total: 10, stats: buildFinderStats({ found: 5 }), stopped_reason: null }),
    );
    renderAt(running.id);
    expect((await screen.findByTestId('search-percent')).textContent).toBe('40%');
    await waitFor(() => expect(screen.getByTestId('search-percent').textContent).toBe('60%'));
    expect(screen.getByText(/6 of 10 people searched · 5 addresses found/).textContent).toBe('6 of 10 people searched · 5 addresses found');
    expect(within(screen.getByTestId('stat-found')).getByText('3').textContent).toBe('3');
    expect(within(screen.getByTestId('stat-billable')).getByText('3').textContent).toBe('3');
    expect(within(screen.getByTestId('stat-confidence_score')).getByText('82').textContent).toBe('82');
    expect(screen.getByRole('button', { name: 'Cancel' })).toHaveProperty('disabled', false);
    expect(screen.queryByRole('button', { name: 'Find addresses' })).toBeNull();
    expect(calls.some((call) => call.path === '/email_finder/bulk/progress_status')).toBe(true);
  });
});
