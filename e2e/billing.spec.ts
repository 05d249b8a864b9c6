import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { closeWelcomeIfShown, DEMO_USERS, logInThroughForm, readStoredToken } from './support/session';

let token = '';

/** The owner's API headers (the page may be on the provider's pages). */
const api = () => ({ authorization: `Bearer ${token}`, 'x-app-version': '31.3.1' });
/** Any secret key: the fake Stripe answers its API and its test helpers with it. */
const STRIPE_HEADERS = { authorization: 'Bearer sk_test_e2e' };

/** The organisation's balance, read with the owner's token. */
async function readOrgCredits(request: APIRequestContext): Promise<number> {
  const res = await request.get('/api/v1/user/credits_and_limits', { headers: api() });
  const body = (await res.json()) as { data: { org_credits: number } };
  return body.data.org_credits;
}

let stripeBase: string | null = null;
/** Where the test-mode fake Stripe listens: the origin of the card set-up page the API hands out. */
async function fakeStripeBase(request: APIRequestContext): Promise<string> {
  if (!stripeBase) {
    const res = await request.post('/api/v1/payment/setup_intent/create', { headers: api() });
    const body = (await res.json()) as { data: { checkout_url: string } };
    stripeBase = new URL(body.data.checkout_url).origin;
  }
  return stripeBase;
}

/** The events the fake Stripe has sent, newest first. */
async function stripeEvents(request: APIRequestContext): Promise<{ id: string; type: string }[]> {
  const res = await request.get(`${await fakeStripeBase(request)}/v1/events`, { headers: STRIPE_HEADERS });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { data: { id: string; type: string }[] }).data;
}

type TLedgerRow = { id: string; kind: string; amount: number; reason: string; balance_after: number; object_type: string | null };

/** The newest rows of the organisation's credits ledger, newest first. */
async function readLedger(request: APIRequestContext): Promise<TLedgerRow[]> {
  const res = await request.get('/api/v1/user/credits_and_limits/transactions?page=1&limit=50', { headers: api() });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { data: { items: TLedgerRow[] } }).data.items;
}

type TMark = { ledger: string | null; stripeEvent: string | null };

/** Where the ledger and the fake Stripe's events stand before a purchase: what comes after belongs to the purchase. */
async function markBilling(request: APIRequestContext): Promise<TMark> {
  return { ledger: (await readLedger(request))[0]?.id ?? null, stripeEvent: (await stripeEvents(request))[0]?.id ?? null };
}

/** The items of a newest-first list that came after `mark` (the mark must still be among them). */
function after<T extends { id: string }>(items: T[], mark: string | null): T[] {
  if (!mark) return items;
  const at = items.findIndex((i) => i.id === mark);
  expect(at, 'the mark is among the newest rows').toBeGreaterThanOrEqual(0);
  return items.slice(0, at);
}

/**
 * Replays every event the fake Stripe sent after `mark` until the webhook endpoint answers each one as a duplicate
 * whose job has run. A duplicate queues no job, so the Stripe event jobs are then idle: a balance read afterwards sees
 * whatever those events (and their replays) would grant. Answers the events replayed.
 */
async function settleStripeEvents(request: APIRequestContext, mark: string | null): Promise<{ id: string; type: string }[]> {
  const base = await fakeStripeBase(request);
  const replayed: { id: string; type: string }[] = [];
  await expect(async () => {
    replayed.length = 0;
    for (const e of after(await stripeEvents(request), mark)) {
      const res = await request.post(`${base}/_fake/events/${e.id}/resend`);
      expect(res.status()).toBe(200);
      const answer = (await res.json()) as { endpoint_status: number | null; endpoint_response: { data?: unknown } | null };
      expect(answer.endpoint_status, `${e.type} ${e.id}`).toBe(200);
      expect(answer.endpoint_response?.data, `${e.type} ${e.id}`).toEqual({ received: true, duplicate: true, processed: true });
      replayed.push(e);
    }
  }).toPass({ timeout: 30_000 });
  return replayed;
}

/**
 * After a purchase (or a refused one), once its payment events are processed: the organisation's balance is `balance`
 * and the ledger has exactly the purchase rows `added` since `mark` (newest first; none for a refused payment), the
 * newest leaving that balance. The credits screen shows that row (unless `onScreen` is false: the page stays put).
 */
