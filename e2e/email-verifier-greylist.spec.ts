import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { DEMO_USERS, logInThroughForm } from './support/session';

// The progress screen while greylisted addresses wait for their re-check. The demo mail world's greylisting lasts
// about a second, too short to catch in a browser, so this spec uploads and verifies a real list, then patches the
// server's own list and progress answers into the waiting state (12 addresses, re-check in 10 minutes) and checks
// the screen (text, and a screenshot kept as test-results/greylist-wait.png to look at).
test('the list screen says how many addresses wait for a greylist re-check and when, with the results so far', async ({ page }) => {
  test.setTimeout(180_000);
  await logInThroughForm(page, DEMO_USERS.owner);
  const dir = mkdtempSync(join(tmpdir(), 'verilead-e2e-'));
  const path = join(dir, 'greylist-wait.csv');
  writeFileSync(path, ['email', 'alice@strict.test', 'john.smith@strict.test', 'no.such.user@strict.test', 'anyone@acceptall.test'].join('\n') + '\n');
  await page.goto('/email_verifier/add_list');
  await page.getByLabel('Choose a list file').setInputFiles(path);
  await expect(page.getByRole('table', { name: 'File preview' })).toBeVisible();
  await page.getByRole('button', { name: 'Upload list' }).click();
  await page.waitForURL(/\/email_verifier\/lists\/[0-9a-f-]+$/);
  await expect(page.getByRole('button', { name: 'Verify list' })).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Verify list' }).click();
  await page.getByRole('dialog').getByRole('button', { name: /^Verify 4 addresses/ }).click();
  await expect(page.getByText('Verification complete')).toBeVisible({ timeout: 120_000 });

  // The same list, as the server would answer while 12 more addresses wait for a re-check at 10 minutes from now.
  const nextAt = new Date(Date.now() + 10 * 60_000);
  const waiting = { waiting: 12, next_recheck_at: nextAt.toISOString() };
  await page.route('**/api/v1/email_verify/list', async (route) => {
    const response = await route.fetch();
    const body = await response.json();
    for (const item of body.data.items) {
      item.state = 'in_progress';
      item.activity = 'verify';
      item.verified_at = null;
      item.counts.unique += 12;
      item.counts.remaining = 12;
      item.progress = Math.floor((item.counts.verified / item.counts.unique) * 100);
      item.greylist = waiting;
    }
    await route.fulfill({ response, json: body });
  });
  await page.route('**/api/v1/email_verify/bulk/progress_status**', async (route) => {
    const response = await route.fetch();
    const body = await response.json();
    body.data.state = 'in_progress';
    body.data.total += 12;
    body.data.progress = Math.floor((body.data.verified / body.data.total) * 100);
    body.data.greylist = waiting;
    await route.fulfill({ response, json: body });
  });
  await page.reload();
  // the demo owner's time zone setting is UTC (the default)
  const hm = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(nextAt);
  const wait = page.getByTestId('greylist-wait');
  await expect(wait).toBeVisible({ timeout: 30_000 });
  await expect(wait).toContainText(`12 addresses wait for a greylist re-check at`);
  await expect(wait).toContainText(hm);
  await expect(page.getByText('4 of 16 unique addresses verified')).toBeVisible();
  await expect(page.getByTestId('verification-percent')).toHaveText('25%');
  await page.screenshot({ path: 'test-results/greylist-wait.png', fullPage: true });
});
