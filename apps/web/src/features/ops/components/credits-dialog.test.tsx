import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { AppProviders } from '../../../app/providers';
import { createQueryClient } from '../../../lib/query-client';
import { useOpsSession } from '../api/ops-session-store';
import { CreditsDialog } from './credits-dialog';

type TBody = { direction: string; amount: number; reason: string; idempotency_key: string };

describe('CreditsDialog', { timeout: 30_000 }, () => {
  const bodies: TBody[] = [];
  let failFirst = true;
  beforeEach(() => {
    bodies.length = 0;
    failFirst = true;
    useOpsSession.getState().signIn('vlo_token', { id: 'op', email: 'ops@example.test', name: 'Ops', active: true, disabled: false, created_at: '2026-01-01T00:00:00.000Z' });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit = {}) => {
        bodies.push(JSON.parse(String(init.body)) as TBody);
        if (failFirst) {
          failFirst = false;
          return new Response(JSON.stringify({ status: 'failed', error: { code: 'service_unavailable', message: 'Try again' } }), { status: 503 });
        }
        return new Response(JSON.stringify({ status: 'success', data: { id: 'adj', amount: -40, balance_after: 60, replayed: false } }), { status: 200 });
      }),
    );
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    useOpsSession.getState().signOut();
  });

  it('confirms the amount and the resulting balance, refuses more than the balance, and retries with the same key', async () => {
    const onClose = vi.fn();
    render(
      <AppProviders queryClient={createQueryClient()}>
        <MemoryRouter>
          <CreditsDialog orgId="org-1" orgName="Acme" balance={100} opened onClose={onClose} />
        </MemoryRouter>
      </AppProviders>,
    );
    fireEvent.click(await screen.findByText('Remove'));
    fireEvent.change(screen.getByLabelText('Credits'), { target: { value: '101' } });
    fireEvent.change(screen.getByLabelText(/Reason/), { target: { value: 'Duplicate grant' } });
    expect(await screen.findByText('At most 100 can be removed (the balance).')).toBeDefined();
    expect(screen.getByRole('button', { name: 'Review' }).hasAttribute('disabled')).toBe(true);

    fireEvent.change(screen.getByLabelText('Credits'), { target: { value: '40' } });
    fireEvent.click(screen.getByRole('button', { name: 'Review' }));
    expect((await screen.findByText(/Please confirm/)).textContent).toBe('Please confirm');
    expect(screen.getByText(/The balance goes from 100 to/).textContent).toContain('Remove 40 credits from Acme. The balance goes from 100 to 60.');

    fireEvent.click(screen.getByRole('button', { name: 'Remove 40 credits' }));
    expect(await screen.findByText('Try again')).toBeDefined();
    fireEvent.click(screen.getByRole('button', { name: 'Review' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Remove 40 credits' }));
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    expect(bodies).toHaveLength(2);
    expect(bodies[0]).toMatchObject({ direction: 'remove', amount: 40, reason: 'Duplicate grant' });
    expect(bodies[1]!.idempotency_key).toBe(bodies[0]!.idempotency_key);
  });
});
