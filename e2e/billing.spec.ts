import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { closeWelcomeIfShown, DEMO_USERS, logInThroughForm, readStoredToken } from './support/session';

let token = '';

/** The organisation's balance, read with the owner's token (the page may be on the provider's checkout page). */
async function readOrgCredits(_page: Page, request: APIRequestContext): Promise<number> {
  const res = await request.get('/api/v1/user/credits_and_limits', { headers: { authorization: `Bearer ${token}`, 'x-app-version': '31.3.1' } });
  const body = (await res.json()) as { data: { org_credits: number } };
  return body.data.org_credits;
}

/** Opens the buy-credits modal from the header, asks for `credits` in USD and goes to the checkout page. */
async function startBuying(page: Page, credits: number, total: string) {
  await page.goto('/');
  await closeWelcomeIfShown(page);
  await page.getByRole('link', { name: 'Add credits' }).click();
  const dialog = page.getByRole('dialog', { name: 'Buy credits' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText('Test mode')).toBeVisible();
  await dialog.getByLabel('Credits').fill(String(credits));
  await expect(dialog.getByTestId('quote-total')).toHaveText(total);
  await dialog.getByRole('button', { name: `Pay ${total}` }).click();
  await expect(page.getByRole('heading', { name: `Pay USD ${total.replace('$', '')}` })).toBeVisible();
}

test.describe('buying credits with the test cards', () => {
  test.beforeEach(async ({ page }) => {
    await logInThroughForm(page, DEMO_USERS.owner);
    token = await readStoredToken(page);
  });

  test('a card that succeeds adds the credits once', async ({ page, request }) => {
    const before = await readOrgCredits(page, request);
    await startBuying(page, 5000, '$40.00');
    await page.getByRole('button', { name: /Visa 4242 4242 4242 4242/ }).click();
    await expect(page).toHaveURL(/\/payment\/thank-you\?payment_id=/);
    await expect(page.getByRole('heading', { name: 'Thank you!' })).toBeVisible();
    await expect(page.getByTestId('balance-after')).toHaveText(`Your balance is now ${(before + 5000).toLocaleString('en-US')} credits.`);
    // Reloading the thank-you page (it confirms again) grants nothing more.
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Thank you!' })).toBeVisible();
    expect(await readOrgCredits(page, request)).toBe(before + 5000);
    await page.screenshot({ path: 'test-results/e2e/billing-thank-you.png' });
  });

  test('a declined card adds nothing and another card can then pay', async ({ page, request }) => {
    const before = await readOrgCredits(page, request);
    await startBuying(page, 2000, '$16.00');
    await page.getByRole('button', { name: /0002 \(declined\)/ }).click();
    await expect(page.getByRole('alert')).toHaveText('Your card was declined.');
    expect(await readOrgCredits(page, request)).toBe(before);
    await page.getByRole('button', { name: /Mastercard/ }).click();
    await expect(page.getByRole('heading', { name: 'Thank you!' })).toBeVisible();
    expect(await readOrgCredits(page, request)).toBe(before + 2000);
  });

  test('a card that asks for authentication pays once it passes, and not when it fails', async ({ page, request }) => {
    const before = await readOrgCredits(page, request);
    await startBuying(page, 1000, '$8.00');
    await page.getByRole('button', { name: /authentication required/ }).click();
    await page.getByRole('button', { name: 'Fail authentication' }).click();
    // As on Stripe Checkout, the payer is back on the checkout page with the reason and can try again.
    await expect(page.getByRole('heading', { name: 'Pay USD 8.00' })).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: 'unable to authenticate' })).toBeVisible();
    expect(await readOrgCredits(page, request)).toBe(before);

    await page.getByRole('button', { name: /authentication required/ }).click();
    await page.getByRole('button', { name: 'Complete authentication' }).click();
    await expect(page.getByRole('heading', { name: 'Thank you!' })).toBeVisible();
    expect(await readOrgCredits(page, request)).toBe(before + 1000);

    // The receipt is listed on the billing page.
    await page.goto('/account/billing');
    await page.getByRole('tab', { name: 'Receipts' }).click();
    await expect(page.getByRole('table', { name: 'Receipts' }).getByText('$8.00').first()).toBeVisible();
  });

  test('PayPal: an approved order is captured once; a declined one adds nothing', async ({ page, request }) => {
    const before = await readOrgCredits(page, request);
    await page.goto('/pricing?buy=1');
    await closeWelcomeIfShown(page);
    const dialog = page.getByRole('dialog', { name: 'Buy credits' });
    await dialog.getByLabel('Credits').fill('3000');
    await expect(dialog.getByTestId('quote-total')).toHaveText('$24.00');
    await dialog.getByRole('button', { name: 'PayPal' }).click();
    await expect(page.getByRole('heading', { name: 'Pay USD 24.00 with PayPal' })).toBeVisible();
    await page.getByRole('button', { name: 'Pay with PayPal balance' }).click();
    await expect(page.getByRole('heading', { name: 'Thank you!' })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Thank you!' })).toBeVisible();
    expect(await readOrgCredits(page, request)).toBe(before + 3000);

    await page.goto('/pricing?buy=1');
    await dialog.getByLabel('Credits').fill('1000');
    await expect(dialog.getByTestId('quote-total')).toHaveText('$8.00');
    await dialog.getByRole('button', { name: 'PayPal' }).click();
    await page.getByRole('button', { name: 'Pay with a card PayPal declines' }).click();
    await expect(page.getByRole('heading', { name: 'The payment did not go through' })).toBeVisible();
    await expect(page.getByText('PayPal declined the payment.', { exact: false })).toBeVisible();
    expect(await readOrgCredits(page, request)).toBe(before + 3000);
  });

  test('saves a card, subscribes to a plan with it, then cancels with a reason', async ({ page, request }) => {
    await page.goto('/account/billing');
    await closeWelcomeIfShown(page);
    await page.getByRole('button', { name: 'Add a card' }).click();
    await expect(page.getByRole('heading', { name: 'Add a card' })).toBeVisible();
    await page.getByRole('button', { name: /Visa 4242 4242 4242 4242/ }).click();
    await expect(page).toHaveURL(/\/account\/billing/);
    await expect(page.getByRole('table', { name: 'Cards' }).getByText('4242')).toBeVisible();
    await expect(page.getByRole('table', { name: 'Cards' }).getByText('Default')).toBeVisible();
    await page.screenshot({ path: 'test-results/e2e/billing-screen.png', fullPage: true });

    const before = await readOrgCredits(page, request);
    await page.goto('/pricing');
    await page.getByRole('button', { name: 'Subscribe to Starter (Monthly)' }).click();
    await expect(page.getByText('You are now on Starter (Monthly).')).toBeVisible();
    expect(await readOrgCredits(page, request)).toBe(before + 10000);
    await expect(page.getByText(/renews/)).toBeVisible();
    await page.screenshot({ path: 'test-results/e2e/billing-pricing.png', fullPage: true });

    await page.getByRole('button', { name: 'Cancel subscription' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel subscription' });
    await dialog.getByRole('button', { name: 'Cancel subscription' }).click();
    await expect(dialog.getByText(/^Please tell us why you cancel/)).toBeVisible();
    await dialog.getByLabel('Why do you cancel?').fill('Too many credits for us');
    await dialog.getByRole('button', { name: 'Cancel subscription' }).click();
    await expect(page.getByText(/Subscription cancelled|It ends on/).first()).toBeVisible();
  });
});

/** The owner's API headers (the page may be on the provider's pages). */
const api = () => ({ authorization: `Bearer ${token}`, 'x-app-version': '31.3.1' });

/** Where the test-mode fake Stripe listens: the origin of the card set-up page the API hands out. */
async function fakeStripeBase(request: APIRequestContext): Promise<string> {
  const res = await request.post('/api/v1/payment/setup_intent/create', { headers: api() });
  const body = (await res.json()) as { data: { checkout_url: string } };
  return new URL(body.data.checkout_url).origin;
}

/** Moves every test clock of the fake Stripe on by `days`, through Stripe's test-clock API (as a Stripe test does). */
async function advanceClocks(request: APIRequestContext, base: string, days: number) {
  const headers = { authorization: 'Bearer sk_test_e2e' };
  const clocks = (await (await request.get(`${base}/v1/test_helpers/test_clocks`, { headers })).json()) as { data: { id: string; frozen_time: number }[] };
  expect(clocks.data.length).toBeGreaterThan(0);
  for (const c of clocks.data) {
    const res = await request.post(`${base}/v1/test_helpers/test_clocks/${c.id}/advance`, { headers, form: { frozen_time: String(c.frozen_time + days * 86_400) } });
    expect(res.status()).toBe(200);
  }
}

/** The credits page shows `balance` as the organisation's credits and a ledger row adding `added` that leaves that balance. */
async function expectLedger(page: Page, balance: number, added: number) {
  await page.goto('/account/credits');
  const shown = balance.toLocaleString('en-US');
  await expect(page.getByText(shown, { exact: true }).first()).toBeVisible();
  const table = page.getByRole('table', { name: 'Credit transactions' });
  await expect(table.getByRole('row').filter({ hasText: `+${added.toLocaleString('en-US')}` }).filter({ hasText: shown }).first()).toBeVisible();
}

test.describe('a subscription billed by Stripe, renewed by its test clock', () => {
  test.beforeEach(async ({ page }) => {
    await logInThroughForm(page, DEMO_USERS.owner);
    token = await readStoredToken(page);
  });

  test('subscribes, renews when the clock passes the period end, asks for authentication on a renewal, and cancels', async ({ page, request }) => {
    const base = await fakeStripeBase(request);
    await page.goto('/account/billing');
    await closeWelcomeIfShown(page);
    const cards = page.getByRole('table', { name: 'Cards' });
    if (!(await cards.getByText('4242').first().isVisible().catch(() => false))) {
      await page.getByRole('button', { name: 'Add a card' }).click();
      await page.getByRole('button', { name: /Visa 4242 4242 4242 4242/ }).click();
      await expect(cards.getByText('4242').first()).toBeVisible();
    }

    const before = await readOrgCredits(page, request);
    await page.goto('/pricing');
    await page.getByRole('button', { name: 'Subscribe to Growth (Monthly)' }).click();
    await expect(page.getByText('You are now on Growth (Monthly).')).toBeVisible();
    expect(await readOrgCredits(page, request)).toBe(before + 50000);
    await expectLedger(page, before + 50000, 50000);

    // A month passes on the test clock: Stripe bills the renewal, its invoice.paid webhook grants it once.
    await advanceClocks(request, base, 32);
    await expect.poll(() => readOrgCredits(page, request), { timeout: 20_000 }).toBe(before + 100000);
    await expectLedger(page, before + 100000, 50000);
    await page.screenshot({ path: 'test-results/e2e/billing-renewed.png', fullPage: true });

    // Replayed, the invoice.paid events grant nothing.
    const paid = (await (await request.get(`${base}/v1/events?type=invoice.paid`, { headers: { authorization: 'Bearer sk_test_e2e' } })).json()) as { data: { id: string }[] };
    expect(paid.data.length).toBeGreaterThan(1);
    for (const e of paid.data) expect((await request.post(`${base}/_fake/events/${e.id}/resend`)).status()).toBe(204);
    expect(await readOrgCredits(page, request)).toBe(before + 100000);

    // The owner makes a card that asks for authentication the default: the next renewal waits for the bank.
    await page.goto('/account/billing');
    await page.getByRole('button', { name: 'Add a card' }).click();
    await page.getByRole('button', { name: /authentication required/ }).click();
    const scaRow = cards.getByRole('row').filter({ hasText: '3184' }).first();
    await scaRow.getByRole('button', { name: 'Make default' }).click();
    await expect(scaRow.getByText('Default')).toBeVisible();
    await advanceClocks(request, base, 32);
    const prompt = page.getByRole('alert').filter({ hasText: 'Your bank asks you to confirm a payment' });
    await expect(async () => {
      await page.reload();
      await expect(prompt).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
    await expect(prompt).toContainText('subscription renewal of $240.00');
    expect(await readOrgCredits(page, request)).toBe(before + 100000);
    await page.screenshot({ path: 'test-results/e2e/billing-authentication-prompt.png', fullPage: true });
    await prompt.getByRole('link', { name: 'Confirm payment' }).click();
    await page.getByRole('link', { name: 'Authenticate payment' }).click();
    await page.getByRole('button', { name: 'Complete authentication' }).click();
    await expect(page.getByText('This invoice is paid. Thank you!')).toBeVisible();
    await expect.poll(() => readOrgCredits(page, request), { timeout: 20_000 }).toBe(before + 150000);
    await expectLedger(page, before + 150000, 50000);

    // Cancelled, the plan runs to the end of the paid period, then Stripe ends it: no more renewals.
    await page.goto('/pricing');
    await page.getByRole('button', { name: 'Cancel subscription' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel subscription' });
    await dialog.getByLabel('Why do you cancel?').fill('Testing renewals');
    await dialog.getByRole('button', { name: 'Cancel subscription' }).click();
    await expect(page.getByText(/It ends on/).first()).toBeVisible();
    await advanceClocks(request, base, 40);
    await expect
      .poll(async () => ((await (await request.get('/api/v1/user/current_plan', { headers: api() })).json()) as { data: { interval: string } }).data.interval, { timeout: 20_000 })
      .toBe('free');
    expect(await readOrgCredits(page, request)).toBe(before + 150000);
  });
});
