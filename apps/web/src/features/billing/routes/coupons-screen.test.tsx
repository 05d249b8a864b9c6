import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { AppProviders } from '../../../app/providers';
import { createQueryClient } from '../../../lib/query-client';
import { useSessionStore } from '../../../lib/session-store';
import { buildLogin } from '../../../test/fixtures';
import { answerFailed, answerOk as ok, stubApi } from '../../../test/render-app';
import { CouponsScreen } from './coupons-screen';

const redemption = (over: Record<string, unknown>) => ({
  id: 'r1',
  code: 'WELCOME500',
  kind: 'credits',
  value: 500,
  credits_granted: 500,
  invoice_number: null,
  discount: null,
  currency: null,
  redeemed_at: '2026-11-20T10:00:00.000Z',
  redeemed_by: { id: 'user-1', name: 'Olivia Owner', email: 'olivia@acme.test' },
  ...over,
});

function renderScreen() {
  render(
    <AppProviders queryClient={createQueryClient()}>
      <MemoryRouter>
        <CouponsScreen />
      </MemoryRouter>
    </AppProviders>,
  );
}

describe('CouponsScreen', () => {
  beforeEach(() => useSessionStore.getState().fillSession(buildLogin()));
  afterEach(() => {
    vi.unstubAllGlobals();
    useSessionStore.getState().logout();
  });

  it('lists the redeemed coupons: code, what each gave, when and by whom', async () => {
    stubApi({
      'GET /api/v1/coupon/history': ok({
        items: [
          redemption({ id: 'r2', code: 'SAVE10', kind: 'percent', value: 10, credits_granted: 0, invoice_number: 'INV-000012', discount: 4, currency: 'USD', redeemed_by: null }),
          redemption({}),
        ],
        total: 2,
        page: 1,
        limit: 25,
      }),
    });
    renderScreen();
    expect(screen.getByText('Loading...').textContent).toBe('Loading...');
    const table = await screen.findByRole('table', { name: 'Redeemed coupons' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('SAVE10').textContent).toBe('SAVE10');
    expect(within(rows[0]!).getByText('10% off INV-000012 (saved $4.00)').textContent).toBe('10% off INV-000012 (saved $4.00)');
    expect(within(rows[0]!).getByText('A former member').textContent).toBe('A former member');
    expect(within(rows[1]!).getByText('WELCOME500').textContent).toBe('WELCOME500');
    expect(within(rows[1]!).getByText('500 free credits').textContent).toBe('500 free credits');
    expect(within(rows[1]!).getByText('Olivia Owner (olivia@acme.test)').textContent).toBe('Olivia Owner (olivia@acme.test)');
    expect(rows[1]!.textContent).toMatch(/2026/);
  });

  it('says when no coupon was redeemed yet', async () => {
    stubApi({ 'GET /api/v1/coupon/history': ok({ items: [], total: 0, page: 1, limit: 25 }) });
    renderScreen();
    expect((await screen.findByText('No coupons redeemed yet')).textContent).toBe('No coupons redeemed yet');
    expect(screen.queryByRole('table', { name: 'Redeemed coupons' })).toBeNull();
  });

  it('shows a failure with its message', async () => {
    stubApi({ 'GET /api/v1/coupon/history': answerFailed(403, 'forbidden', 'Only the owner can see the coupons.') });
    renderScreen();
    expect((await screen.findByText('Only the owner can see the coupons.')).textContent).toBe('Only the owner can see the coupons.');
  });

  it('refreshes the list after a coupon is applied', async () => {
    let calls = 0;
    const history = ok({ items: [], total: 0, page: 1, limit: 25 });
    const applied = ok({ code: 'WELCOME500', kind: 'credits', message: '500 free credits were added to your balance.', credits_granted: 500, quote: null });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        const key = `${init.method ?? 'GET'} ${url.split('?')[0]}`;
        if (key === 'GET /api/v1/coupon/history') {
          calls += 1;
          const body = calls === 1 ? history.body : ok({ items: [redemption({})], total: 1, page: 1, limit: 25 }).body;
          return new Response(JSON.stringify(body), { status: 200 });
        }
        if (key === 'POST /api/v1/coupon/apply') return new Response(JSON.stringify(applied.body), { status: 200 });
        return new Response(JSON.stringify(answerFailed(404, 'not_found', 'Not found').body), { status: 404 });
      }),
    );
    renderScreen();
    expect((await screen.findByText('No coupons redeemed yet')).textContent).toBe('No coupons redeemed yet');
    fireEvent.change(screen.getByLabelText('Coupon code'), { target: { value: 'WELCOME500' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect((await screen.findByText('500 free credits were added to your balance.')).textContent).toBe('500 free credits were added to your balance.');
    expect((await screen.findByText('500 free credits')).textContent).toBe('500 free credits');
  });
});
