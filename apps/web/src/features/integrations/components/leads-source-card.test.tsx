import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { AppProviders } from '../../../app/providers';
import { createQueryClient } from '../../../lib/query-client';
import { useSessionStore } from '../../../lib/session-store';
import { buildLogin } from '../../../test/fixtures';
import { LeadsSourceCard } from './leads-source-card';

const LIST = { id: '22222222-2222-4222-8222-222222222222', name: 'Conference leads', lead_count: 17, email_count: 14 };
const IMPORT = {
  id: '33333333-3333-4333-8333-333333333333',
  integration: 'leads',
  account_id: null,
  account_name: 'Prospect lists',
  remote_list_id: LIST.id,
  remote_list_name: LIST.name,
  state: 'importing',
  imported: 0,
  total: 14,
  verify_list_id: null,
  written_back: 0,
  write_back: { unsubscribe: false, append: true },
  error: null,
  created_at: '2026-11-25T02:00:00Z',
};

function renderCard() {
  return render(
    <AppProviders queryClient={createQueryClient()}>
      <MemoryRouter>
        <LeadsSourceCard />
      </MemoryRouter>
    </AppProviders>,
  );
}

describe('LeadsSourceCard', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  let lists: unknown[];
  beforeEach(() => {
    useSessionStore.getState().fillSession(buildLogin());
    lists = [LIST];
    fetchMock = vi.fn(async (url: string, init?: RequestInit) =>
      init?.method === 'POST'
        ? new Response(JSON.stringify({ status: 'success', data: IMPORT }), { status: 200 })
        : new Response(JSON.stringify({ status: 'success', data: { items: lists } }), { status: 200 }),
    );
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('says so when there are no prospect lists', async () => {
    lists = [];
    renderCard();
    expect(screen.getByText('Loading...').textContent).toBe('Loading...');
    expect((await screen.findByText(/You have no prospect lists yet/)).textContent).toBe('You have no prospect lists yet. Find prospects and add them to a list first.');
  });

  it('asks for a list, then starts the import of the chosen one', async () => {
    renderCard();
    const button = await screen.findByRole('button', { name: 'Import and verify' });
    fireEvent.click(button);
    expect((await screen.findByText('Please choose a prospect list')).textContent).toBe('Please choose a prospect list');
    expect(fetchMock.mock.calls.filter(([, init]) => (init as RequestInit | undefined)?.method === 'POST')).toHaveLength(0);
    fireEvent.click(screen.getByRole('combobox', { name: 'Prospect list' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Conference leads (14 e-mails)', hidden: true }));
    fireEvent.click(button);
    await waitFor(() => expect(fetchMock.mock.calls.some(([, init]) => (init as RequestInit | undefined)?.method === 'POST')).toBe(true));
    const [url, init] = fetchMock.mock.calls.find(([, i]) => (i as RequestInit | undefined)?.method === 'POST') as [string, RequestInit];
    expect(String(url)).toMatch(/\/integration\/leads\/verify_list$/);
    expect(JSON.parse(String(init.body))).toEqual({ list_id: LIST.id });
  });
});
