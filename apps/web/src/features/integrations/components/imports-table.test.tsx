import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import type { TIntegrationImport } from '@verilead/contracts';
import { AppProviders } from '../../../app/providers';
import { createQueryClient } from '../../../lib/query-client';
import { useSessionStore } from '../../../lib/session-store';
import { buildLogin } from '../../../test/fixtures';
import { ImportsTable } from './imports-table';

const running: TIntegrationImport = {
  id: '22222222-2222-4222-8222-222222222222',
  integration: 'moosend',
  account_id: '11111111-1111-4111-8111-111111111111',
  account_name: 'Moosend',
  remote_list_id: 'list-a',
  remote_list_name: 'Newsletter',
  state: 'importing',
  imported: 7,
  total: 40,
  verify_list_id: null,
  written_back: 0,
  write_back: { unsubscribe: true, append: true },
  error: null,
  created_at: '2026-11-20T10:00:00Z',
};
const done: TIntegrationImport = { ...running, id: '33333333-3333-4333-8333-333333333333', remote_list_name: 'Customers', state: 'completed', imported: 40 };

describe('ImportsTable', () => {
  let imports: TIntegrationImport[];
  let cancels: unknown[];
  beforeEach(() => {
    useSessionStore.getState().fillSession(buildLogin());
    imports = [running, done];
    cancels = [];
    vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
      if (String(url).includes('/integration/imports/cancel')) {
        cancels.push(JSON.parse(String(init?.body)));
        imports = [{ ...running, state: 'cancelled', error: 'Cancelled by the user' }, done];
        return new Response(JSON.stringify({ status: 'success', data: imports[0] }), { status: 200 });
      }
      return new Response(JSON.stringify({ status: 'success', data: { items: imports } }), { status: 200 });
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('cancels a running import after confirmation; finished imports have no cancel button', async () => {
    render(
      <AppProviders queryClient={createQueryClient()}>
        <MemoryRouter>
          <ImportsTable />
        </MemoryRouter>
      </AppProviders>,
    );
    const row = await screen.findByTestId(`import-${running.id}`);
    expect(within(screen.getByTestId(`import-${done.id}`)).queryByRole('button', { name: /Cancel the import/ })).toBeNull();
    fireEvent.click(within(row).getByRole('button', { name: 'Cancel the import of Newsletter' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel import' }));
    expect((await within(row).findByText('Cancelled')).textContent).toBe('Cancelled');
    expect(within(row).getByText('Cancelled by the user').textContent).toBe('Cancelled by the user');
    expect(cancels).toEqual([{ import_id: running.id }]);
    expect(within(row).queryByRole('button', { name: /Cancel the import/ })).toBeNull();
  });
});
