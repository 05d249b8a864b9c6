import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { E2E_APP_SECRET, MAIN_PORT } from './playwright.config';
import { DEMO_USERS, logInThroughForm } from './support/session';

const root = join(import.meta.dirname, '..');

/** The operator command of the README, pointed at the e2e server. */
function announce(...args: string[]) {
  execFileSync('npm', ['run', '--silent', 'ops', '--', 'announce', ...args], {
    cwd: root,
    env: { ...process.env, PORT: String(MAIN_PORT), APP_SECRET: E2E_APP_SECRET },
    stdio: 'pipe',
  });
}

test.afterAll(() => announce('--clear'));

test('the operator announcement appears, is re-fetched when it changes, links navigate inside the app, and it can be dismissed', async ({ page }) => {
  announce('--message', 'Scheduled maintenance tonight. <a href="/account/profile">Check your profile</a><script>window.hacked=1</script>');
  await logInThroughForm(page, DEMO_USERS.owner);
  const bar = page.getByRole('region', { name: 'Announcement' });
  await expect(bar).toContainText('Scheduled maintenance tonight.');
  expect(await page.evaluate(() => (window as unknown as { hacked?: number }).hacked)).toBeUndefined();

  // A same-host link navigates inside the app (no full page load: the marker survives).
  await page.evaluate(() => ((window as unknown as { marker?: string }).marker = 'kept'));
  await bar.getByRole('link', { name: 'Check your profile' }).click();
  await expect(page).toHaveURL(/\/account\/profile$/);
  expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe('kept');

  // A new announcement changes x-co-ann-ts; the next API answer makes the app fetch it again.
  announce('--message', 'New plans are live.', '--dismissable');
  // Opening another screen inside the app makes API calls; their x-co-ann-ts header differs now.
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Credits & transactions' }).click();
  await expect(page).toHaveURL(/\/account\/credits$/);
  await expect(bar).toContainText('New plans are live.');
  await bar.getByRole('button', { name: 'Dismiss announcement' }).click();
  await expect(bar).toBeHidden();
  await page.reload();
  await expect(page.getByRole('button', { name: 'User menu' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Announcement' })).toBeHidden();
});
