import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { AppProviders } from '../../../app/providers';
import { createQueryClient } from '../../../lib/query-client';
import { useSessionStore } from '../../../lib/session-store';
import { buildLogin } from '../../../test/fixtures';
import { answerOk as ok, stubApi } from '../../../test/render-app';
import { BuyCreditsModal } from './buy-credits-modal';

const quote = { currency: 'INR', credits: 1000, bonus_credits: 0, kind: 'standard', unit_price: 0.6, subtotal: 600, discount: 0, tax: 108, tax_percent: 18, total: 708, coupon_code: null };

describe('BuyCreditsModal', () => {
  beforeEach(() => useSessionStore.getState().fillSession(buildLogin()));
  afterEach(() => {
    vi.unstubAllGlobals();
    useSessionStore.getState().logout();
  });

  it('says test mode, prices the credits with tax, and keeps a bad number on its field', async () => {
    stubApi({
      'GET /api/v1/payment/buyCredits': ok({ configured: true, test_mode: true, providers: ['stripe', 'paypal'], currencies: ['USD', 'INR'], min_credit: 1000, max_credit: 10000000, tax_percent: { USD: 0, INR: 18 }, has_card: false, balance: 5 }),
      'GET /api/v1/price': ok(quote),
    });
    render(
      <AppProviders queryClient={createQueryClient()}>
        <MemoryRouter>
          <BuyCreditsModal opened onClose={() => undefined} initialCredits={1000} />
        </MemoryRouter>
      </AppProviders>,
    );
    expect((await screen.findByText('Test mode')).textContent).toBe('Test mode');
    expect((await screen.findByTestId('quote-total')).textContent).toBe('₹708.00');
    expect(screen.getByTestId('quote-total').textContent).toContain('708.00');
    expect(screen.getByText('Tax (18%)').textContent).toBe('Tax (18%)');
    fireEvent.change(screen.getByLabelText('Credits'), { target: { value: '10' } });
    await waitFor(() => expect(screen.getByText('Enter between 1,000 and 10,000,000 credits').textContent).toBe('Enter between 1,000 and 10,000,000 credits'));
    expect((screen.getByRole('button', { name: 'Pay' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('says payments are not configured and offers no way to pay when no provider can take a payment', async () => {
    stubApi({
      'GET /api/v1/payment/buyCredits': ok({ configured: false, test_mode: false, providers: [], currencies: ['USD', 'INR'], min_credit: 1000, max_credit: 10000000, tax_percent: { USD: 0, INR: 18 }, has_card: false, balance: 5 }),
      'GET /api/v1/price': ok({ ...quote, currency: 'USD', subtotal: 8, tax: 0, tax_percent: 0, total: 8 }),
    });
    render(
      <AppProviders queryClient={createQueryClient()}>
        <MemoryRouter>
          <BuyCreditsModal opened onClose={() => undefined} initialCredits={1000} />
        </MemoryRouter>
      </AppProviders>,
    );
    expect((await screen.findByText('Payments are not configured')).textContent).toBe('Payments are not configured');
    expect((await screen.findByTestId('quote-total')).textContent).toBe('$8.00');
    expect((screen.getByRole('button', { name: 'Pay $8.00' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'PayPal' })).toBeNull();
    expect(screen.queryByText('Test mode')).toBeNull();
  });

  it('an unknown coupon keeps the price without it on screen, its error on the coupon field, and the button its amount', async () => {
    const info = { configured: true, test_mode: true, providers: ['stripe'], currencies: ['USD', 'INR'], min_credit: 1000, max_credit: 10000000, tax_percent: { USD: 0, INR: 18 }, has_card: false, balance: 5 };
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        const u = new URL(url, 'http://x');
        if (u.pathname === '/api/v1/payment/buyCredits') return new Response(JSON.stringify({ status: 'success', data: info }), { status: 200 });
        if (u.searchParams.get('coupon_code')) {
          return new Response(JSON.stringify({ status: 'failed', error: { code: 'validation_failed', message: 'This coupon code does not exist', reasons: [{ field: 'coupon_code', location: 'query', messages: ['This coupon code does not exist'] }] } }), { status: 400 });
        }
        return new Response(JSON.stringify({ status: 'success', data: quote }), { status: 200 });
      }),
    );
    render(
      <AppProviders queryClient={createQueryClient()}>
        <MemoryRouter>
          <BuyCreditsModal opened onClose={() => undefined} initialCredits={1000} />
        </MemoryRouter>
      </AppProviders>,
    );
    expect((await screen.findByTestId('quote-total')).textContent).toContain('708.00');
    fireEvent.change(screen.getByLabelText('Coupon code (optional)'), { target: { value: 'NOSUCH' } });
    expect((await screen.findByText('This coupon code does not exist')).textContent).toBe('This coupon code does not exist');
    expect(screen.getByTestId('quote-total').textContent).toContain('708.00');
    const pay = screen.getByRole('button', { name: /^Pay / }) as HTMLButtonElement;
    expect(pay.textContent).toContain('708.00');
    expect(pay.disabled).toBe(true);
  });
});
