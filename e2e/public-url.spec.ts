import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { MAIN_PORT } from './playwright.config';
import { startOwnServer } from './support/own-server';
import { closeWelcomeIfShown, DEMO_USERS, logInThroughForm } from './support/session';

// Its own server with no PUBLIC_URL, opened at 127.0.0.1: every return page (a payment, Mailchimp's consent) and the
// API's base URL follow the address the app was opened at, so the person comes back to the origin holding the session.
const PORT = MAIN_PORT + 26;
const BASE = `http://127.0.0.1:${PORT}`;
const root = join(import.meta.dirname, '..');

let server: ChildProcess;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  server = await startOwnServer(PORT, { PUBLIC_URL: '', PROSPECT_DEMO_DIRECTORY: 'false' }); // no directory needed here
});

test.afterAll(() => {
  server?.kill('SIGTERM');
});

test.use({ baseURL: BASE });

test('the API page and the API reference show one base URL: the address the app was opened at', async ({ page }) => {
  await logInThroughForm(page, DEMO_USERS.owner);
  await page.goto('/developer/api');
  await closeWelcomeIfShown(page);
  // Opening the page creates no app: the token is asked for.
  await page.getByRole('button', { name: 'Create my API token' }).click();
  await expect(page.getByTestId('default-token')).toHaveText(/^vla_/);
  await expect(page.getByTestId('api-base-url')).toHaveText(`${BASE}/v2`);
  await page.goto('/developer/reference');
  await expect(page.getByTestId('reference-base-url')).toHaveText(`${BASE}/v2`);
});

test('a card payment returns to 127.0.0.1 with the session: the thank-you page, not the log-in page', async ({ page }) => {
  await logInThroughForm(page, DEMO_USERS.owner);
  await page.goto('/');
  await closeWelcomeIfShown(page);
  await page.getByRole('link', { name: 'Add credits' }).click();
  const dialog = page.getByRole('dialog', { name: 'Buy credits' });
  await dialog.getByLabel('Credits').fill('5000');
  await expect(dialog.getByTestId('quote-total')).toHaveText('$40.00');
  await dialog.getByRole('button', { name: 'Pay $40.00' }).click();
  await expect(page.getByRole('heading', { name: 'Pay USD 40.00' })).toBeVisible();
  await page.getByRole('button', { name: /Visa 4242 4242 4242 4242/ }).click();
  await expect(page).toHaveURL((u) => u.origin === BASE && u.pathname === '/payment/thank-you');
  await expect(page.getByRole('heading', { name: 'Thank you!' })).toBeVisible();
  await page.screenshot({ path: join(root, 'test-results/e2e/public-url-thank-you.png') });
});

test("Mailchimp's consent returns to 127.0.0.1 and the account is connected", async ({ page }) => {
  await logInThroughForm(page, DEMO_USERS.owner);
  await page.goto('/integrations/mailchimp/connect');
  await closeWelcomeIfShown(page);
  const oauth = page.getByTestId('oauth-connect');
  await oauth.getByLabel('Account name').fill('Back home');
  await oauth.getByRole('button', { name: 'Connect with Mailchimp' }).click();
  // The server's own test-mode fake of Mailchimp's consent page.
  await expect(page).toHaveURL((u) => u.pathname === '/oauth2/authorize');
  await page.getByRole('button', { name: 'Allow' }).click();
  await expect(page).toHaveURL((u) => u.origin === BASE && u.pathname === '/integrations/mailchimp', { timeout: 30_000 });
  await expect(page.getByTestId('remote-lists')).toContainText('Demo audience');
});
