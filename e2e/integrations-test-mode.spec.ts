import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { closeWelcomeIfShown, DEMO_USERS, logInThroughForm } from './support/session';

// The demo server (no INTEGRATION_BASE_URLS, not production): test mode, every platform answered by its local
// stand-in, so a key-based platform can be connected, imported, verified and written back with no internet.
const root = join(import.meta.dirname, '..');

test('HubSpot in test mode: the screens say so, the test credentials connect, its demo list imports and verifies', async ({ page }) => {
  test.setTimeout(150_000);
  await logInThroughForm(page, DEMO_USERS.owner);
  await page.goto('/integrations');
  await closeWelcomeIfShown(page);
  await expect(page.getByTestId('integration-test-mode')).toContainText('Every platform is answered by a local stand-in on this server');
  await page.getByTestId('integration-hubspot').getByRole('link', { name: 'Connect' }).click();
  await expect(page).toHaveURL(/\/integrations\/hubspot\/connect$/);
  const notice = page.getByTestId('integration-test-mode');
  await expect(notice).toContainText('Test mode');
  await expect(notice).toContainText('HubSpot is answered by a local stand-in on this server');
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: join(root, 'test-results/e2e/integrations-test-mode-375.png'), fullPage: true });
  await page.setViewportSize({ width: 1366, height: 768 });
  await notice.getByRole('button', { name: 'Fill in the test credentials' }).click();
  await page.getByLabel('Account name').fill('HubSpot demo');
  await page.screenshot({ path: join(root, 'test-results/e2e/integrations-test-mode-1366.png'), fullPage: true });
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(page).toHaveURL(/\/integrations\/hubspot$/);

  await expect(page.getByTestId('remote-lists')).toContainText('Demo contacts');
  await page.getByRole('button', { name: 'Verify Demo contacts' }).click();
  const dialog = page.getByRole('dialog', { name: 'Verify "Demo contacts"' });
  await dialog.getByRole('button', { name: 'Import and verify' }).click();
  await expect(dialog).toBeHidden();
  const imports = page.getByTestId('imports-table');
  await expect(imports.getByText('Completed').first()).toBeVisible({ timeout: 120_000 });
  await expect(imports).toContainText('24 verified');
});

test("Zoho CRM in test mode: the data centre chosen (EU) connects through the stand-in's consent page", async ({ page }) => {
  await logInThroughForm(page, DEMO_USERS.owner);
  await page.goto('/integrations/zoho/connect');
  await closeWelcomeIfShown(page);
  const oauth = page.getByTestId('oauth-connect');
  await expect(oauth.getByTestId('integration-test-mode')).toContainText('Zoho CRM is answered by a local stand-in');
  await oauth.getByLabel('Account name').fill('Zoho Europe');
  await oauth.getByRole('combobox', { name: 'Data centre' }).click();
  await page.getByRole('option', { name: 'Europe (zoho.eu)' }).click();
  await oauth.getByRole('button', { name: 'Connect with Zoho CRM' }).click();
  await expect(page).toHaveURL((u) => u.pathname === '/oauth/v2/auth');
  await page.getByRole('button', { name: 'Allow' }).click();
  await expect(page).toHaveURL(/\/integrations\/zoho$/, { timeout: 30_000 });
  await expect(page.getByTestId('remote-lists')).toContainText('Demo audience');
});
