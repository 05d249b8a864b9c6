import { expect, test } from '@playwright/test';
import { OUTDATED_PORT } from './playwright.config';

// This server requires a newer app version than the web app sends (MIN_APP_VERSION=99.0.0),
// and names the clear_storage_reload update code.
test('an outdated app version opens the version-update modal with the server code and message', async ({ page }) => {
  await page.goto(`http://127.0.0.1:${OUTDATED_PORT}/login`);
  await page.getByLabel('Email').fill('owner@demo.verilead.test');
  await page.getByLabel('Password', { exact: true }).fill('Demo-Password-1');
  await page.getByRole('button', { name: 'Log in' }).click();
  const modal = page.getByRole('dialog', { name: 'Update available' });
  await expect(modal).toBeVisible();
  await expect(modal.getByRole('button', { name: 'Update Now' })).toBeVisible();
  await page.evaluate(() => localStorage.setItem('e2e-marker', 'present'));
  await modal.getByRole('button', { name: 'Update Now' }).click();
  await page.waitForLoadState('load');
  // clear_storage_reload empties local storage before reloading.
  await expect.poll(() => page.evaluate(() => localStorage.getItem('e2e-marker'))).toBeNull();
});
