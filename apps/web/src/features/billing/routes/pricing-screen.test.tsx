import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import type { TPlan } from '@verilead/contracts';
import { AppProviders } from '../../../app/providers';
import { createQueryClient } from '../../../lib/query-client';
import { useSessionStore } from '../../../lib/session-store';
import { buildLogin } from '../../../test/fixtures';
import { answerOk as ok, stubApi } from '../../../test/render-app';
import { PricingScreen } from './pricing-screen';

const plan = (id: string, name: string, interval: TPlan['interval'], price: number, credits: number): TPlan => ({ id, name, interval, currency: 'USD', price, credits, seats: 1 });

function renderPricing(plans: TPlan[], slabs: unknown[] = []) {
  stubApi({
    'GET /api/v1/payment/buyCredits': ok({ configured: true, test_mode: false, providers: ['stripe'], currencies: ['USD'], min_credit: 1000, max_credit: 10000000, tax_percent: { USD: 0, INR: 18 }, has_card: false, balance: 5 }),
    'GET /api/v1/price/slab': ok({ currency: 'USD', min_credit: 1000, slabs }),
    'GET /api/v1/price/products': ok({ items: plans }),
    'GET /api/v1/invoice/pending_list': ok({ items: [], total: 0 }),
  });
  render(
    <AppProviders queryClient={createQueryClient()}>
      <MemoryRouter>
        <PricingScreen />
      </MemoryRouter>
    </AppProviders>,
  );
}

// Issue 28 point 17: the pricing screen said "Annual plans are 20% cheaper" while an annual plan cost 12 × monthly.
describe('what /pricing says annual plans save', () => {
  beforeEach(() => useSessionStore.getState().fillSession(buildLogin()));
  afterEach(() => {
    vi.unstubAllGlobals();
    useSessionStore.getState().logout();
  });

  it('claims no discount when an annual plan costs twelve monthly payments for twelve months of credits', async () => {
    renderPricing([plan('s-m', 'Starter', 'monthly', 48, 10_000), plan('s-a', 'Starter', 'annual', 576, 120_000), plan('p', '10k credits', 'one_time', 60, 10_000)]);
    expect(await screen.findByText('Annual plans cost the same per credit as paying monthly.')).toBeInstanceOf(HTMLElement);
    expect(screen.queryByText(/cheaper/)).toBeNull();
  });

  it('states the real saving computed from the prices when annual is cheaper', async () => {
    renderPricing([plan('s-m', 'Starter', 'monthly', 50, 10_000), plan('s-a', 'Starter', 'annual', 510, 120_000), plan('g-m', 'Growth', 'monthly', 200, 50_000), plan('g-a', 'Growth', 'annual', 2_400, 600_000)]);
    expect(await screen.findByText('Annual plans are up to 15% cheaper per credit than paying monthly.')).toBeInstanceOf(HTMLElement);
  });

  it('says nothing about annual plans when none has a monthly counterpart', async () => {
    renderPricing([plan('p', '10k credits', 'one_time', 60, 10_000)]);
    expect(await screen.findByText('10k credits')).toBeInstanceOf(HTMLElement);
    expect(screen.queryByText(/Annual plans/)).toBeNull();
  });
});

describe('how /pricing lays out the plans and prices', () => {
  beforeEach(() => useSessionStore.getState().fillSession(buildLogin()));
  afterEach(() => {
    vi.unstubAllGlobals();
    useSessionStore.getState().logout();
  });

  it('orders plans monthly, annual, then one-time, cheapest first, each price with its period', async () => {
    renderPricing([
      plan('s', 'Starter', 'monthly', 48, 10_000),
      plan('o', '10k credits', 'one_time', 60, 10_000),
      plan('g', 'Growth', 'monthly', 240, 50_000),
      plan('sa', 'Starter', 'annual', 576, 120_000),
      plan('ga', 'Growth', 'annual', 2880, 600_000),
    ]);
    await screen.findByText('10k credits');
    expect(screen.getAllByTestId('plan-price').map((e) => e.textContent)).toEqual(['$48.00 / month', '$240.00 / month', '$576.00 / year', '$2,880.00 / year', '$60.00 once']);
  });

  it('shows a price per credit as money, with its symbol', async () => {
    renderPricing([], [{ id: 'a', currency: 'USD', min_credits: 1000, max_credits: 9999, unit_price: 0.008, kind: 'standard', bonus_percent: 0 }]);
    expect((await screen.findByTestId('slab-unit-price')).textContent).toBe('$0.008');
  });
});
