import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { AppProviders } from '../../../app/providers';
import { createQueryClient } from '../../../lib/query-client';
import { useSessionStore } from '../../../lib/session-store';
import { buildLogin } from '../../../test/fixtures';
import { buildFinderResult } from '../test-data';
import { QuickFinderScreen } from './quick-finder-screen';

type TCall = { method: string; path: string; body: unknown };
const ok = (data: unknown, status = 200) => new Response(JSON.stringify({ status: 'success', data }), { status });
const emptyHistory = { items: [], total: 0, page: 1, limit: 25 };

/** A fetch stand-in: `answer` gets each call and returns the Response (tests only). */
function stubFetch(answer: (call: TCall) => Response): TCall[] {
  const calls: TCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const call = { method: init.method ?? 'GET', path: url.split('?')[0]?.replace('/api/v1', '') ?? '', body: init.body ? (JSON.parse(String(init.body)) as unknown) : null };
      calls.push(call);
      return answer(call);
    }),
  );
  return calls;
}

function renderScreen() {
  return render(
    <AppProviders queryClient={createQueryClient()}>
      <MemoryRouter>
        <QuickFinderScreen />
      </MemoryRouter>
    </AppProviders>,
  );
}

function fillAndFind(first: string, last: string, domain: string) {
  fireEvent.change(screen.getByRole('textbox', { name: /First name/ }), { target: { value: first } });
  fireEvent.change(screen.getByRole('textbox', { name: /Last name/ }), { target: { value: last } });
  fireEvent.change(screen.getByRole('textbox', { name: /Company domain/ }), { target: { value: domain } });
  fireEvent.click(screen.getByRole('button', { name: 'Find' }));
}

describe('QuickFinderScreen', { timeout: 30_000 }, () => {
  beforeEach(() => useSessionStore.getState().fillSession(buildLogin()));
  afterEach(() => {
    vi.unstubAllGlobals();
    useSessionStore.getState().logout();
  });

  it('sends first name, last name and domain, then shows the address, confidence label and flags', async () => {
    const calls = stubFetch((call) => (call.path === '/email_finder/instant' ? ok({ ...buildFinderResult(), queued: false, id: 'f-1', credits_charged: 1 }) : ok(emptyHistory)));
    renderScreen();
    fillAndFind('Jane', 'Doe', 'https://www.Strict.test/');
    expect((await screen.findByTestId('finder-email')).textContent).toBe('jane.doe@strict.test');
    expect(screen.getByTestId('finder-confidence').textContent).toBe('95');
    expect(screen.getByTestId('finder-confidence-label').textContent).toBe('High confidence');
    expect(screen.getByTestId('flag-business').textContent).toBe('Business');
    expect(screen.queryByTestId('flag-role')).toBeNull();
    expect(screen.queryByTestId('catch-all-note')).toBeNull();
    expect(calls.find((call) => call.path === '/email_finder/instant')?.body).toEqual({ first_name: 'Jane', last_name: 'Doe', domain: 'strict.test' });
  });

  it('polls a queued search by qid and shows a catch-all best guess with its note', async () => {
    let polls = 0;
    const guess = buildFinderResult({ email: 'jane.doe@catchall.test', domain: 'catchall.test', catch_all: true, confidence_score: 62, reason: { code: 'catch_all_best_guess', text: '' } });
    const calls = stubFetch((call) => {
      if (call.path === '/email_finder/instant') return ok({ queued: true, qid: '0b6f1a8e-7c1d-4c55-9d7e-3f1e2a9b8c7d', message: 'Still searching' });
      if (call.path === '/email_finder/instant/queue_status') {
        polls += 1;
        return ok({ qid: 'q', state: polls < 2 ? 'running' : 'completed', result: polls < 2 ? null : { ...guess, id: 'f-2', credits_charged: 1 }, error: null });
      }
      return ok(emptyHistory);
    });
    renderScreen();
    fillAndFind('Jane', 'Doe', 'catchall.test');
    expect((await screen.findByTestId('finder-queued')).textContent).toBe('The mail server is slow to answer; the search continues and the result appears here when ready.');
    expect((await screen.findByTestId('catch-all-note', {}, { timeout: 15_000 })).textContent).toBe('Catch-all domaincatchall.test accepts mail for every address, so this address could not be confirmed. It is the most likely pattern, with a lower confidence.');
    expect(screen.getByTestId('finder-confidence-label').textContent).toBe('Moderate confidence');
    expect(screen.getByTestId('finder-reason').textContent).toMatch(/accepts every address/);
    expect(calls.filter((call) => call.path === '/email_finder/instant/queue_status').length).toBeGreaterThanOrEqual(2);
    expect(screen.queryByTestId('finder-queued')).toBeNull();
  });

  it('asks for a domain only: a company name is refused on its field without calling the server', async () => {
    const calls = stubFetch(() => ok(emptyHistory));
    renderScreen();
    const domain = screen.getByRole('textbox', { name: /Company domain/ });
    expect(domain.getAttribute('placeholder')).toBe('acme.com');
    expect(screen.queryByText(/Domain or company/)).toBeNull();
    expect(screen.queryByPlaceholderText(/Acme Inc/)).toBeNull();
    fillAndFind('Jane', 'Doe', 'Acme Inc');
    expect((await screen.findByText(/finding by company name is not available yet/)).textContent).toBe('Please enter the company’s domain, such as acme.com: finding by company name is not available yet');
    expect(domain.getAttribute('aria-invalid')).toBe('true');
    expect(calls.some((call) => call.path === '/email_finder/instant')).toBe(false);
  });

  it('asks for the missing fields without calling the server (the last name is required, as on the server)', async () => {
    const calls = stubFetch(() => ok(emptyHistory));
    renderScreen();
    fireEvent.click(screen.getByRole('button', { name: 'Find' }));
    expect((await screen.findByText('Please enter the first name')).textContent).toBe('Please enter the first name');
    expect(screen.getByText('Please enter the last name').textContent).toBe('Please enter the last name');
    expect(screen.getByText('Please enter the company’s domain').textContent).toBe('Please enter the company’s domain');
    fillAndFind('Jane', '', 'strict.test');
    expect((await screen.findByText('Please enter the last name')).textContent).toBe('Please enter the last name');
    expect(calls.some((call) => call.path === '/email_finder/instant')).toBe(false);
  });

  it('shows a not-found answer at confidence 0, uncharged', async () => {
    stubFetch((call) =>
      call.path === '/email_finder/instant'
        ? ok({ ...buildFinderResult({ email: null, status: 'not_found', confidence_score: 0, pattern: null, verification_status: null, emails: [], total: 0, reason: { code: 'no_valid_candidate', text: '' } }), queued: false, id: 'f-3', credits_charged: 0 })
        : ok(emptyHistory),
    );
    renderScreen();
    fillAndFind('Nobody', 'Here', 'strict.test');
    expect((await screen.findByTestId('finder-email')).textContent).toBe('No address found');
    expect(screen.getByTestId('finder-confidence-label').textContent).toBe('No confidence');
    expect(screen.getByText(/not charged/).textContent).toBe('1 candidate checked · 22 Nov 2026, 15:00 · not charged');
  });
});
