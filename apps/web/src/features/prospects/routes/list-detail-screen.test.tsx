import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { AppProviders } from '../../../app/providers';
import { createQueryClient } from '../../../lib/query-client';
import { useSessionStore } from '../../../lib/session-store';
import { buildLogin } from '../../../test/fixtures';
import { ProspectListDetailScreen } from './list-detail-screen';

const LIST_ID = '11111111-1111-4111-8111-111111111111';
const list = (state: string) => ({ id: LIST_ID, name: 'Five people', lead_count: 1, state, user_id: 'u', created_at: '2026-11-24T10:00:00.000Z', updated_at: '2026-11-24T10:00:00.000Z' });
const request = (state: string, processed: number, paused_reason: string | null = null) => ({
  request_id: '22222222-2222-4222-8222-222222222222',
  kind: 'list',
  list_id: LIST_ID,
  list_name: 'Five people',
  state,
  options: { phones: 'all', emails: 'all' },
  total: 1,
  processed,
  progress: processed * 100,
  emails_revealed: processed,
  phones_revealed: 0,
  credits_charged: processed,
  error: null,
  paused_reason,
  created_at: '2026-11-24T10:00:00.000Z',
  updated_at: '2026-11-24T10:00:00.000Z',
});
const person = (revealed: boolean) => ({
  id: '33333333-3333-4333-8333-333333333333',
  full_name: 'Ada Lovelace',
  first_name: 'Ada',
  last_name: 'Lovelace',
  title: 'CTO',
  seniority: 'c_suite',
  department: 'engineering',
  country: 'GB',
  region: 'England',
  city: 'London',
  linkedin_url: null,
  company: { id: null, name: 'Analytical Engines', domain: 'engines.co.uk', industry: null, size_range: null },
  has_email: true,
  has_phone: false,
  email: revealed ? 'ada@strict.test' : 'a•••@s•••.test',
  email_revealed: revealed,
  email_status: revealed ? 'valid' : null,
  phone: null,
  phone_revealed: false,
  phone_type: null,
  added_at: '2026-11-24T10:00:00.000Z',
});

describe('ProspectListDetailScreen', { timeout: 30_000 }, () => {
  let enriched = false;
  let paused: string | null = null;
  beforeEach(() => {
    enriched = false;
    paused = null;
    useSessionStore.getState().fillSession(buildLogin());
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit = {}) => {
        const ok = (data: unknown) => new Response(JSON.stringify({ status: 'success', data }), { status: 200 });
        if (url.includes('/prospect/list/details')) {
          if (paused) return ok({ list: list('in_progress'), revealed_emails: 0, revealed_phones: 0, enrichment: request('in_progress', 0, paused) });
          return ok({ list: list(enriched ? 'processed' : 'not_processed'), revealed_emails: enriched ? 1 : 0, revealed_phones: 0, enrichment: enriched ? request('completed', 1) : null });
        }
        if (url.includes('/prospect/list/search/leads')) return ok({ items: [person(enriched)], total: 1, page: 1, limit: 25 });
        if (url.endsWith('/prospect/list/enrich') && init.method === 'POST') {
          enriched = true;
          return ok(request('queued', 0));
        }
        return new Response('{}', { status: 404 });
      }),
    );
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    useSessionStore.getState().logout();
  });

  const renderScreen = () =>
    render(
      <AppProviders queryClient={createQueryClient()}>
        <MemoryRouter initialEntries={[`/prospect/lists/${LIST_ID}`]}>
          <Routes>
            <Route path="/prospect/lists/:listId" element={<ProspectListDetailScreen />} />
          </Routes>
        </MemoryRouter>
      </AppProviders>,
    );

  it('says why a running enrichment waits (its organisation or owner suspended), as the verifier and finder lists do', async () => {
    paused = "Paused: the list owner's account is suspended by Verilead support. It goes on by itself once the account is restored.";
    renderScreen();
    const alert = await screen.findByTestId('enrichment-paused');
    expect(alert.textContent).toBe(`Enrichment paused${paused}`);
    expect(screen.getByRole('status').getAttribute('data-testid')).toBe('enrichment-paused');
    expect(screen.getByTestId('enrichment-state').textContent).toBe('Enrichment: In progress');
  });

  it('shows no pause when the enrichment does not wait', async () => {
    enriched = true;
    renderScreen();
    expect((await screen.findByText('Enrichment: Completed')).textContent).toBe('Enrichment: Completed');
    expect(screen.queryByTestId('enrichment-paused')).toBeNull();
  });

  it('shows masked leads, enriches the list and shows the revealed address with its progress done', async () => {
    renderScreen();
    expect((await screen.findByText('a•••@s•••.test')).textContent).toBe('a•••@s•••.test');
    fireEvent.click(screen.getByRole('button', { name: 'Enrich list' }));
    // Issue 28: the most it can cost comes first (1 person: an e-mail at 1 credit, a phone at 2); nothing starts before.
    expect((await screen.findByTestId('enrich-max-cost')).textContent).toBe('3 credits');
    expect(enriched).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Enrich for at most 3 credits' }));
    expect((await screen.findByText('Enrichment: Completed')).textContent).toBe('Enrichment: Completed');
    expect((await screen.findByTestId('enrichment-charged')).textContent).toBe('1 credit charged');
    expect((await screen.findByText('ada@strict.test')).textContent).toBe('ada@strict.test');
    expect(screen.getByRole('progressbar', { name: 'Enrichment progress' }).getAttribute('aria-valuenow')).toBe('100');
  });
});
