import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { AppProviders } from '../../../app/providers';
import { createQueryClient } from '../../../lib/query-client';
import { useSessionStore } from '../../../lib/session-store';
import { buildLogin } from '../../../test/fixtures';
import { buildList } from '../test-data';
import { ListsScreen } from './lists-screen';

const ok = (data: unknown) => new Response(JSON.stringify({ status: 'success', data }), { status: 200 });

describe('ListsScreen', () => {
  beforeEach(() => useSessionStore.getState().fillSession(buildLogin()));
  afterEach(() => {
    vi.unstubAllGlobals();
    useSessionStore.getState().logout();
  });

  it("says in a list's row how many addresses wait for a greylist re-check and when (the user's time zone), and nothing for other lists", async () => {
    useSessionStore.getState().setTimezone('Asia/Kolkata');
    const nextAt = new Date(Date.now() + 10 * 60_000);
    const waiting = buildList({
      id: '6f1c1c2e-5d0b-4c1e-9a55-1d0c1f0e0a02',
      name: 'spring leads',
      state: 'in_progress',
      activity: 'verify',
      counts: { rows: 40, unique: 40, duplicate: 0, syntax_error: 0, verified: 28, remaining: 12 },
      progress: 70,
      greylist: { waiting: 12, next_recheck_at: nextAt.toISOString() },
    });
    const running = buildList({ id: '6f1c1c2e-5d0b-4c1e-9a55-1d0c1f0e0a03', name: 'autumn leads', state: 'in_progress', activity: 'verify', progress: 10 });
    const done = buildList({ id: '6f1c1c2e-5d0b-4c1e-9a55-1d0c1f0e0a04', name: 'old leads', state: 'verified', progress: 100 });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        if (url.includes('/email_verify/list')) return ok({ items: [waiting, running, done], total: 3, page: 1, limit: 25 });
        return new Response('{}', { status: 404 });
      }),
    );
    render(
      <AppProviders queryClient={createQueryClient()}>
        <MemoryRouter initialEntries={['/email_verifier/lists']}>
          <ListsScreen />
        </MemoryRouter>
      </AppProviders>,
    );
    const rows = await screen.findAllByTestId('list-row');
    expect(rows).toHaveLength(3);
    // 10 minutes from now on the clock of India (UTC+05:30), not the browser's
    const hm = new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Kolkata', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(nextAt);
    const wait = within(rows[0] as HTMLElement).getByTestId('list-greylist-wait');
    expect(wait.textContent).toMatch(new RegExp(`^12 addresses wait for a greylist re-check at (\\d+ \\w+ \\d{4}, )?${hm}$`));
    expect(within(rows[1] as HTMLElement).queryByTestId('list-greylist-wait')).toBeNull();
    expect(within(rows[2] as HTMLElement).queryByTestId('list-greylist-wait')).toBeNull();
    expect(screen.getAllByTestId('list-greylist-wait')).toHaveLength(1);
  }, 15_000);
});
