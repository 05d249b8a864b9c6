import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { AppProviders } from '../../../app/providers';
import { createQueryClient } from '../../../lib/query-client';
import { useSessionStore } from '../../../lib/session-store';
import { buildLogin } from '../../../test/fixtures';
import { answerOk as ok, stubApi } from '../../../test/render-app';
import { BillingScreen } from './billing-screen';
import { PricingScreen } from './pricing-screen';

const info = (over: Record<string, unknown>) =>
  ok({ configured: true, test_mode: false, providers: ['stripe', 'paypal'], currencies: ['USD', 'INR'], min_credit: 1000, max_credit: 10000000, tax_percent: { USD: 0, INR: 18 }, has_card: false, balance: 5, ...over });
const empty = ok({ items: [], total: 0 });

function renderScreen(screenElement: React.ReactElement) {
  render(
    <AppProviders queryClient={createQueryClient()}>
      <MemoryRouter>{screenElement}</MemoryRouter>
    </AppProviders>,
  );
}

// The payment mode on /pricing and /account/billing, not only in the buy-credits window.
describe('the payment mode on the pricing and billing screens', () => {
  beforeEach(() => useSessionStore.getState().fillSession(buildLogin()));
  afterEach(() => {
    vi.unstubAllGlobals();
    useSessionStore.getState().logout();
  });

  it('says "Test mode" on /account/billing and /pricing when the test providers take the payments', async () => {
    stubApi({ 'GET /api/v1/payment/buyCredits': info({ test_mode: true }), 'GET /api/v1/payment/cards': ok({ items: [], default_card: null }), 'GET /api/v1/invoice/pending_list': empty, 'GET /api/v1/invoice/list': empty });
    renderScreen(<BillingScreen />);
    expect((await screen.findByText('Test mode')).textContent).toBe('Test mode');
    expect((screen.getByRole('button', { name: 'Add a card' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('says "Test mode" on /pricing', async () => {
    stubApi({ 'GET /api/v1/payment/buyCredits': info({ test_mode: true }), 'GET /api/v1/invoice/pending_list': empty });
    renderScreen(<PricingScreen />);
    expect((await screen.findByText('Test mode')).textContent).toBe('Test mode');
  });

  it('says nothing about the mode with live payments', async () => {
    stubApi({ 'GET /api/v1/payment/buyCredits': info({}), 'GET /api/v1/payment/cards': ok({ items: [], default_card: null }), 'GET /api/v1/invoice/pending_list': empty, 'GET /api/v1/invoice/list': empty });
    renderScreen(<BillingScreen />);
    expect((await screen.findByText('No saved cards')).textContent).toBe('No saved cards');
    expect(screen.queryByText('Test mode')).toBeNull();
    expect(screen.queryByText('Payments are not configured')).toBeNull();
  });

  it('says payments are not configured, and offers no card to add, when no provider can take a payment', async () => {
    stubApi({
      'GET /api/v1/payment/buyCredits': info({ configured: false, providers: [] }),
      'GET /api/v1/payment/cards': ok({ items: [], default_card: null }),
      'GET /api/v1/invoice/pending_list': empty,
      'GET /api/v1/invoice/list': empty,
    });
    renderScreen(<BillingScreen />);
    expect((await screen.findByText('Payments are not configured')).textContent).toBe('Payments are not configured');
    expect(screen.queryByText('Test mode')).toBeNull();
    expect((screen.getByRole('button', { name: 'Add a card' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('says payments are not configured on /pricing', async () => {
    stubApi({ 'GET /api/v1/payment/buyCredits': info({ configured: false, providers: [] }), 'GET /api/v1/invoice/pending_list': empty });
    renderScreen(<PricingScreen />);
    expect((await screen.findByText('Payments are not configured')).textContent).toBe('Payments are not configured');
  });
});