async function expectPurchases(page: Page, request: APIRequestContext, mark: TMark, balance: number, added: number[], { onScreen = true } = {}) {
  await settleStripeEvents(request, mark.stripeEvent);
  expect(await readOrgCredits(request)).toBe(balance);
  const purchases = after(await readLedger(request), mark.ledger).filter((r) => r.kind === 'purchase');
  expect(purchases.map((r) => r.amount)).toEqual(added);
  for (const row of purchases) expect(row).toMatchObject({ object_type: 'payment', reason: expect.stringMatching(/^Purchase INV-\d{6}$/) });
  if (!purchases[0]) return;
  expect(purchases[0].balance_after).toBe(balance);
  if (!onScreen) return;
  await page.goto('/account/credits');
  const row = page.getByRole('table', { name: 'Credit transactions' }).getByRole('row').filter({ hasText: purchases[0].reason });
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('transaction-amount')).toHaveText(`+${added[0]!.toLocaleString('en-US')}`);
  await expect(row).toContainText(balance.toLocaleString('en-US'));
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
    const before = await readOrgCredits(request);
    const mark = await markBilling(request);
    await startBuying(page, 5000, '$40.00');
    await page.getByRole('button', { name: /Visa 4242 4242 4242 4242/ }).click();
    await expect(page).toHaveURL(/\/payment\/thank-you\?payment_id=/);
    await expect(page.getByRole('heading', { name: 'Thank you!' })).toBeVisible();
    await expect(page.getByTestId('balance-after')).toHaveText(`Your balance is now ${(before + 5000).toLocaleString('en-US')} credits.`);
    // Reloading the thank-you page (it confirms again) grants nothing more.
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Thank you!' })).toBeVisible();
    await page.screenshot({ path: 'test-results/e2e/billing-thank-you.png' });
    await expectPurchases(page, request, mark, before + 5000, [5000]);
  });

  test('a declined card adds nothing and another card can then pay', async ({ page, request }) => {
    const before = await readOrgCredits(request);
    const mark = await markBilling(request);
    await startBuying(page, 2000, '$16.00');
    await page.getByRole('button', { name: /0002 \(declined\)/ }).click();
    await expect(page.getByRole('alert')).toHaveText('Your card was declined.');
    await expectPurchases(page, request, mark, before, []);
    await page.getByRole('button', { name: /Mastercard/ }).click();
    await expect(page.getByRole('heading', { name: 'Thank you!' })).toBeVisible();
    await expectPurchases(page, request, mark, before + 2000, [2000]);
  });

  test('a card that asks for authentication pays once it passes, and not when it fails', async ({ page, request }) => {
    const before = await readOrgCredits(request);
    const mark = await markBilling(request);
    await startBuying(page, 1000, '$8.00');
    await page.getByRole('button', { name: /authentication required/ }).click();
    await page.getByRole('button', { name: 'Fail authentication' }).click();
    // As on Stripe Checkout, the payer is back on the checkout page with the reason and can try again.
    await expect(page.getByRole('heading', { name: 'Pay USD 8.00' })).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: 'unable to authenticate' })).toBeVisible();
    await expectPurchases(page, request, mark, before, []);

    await page.getByRole('button', { name: /authentication required/ }).click();
    await page.getByRole('button', { name: 'Complete authentication' }).click();
    await expect(page.getByRole('heading', { name: 'Thank you!' })).toBeVisible();
    await expectPurchases(page, request, mark, before + 1000, [1000]);

    // The receipt is listed on the billing page.
    await page.goto('/account/billing');
    await page.getByRole('tab', { name: 'Receipts' }).click();
    await expect(page.getByRole('table', { name: 'Receipts' }).getByText('$8.00').first()).toBeVisible();
  });

  test('PayPal: an approved order is captured once; a declined one adds nothing', async ({ page, request }) => {
    const before = await readOrgCredits(request);
    const mark = await markBilling(request);
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
    await expectPurchases(page, request, mark, before + 3000, [3000]);

    await page.goto('/pricing?buy=1');
    await dialog.getByLabel('Credits').fill('1000');
    await expect(dialog.getByTestId('quote-total')).toHaveText('$8.00');
    await dialog.getByRole('button', { name: 'PayPal' }).click();
    await page.getByRole('button', { name: 'Pay with a card PayPal declines' }).click();
    await expect(page.getByRole('heading', { name: 'The payment did not go through' })).toBeVisible();
    await expect(page.getByText('PayPal declined the payment.', { exact: false })).toBeVisible();
    await expectPurchases(page, request, mark, before + 3000, [3000], { onScreen: false });
  });

  test('saves a card, subscribes to a plan with it, then cancels with a reason', async ({ page, request }) => {
    await page.goto('/account/billing');
    await closeWelcomeIfShown(page);
    // The fakes take the payments: the billing screen says so, not only the buy-credits window.
    await expect(page.getByText('Test mode')).toBeVisible();
    await page.getByRole('button', { name: 'Add a card' }).click();
    await expect(page.getByRole('heading', { name: 'Add a card' })).toBeVisible();
    await page.getByRole('button', { name: /Visa 4242 4242 4242 4242/ }).click();
    await expect(page).toHaveURL(/\/account\/billing/);
    await expect(page.getByRole('table', { name: 'Cards' }).getByText('4242')).toBeVisible();
    await expect(page.getByRole('table', { name: 'Cards' }).getByText('Default')).toBeVisible();
    await page.screenshot({ path: 'test-results/e2e/billing-screen.png', fullPage: true });

    const before = await readOrgCredits(request);
    const mark = await markBilling(request);
    await page.goto('/pricing');
    await expect(page.getByText('Test mode')).toBeVisible();
    // Issue 28: nothing is charged before the confirmation, which shows the amount.
    await page.getByRole('button', { name: 'Subscribe Starter (Monthly)' }).click();
    const confirm = page.getByRole('dialog', { name: 'Subscribe: Starter (Monthly)' });
    await expect(confirm.getByTestId('amount-due')).toHaveText('$48.00');
    await confirm.getByRole('button', { name: 'Pay $48.00' }).click();
    await expect(page.getByText('You are now on Starter. $48.00 charged.')).toBeVisible();
    await expect(page.getByText(/renews/)).toBeVisible();
    await page.screenshot({ path: 'test-results/e2e/billing-pricing.png', fullPage: true });
    await expectPurchases(page, request, mark, before + 10000, [10000]);

    await page.goto('/pricing');
    await page.getByRole('button', { name: 'Cancel subscription' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel subscription' });
    await dialog.getByRole('button', { name: 'Cancel subscription' }).click();
    await expect(dialog.getByText(/^Please tell us why you cancel/)).toBeVisible();
    await dialog.getByLabel('Why do you cancel?').fill('Too many credits for us');
    await dialog.getByRole('button', { name: 'Cancel subscription' }).click();
    await expect(page.getByText(/Subscription cancelled|It ends on/).first()).toBeVisible();
    // Cancelling adds and takes nothing.
    await expectPurchases(page, request, mark, before + 10000, [10000], { onScreen: false });
  });
});

