import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { AppProviders } from '../../../app/providers';
import { createQueryClient } from '../../../lib/query-client';
import { useSessionStore } from '../../../lib/session-store';
import { useCreditsAndLimits } from '../../../lib/user-queries';
import { buildLogin } from '../../../test/fixtures';
import { buildList } from '../test-data';
import { ListDetailScreen } from './list-detail-screen';

/** The header's credits query, as the app layout keeps it. */
function HeaderCredits() {
  useCreditsAndLimits();
  return null;
}

const limits = { daily: { limit: null, used: 0, remaining: null }, life_time: { limit: null, used: 0, remaining: null } };
const ok = (data: unknown) => new Response(JSON.stringify({ status: 'success', data }), { status: 200 });

describe('ListDetailScreen', () => {
  beforeEach(() => useSessionStore.getState().fillSession(buildLogin()));
  afterEach(() => {
    vi.unstubAllGlobals();
    useSessionStore.getState().logout();
  });

  it('shows every address verified and refreshes the credits when the job ends, even if the last progress poll was behind', async () => {
    const running = buildList({
      state: 'in_progress',
      activity: 'verify',
      counts: { rows: 3, unique: 3, duplicate: 0, syntax_error: 0, verified: 2, remaining: 1 },
      progress: 66,
    });
    const done = buildList({ state: 'verified', counts: { rows: 3, unique: 3, duplicate: 0, syntax_error: 0, verified: 3, remaining: 0 }, progress: 100, verified_at: '2026-11-22T16:00:00.000Z' });
    let listCalls = 0;
    let creditCalls = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        if (url.includes('/email_verify/list')) {
          listCalls += 1;
          return ok({ items: [listCalls === 1 ? running : done], total: 1, page: 1, limit: 25 });
        }
        // The progress poll lags behind: it still says 2 of 3.
        if (url.includes('/email_verify/bulk/progress_status')) {
          return ok({ list_id: running.id, state: 'in_progress', activity: 'verify', analysis: running.analysis, progress: 66, verified: 2, total: 3, stats: running.stats, greylist: running.greylist, stopped_reason: null });
        }
        if (url.includes('/user/credits_and_limits')) {
          creditCalls += 1;
          return ok({ credits: 10 - creditCalls, org_credits: 10 - creditCalls, limits, show_daily_limits: false, low_credit_alert: { enabled: false, threshold: 0 }, org_low_credit_alert: { enabled: false, threshold: 0 } });
        }
        return new Response('{}', { status: 404 });
      }),
    );
    const queryClient = createQueryClient();
    render(
      <AppProviders queryClient={queryClient}>
        <MemoryRouter initialEntries={[`/email_verifier/lists/${running.id}`]}>
          <Routes>
            <Route
              path="/email_verifier/lists/:listId"
              element={
                <>
                  <HeaderCredits />
                  <ListDetailScreen />
                </>
              }
            />
          </Routes>
        </MemoryRouter>
      </AppProviders>,
    );
    expect((await screen.findByText('2 of 3 unique addresses verified')).textContent).toBe('2 of 3 unique addresses verified');
    expect((await screen.findByText('Verification complete', {}, { timeout: 5_000 })).textContent).toBe('Verification complete');
    expect((await screen.findByText('3 of 3 unique addresses verified')).textContent).toBe('3 of 3 unique addresses verified');
    await waitFor(() => expect(creditCalls).toBeGreaterThan(1));
  }, 15_000);

  it('says how many addresses wait for a greylist re-check and when, in the user\'s time zone, while showing the results so far', async () => {
    useSessionStore.getState().setTimezone('Asia/Kolkata');
    const nextAt = new Date(Date.now() + 10 * 60_000);
    const running = buildList({
      state: 'in_progress',
      activity: 'verify',
      counts: { rows: 40, unique: 40, duplicate: 0, syntax_error: 0, verified: 28, remaining: 12 },
      progress: 70,
      greylist: { waiting: 12, next_recheck_at: nextAt.toISOString() },
    });
    const live = { ...running.stats, total: 40, valid: 20, invalid: 6, unknown: 2 };
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        if (url.includes('/email_verify/list')) return ok({ items: [running], total: 1, page: 1, limit: 25 });
        if (url.includes('/email_verify/bulk/progress_status')) {
          return ok({ list_id: running.id, state: 'in_progress', activity: 'verify', analysis: running.analysis, progress: 70, verified: 28, total: 40, stats: live, greylist: running.greylist, stopped_reason: null });
        }
        return new Response('{}', { status: 404 });
      }),
    );
    render(
      <AppProviders queryClient={createQueryClient()}>
        <MemoryRouter initialEntries={[`/email_verifier/lists/${running.id}`]}>
          <Routes>
            <Route path="/email_verifier/lists/:listId" element={<ListDetailScreen />} />
          </Routes>
        </MemoryRouter>
      </AppProviders>,
    );
    // 10 minutes from now on the clock of India (UTC+05:30), not the browser's
    const hm = new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Kolkata', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(nextAt);
    const wait = await screen.findByTestId('greylist-wait');
    expect(wait.textContent).toMatch(new RegExp(`^12 addresses wait for a greylist re-check at (\\d+ \\w+ \\d{4}, )?${hm}; the results so far are below\\.$`));
    expect(screen.getByText('28 of 40 unique addresses verified').textContent).toMatch(/^28 of 40 unique addresses verified12 addresses wait for a greylist re-check at /);
    // the results so far (the live poll's stats) are on screen
    await waitFor(() => expect(screen.getAllByText('20').length).toBeGreaterThan(0));
  }, 15_000);

  it('says a list in progress is paused while the account is suspended, and why', async () => {
    const paused = buildList({
      state: 'in_progress',
      activity: 'verify',
      counts: { rows: 3, unique: 3, duplicate: 0, syntax_error: 0, verified: 1, remaining: 2 },
      progress: 33,
      paused_reason: "Paused: the list owner's account is suspended by Verilead support. It goes on by itself once the account is restored.",
    });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        if (url.includes('/email_verify/list')) return ok({ items: [paused], total: 1, page: 1, limit: 25 });
        if (url.includes('/email_verify/bulk/progress_status')) {
          return ok({ list_id: paused.id, state: 'in_progress', activity: 'verify', analysis: paused.analysis, progress: 33, verified: 1, total: 3, stats: paused.stats, greylist: paused.greylist, stopped_reason: null, paused_reason: paused.paused_reason });
        }
        if (url.includes('/user/credits_and_limits')) return ok({ credits: 10, org_credits: 10, limits, show_daily_limits: false, low_credit_alert: { enabled: false, threshold: 0 }, org_low_credit_alert: { enabled: false, threshold: 0 } });
        return new Response('{}', { status: 404 });
      }),
    );
    render(
      <AppProviders queryClient={createQueryClient()}>
        <MemoryRouter initialEntries={[`/email_verifier/lists/${paused.id}`]}>
          <Routes>
            <Route path="/email_verifier/lists/:listId" element={<ListDetailScreen />} />
          </Routes>
        </MemoryRouter>
      </AppProviders>,
    );
    const alert = await screen.findByTestId('list-paused');
    expect(alert.textContent).toBe("Verification paused" + "Paused: the list owner's account is suspended by Verilead support. It goes on by itself once the account is restored.");
  });
});
