import { expect, test } from '@playwright/test';
import { waitForMailLink } from './support/mail-catcher';
import { logInThroughForm, uniqueEmail } from './support/session';

test('an owner chooses the data retention, exports the organisation data and deletes the organisation', async ({ page }) => {
  const email = uniqueEmail('privacy');
  const password = 'Str0ng-Passw0rd!';
  const signup = await page.request.post('/api/v1/user/signup', {
    headers: { 'x-app-version': '31.3.1' },
    data: { name: 'Pat Privacy', email, password, signup_source: 'search_engines' },
  });
  expect(signup.status()).toBe(200);
  const link = await waitForMailLink(email, '/emailverification?token=');
  await page.goto(link.replace(/^https?:\/\/[^/]+/, ''));
  // Signed up through the API (no sign-up key in this browser): the link verifies and asks to log in.
  await expect(page.getByText(`${email} is verified. Log in to start verifying.`)).toBeVisible();
  await logInThroughForm(page, email, password);

  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto('/settings');
  await expect(page.getByRole('combobox', { name: 'Keep uploaded files and exports for' })).toHaveValue('30 days');
  await page.getByRole('combobox', { name: 'Keep verification results for' }).click();
  await page.getByRole('option', { name: '180 days' }).click();
  await page.getByRole('button', { name: 'Save retention' }).click();
  await expect(page.getByText('Retention saved')).toBeVisible();
  await page.screenshot({ path: 'test-results/privacy-settings-1366.png', fullPage: true });
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Keep verification results for' })).toHaveValue('180 days');

  await page.getByRole('button', { name: 'Export all data' }).click();
  await expect(page.getByRole('link', { name: 'organisation-data.jsonl' })).toBeVisible();

  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: 'test-results/privacy-settings-375.png', fullPage: true });

  await page.getByRole('button', { name: 'Delete organisation' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete the organisation' });
  await dialog.getByLabel('Type the organisation name').fill('Wrong name');
  await dialog.getByLabel('Your password').fill(password);
  await dialog.getByRole('button', { name: 'Delete for good' }).click();
  await expect(dialog.getByText('This is not the organisation name')).toBeVisible();
  await page.screenshot({ path: 'test-results/privacy-delete-375.png' });
  await dialog.getByLabel('Type the organisation name').fill("Pat Privacy's organisation");
  await dialog.getByRole('button', { name: 'Delete for good' }).click();
  await expect(page).toHaveURL(/\/login/);

  // The login is gone with the organisation.
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('alert').first()).toBeVisible();
  await expect(page).toHaveURL(/\/login/);
});
