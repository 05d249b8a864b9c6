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
    await expect(page.getByRole('heading', { name: 'The payment did not go through' })).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: 'unable to authenticate' })).toBeVisible();
    expect(await readOrgCredits(page, request)).toBe(before);

    await startBuying(page, 1000, '$8.00');
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