/** Moves every test clock of the fake Stripe on by `days`, through Stripe's test-clock API (as a Stripe test does). */
async function advanceClocks(request: APIRequestContext, days: number) {
  const base = await fakeStripeBase(request);
  const clocks = (await (await request.get(`${base}/v1/test_helpers/test_clocks`, { headers: STRIPE_HEADERS })).json()) as { data: { id: string; frozen_time: number }[] };
  expect(clocks.data.length).toBeGreaterThan(0);
  for (const c of clocks.data) {
    const res = await request.post(`${base}/v1/test_helpers/test_clocks/${c.id}/advance`, { headers: STRIPE_HEADERS, form: { frozen_time: String(c.frozen_time + days * 86_400) } });
    expect(res.status()).toBe(200);
  }
}

test.describe('a subscription billed by Stripe, renewed by its test clock', () => {
  test.beforeEach(async ({ page }) => {
    await logInThroughForm(page, DEMO_USERS.owner);
    token = await readStoredToken(page);
  });

  test('subscribes, renews when the clock passes the period end, asks for authentication on a renewal, and cancels', async ({ page, request }) => {
    await page.goto('/account/billing');
    await closeWelcomeIfShown(page);
    const cards = page.getByRole('table', { name: 'Cards' });
    if (!(await cards.getByText('4242').first().isVisible().catch(() => false))) {
      await page.getByRole('button', { name: 'Add a card' }).click();
      await page.getByRole('button', { name: /Visa 4242 4242 4242 4242/ }).click();
      await expect(cards.getByText('4242').first()).toBeVisible();
    }

    const before = await readOrgCredits(request);
    const mark = await markBilling(request);
    await page.goto('/pricing');
    // Subscribing, or switching from the Starter plan an earlier test left set to end.
    await page.getByRole('button', { name: /^(Subscribe|Switch) Growth \(Monthly\)$/ }).click();
    const confirm = page.getByRole('dialog', { name: /Growth \(Monthly\)$/ });
    await confirm.getByRole('button', { name: /^Pay \$/ }).click();
    await expect(page.getByText(/^You are now on Growth\./)).toBeVisible();
    await expectPurchases(page, request, mark, before + 50000, [50000]);

    // A month passes on the test clock: Stripe bills the renewal, its invoice.paid webhook grants it once.
    await advanceClocks(request, 32);
    await expect.poll(() => readOrgCredits(request), { timeout: 20_000 }).toBe(before + 100000);
    await expectPurchases(page, request, mark, before + 100000, [50000, 50000]);
    await page.screenshot({ path: 'test-results/e2e/billing-renewed.png', fullPage: true });

    // Replayed, every event of these invoices (invoice.paid of both among them) is answered as a duplicate already
    // processed; with the event jobs idle, the balance and the ledger have not moved.
    const replayed = await settleStripeEvents(request, mark.stripeEvent);
    expect(replayed.filter((e) => e.type === 'invoice.paid').length).toBeGreaterThan(1);
    await expectPurchases(page, request, mark, before + 100000, [50000, 50000], { onScreen: false });

    // The owner makes a card that asks for authentication the default: the next renewal waits for the bank.
    await page.goto('/account/billing');
    await page.getByRole('button', { name: 'Add a card' }).click();
    await page.getByRole('button', { name: /authentication required/ }).click();
    const scaRow = cards.getByRole('row').filter({ hasText: '3184' }).first();
    await scaRow.getByRole('button', { name: 'Make default' }).click();
    await expect(scaRow.getByText('Default')).toBeVisible();
    await advanceClocks(request, 32);
    const prompt = page.getByRole('alert').filter({ hasText: 'Your bank asks you to confirm a payment' });
    await expect(async () => {
      await page.reload();
      await expect(prompt).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
    await expect(prompt).toContainText('subscription renewal of $240.00');
    // Waiting for the bank, the renewal has granted nothing.
    await expectPurchases(page, request, mark, before + 100000, [50000, 50000], { onScreen: false });
    await page.screenshot({ path: 'test-results/e2e/billing-authentication-prompt.png', fullPage: true });
    await prompt.getByRole('link', { name: 'Confirm payment' }).click();
    await page.getByRole('link', { name: 'Authenticate payment' }).click();
    await page.getByRole('button', { name: 'Complete authentication' }).click();
    await expect(page.getByText('This invoice is paid. Thank you!')).toBeVisible();
    await expect.poll(() => readOrgCredits(request), { timeout: 20_000 }).toBe(before + 150000);
    await expectPurchases(page, request, mark, before + 150000, [50000, 50000, 50000]);

    // Cancelled, the plan runs to the end of the paid period, then Stripe ends it: no more renewals.
    await page.goto('/pricing');
    await page.getByRole('button', { name: 'Cancel subscription' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel subscription' });
    await dialog.getByLabel('Why do you cancel?').fill('Testing renewals');
    await dialog.getByRole('button', { name: 'Cancel subscription' }).click();
    await expect(page.getByText(/It ends on/).first()).toBeVisible();
    await advanceClocks(request, 40);
    await expect
      .poll(async () => ((await (await request.get('/api/v1/user/current_plan', { headers: api() })).json()) as { data: { interval: string } }).data.interval, { timeout: 20_000 })
      .toBe('free');
    await expectPurchases(page, request, mark, before + 150000, [50000, 50000, 50000]);
  });
});
