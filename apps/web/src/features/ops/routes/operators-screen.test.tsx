import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { AppProviders } from '../../../app/providers';
import { createQueryClient } from '../../../lib/query-client';
import { useOpsSession } from '../api/ops-session-store';
import { OperatorsScreen } from './operators-screen';

const ME = { id: 'op-me', email: 'me@ops.test', name: 'Me', active: true, disabled: false, created_at: '2026-01-01T00:00:00.000Z' };
const OTHER = { id: 'op-other', email: 'other@ops.test', name: 'Other', active: true, disabled: false, created_at: '2026-01-02T00:00:00.000Z' };

describe('OperatorsScreen', { timeout: 30_000 }, () => {
  const calls: { url: string; method: string }[] = [];
  beforeEach(() => {
    calls.length = 0;
    useOpsSession.getState().signIn('vlo_token', ME);
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit = {}) => {
        const method = init.method ?? 'GET';
        calls.push({ url, method });
        const ok = (data: unknown) => new Response(JSON.stringify({ status: 'success', data }), { status: 200 });
        if (url.includes('/operators/invite')) {
          return ok({ operator: { ...OTHER, id: 'op-new', email: 'new@ops.test', active: false }, expires_at: '2026-01-03T00:00:00.000Z', message: 'Invitation sent to new@ops.test.' });
        }
        if (url.includes('/operators/op-other/disable')) return ok({ operator: { ...OTHER, disabled: true }, message: 'other@ops.test is disabled: signed out of 1 session, cannot sign in or use a link.' });
        return ok({ items: [ME, OTHER] });
      }),
    );
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    useOpsSession.getState().signOut();
  });

  const renderScreen = () =>
    render(
      <AppProviders queryClient={createQueryClient()}>
        <MemoryRouter>
          <OperatorsScreen />
        </MemoryRouter>
      </AppProviders>,
    );

  it('says where the invitation went, without any link', async () => {
    renderScreen();
    fireEvent.change(await screen.findByLabelText(/E-mail/), { target: { value: 'new@ops.test' } });
    fireEvent.click(screen.getByRole('button', { name: 'Invite' }));
    expect((await screen.findByRole('status')).textContent).toMatch(/^Invitation sent to new@ops\.test\./);
    expect(document.body.textContent).not.toMatch(/set-password|token=/);
  });

  it('offers to disable other operators, never yourself, after a confirmation', async () => {
    renderScreen();
    await screen.findByText('other@ops.test');
    expect(screen.queryByRole('button', { name: 'Disable me@ops.test' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Disable other@ops.test' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toMatch(/signed out of every session at once/);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Disable operator' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.url.endsWith('/api/v1/ops/operators/op-other/disable'))).toBe(true));
  });
});
