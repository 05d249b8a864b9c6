import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { AppProviders } from '../../../app/providers';
import { createQueryClient } from '../../../lib/query-client';
import { useSessionStore } from '../../../lib/session-store';
import { buildLogin } from '../../../test/fixtures';
import { ConnectScreen } from './connect-screen';

const account = { id: '11111111-1111-4111-8111-111111111111', integration: 'kit', name: 'Creator', remote_account: 'Fake Kit', created_at: '2026-11-20T10:00:00Z' };

function renderAt(path: string) {
  return render(
    <AppProviders queryClient={createQueryClient()}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/integrations/:integration/connect" element={<ConnectScreen />} />
          <Route path="/integrations/:integration" element={<p>Integration page</p>} />
        </Routes>
      </MemoryRouter>
    </AppProviders>,
  );
}

describe('ConnectScreen', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  let answer: () => Response;
  beforeEach(() => {
    useSessionStore.getState().fillSession(buildLogin());
    answer = () => new Response(JSON.stringify({ status: 'success', data: account }), { status: 200 });
    fetchMock = vi.fn(async () => answer());
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.unstubAllGlobals());

  const fill = () => {
    fireEvent.change(screen.getByLabelText(/Account name/), { target: { value: 'Creator' } });
    fireEvent.change(screen.getByLabelText(/V4 API key/), { target: { value: 'kit_key' } });
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
  };

  it('asks Kit users about a paid plan: "No, Cancel" sends nothing, "Yes, Continue" connects', async () => {
    renderAt('/integrations/kit/connect');
    fill();
    expect(await screen.findByText(/Does this Kit account have a paid plan/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'No, Cancel' }));
    await waitFor(() => expect(screen.queryByText(/Does this Kit account have a paid plan/)).toBeNull());
    expect(fetchMock).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Yes, Continue' }));
    expect(await screen.findByText('Integration page')).toBeTruthy();
    const [, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(JSON.parse(String(init.body))).toEqual({ name: 'Creator', api_key: 'kit_key', paid_plan_confirmed: true });
  });

  it("puts the platform's refusal on the key field", async () => {
    answer = () =>
      new Response(
        JSON.stringify({ status: 'failed', error: { code: 'validation_failed', message: 'x', reasons: [{ field: 'api_key', location: 'body', messages: ['Kit did not accept these credentials'] }] } }),
        { status: 400 },
      );
    renderAt('/integrations/kit/connect');
    fill();
    fireEvent.click(await screen.findByRole('button', { name: 'Yes, Continue' }));
    expect(await screen.findByText('Kit did not accept these credentials')).toBeTruthy();
  });

  it('explains why a defunct platform cannot be connected', () => {
    renderAt('/integrations/automizy/connect');
    expect(screen.getByText(/Automizy has shut down its service/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Connect' })).toBeNull();
  });
});
