import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { logInThroughForm, uniqueEmail } from './support/session';

// Issue 28, point 6: the ledger is one line per job with its total (expandable to its rows) and one line per day and
// source for instant calls, each balance following from the line below it. A new organisation, so its ledger is known.

async function shoot(page: Page, name: string) {
  for (const width of [1366, 375]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await page.screenshot({ path: `test-results/e2e/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

test('a verified list is one ledger line with its total and its rows; instant calls one line for the day', async ({ page, request }) => {
  test.setTimeout(180_000);
  const email = uniqueEmail('ledger');
  const password = 'Ledger-Lines-Passw0rd!';
  const signup = await request.post('/api/v1/user/signup', { headers: { 'x-app-version': '31.3.1' }, data: { name: 'Lee Ledger', email, password, signup_source: 'search_engines' } });
  expect(signup.ok()).toBe(true);
  await logInThroughForm(page, email, password);

  // Two instant checks (billed: valid).
  await page.goto('/email_verifier/quick_validation');
  for (const address of ['alice@strict.test', 'john.smith@strict.test']) {
    await page.getByLabel('Email address').fill(address);
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    await expect(page.getByTestId('verdict-card').filter({ has: page.getByTestId('verdict-email').filter({ hasText: address }) })).toBeVisible({ timeout: 60_000 });
  }

  // A list of 5 billable addresses (valid, invalid, catch-all).
  const path = join(mkdtempSync(join(tmpdir(), 'verilead-e2e-')), 'five.csv');
  writeFileSync(path, ['email', 'alice@strict.test', 'john.smith@strict.test', 'no.such.user@strict.test', 'anyone@acceptall.test', 'someone@acceptall.test'].join('\n') + '\n');
  await page.goto('/email_verifier/add_list');
  await page.getByLabel('Choose a list file').setInputFiles(path);
  await page.getByRole('button', { name: 'Upload list' }).click();
  await page.waitForURL(/\/email_verifier\/lists\/[0-9a-f-]+$/);
  await page.getByRole('button', { name: 'Verify list' }).click({ timeout: 30_000 });
  await page.getByRole('dialog').getByRole('button', { name: /^Verify 5 addresses/ }).click();
  await expect(page.getByText('Verification complete')).toBeVisible({ timeout: 120_000 });

  await page.goto('/account/credits');
  const table = page.getByRole('table', { name: 'Credit transactions' });
  const lines = table.locator(':scope > tbody > tr');
  await expect(lines).toHaveCount(3);
  await expect(lines.nth(0)).toContainText('Bulk verification · 5 rows');
  await expect(lines.nth(0).getByTestId('transaction-amount')).toHaveText('\u22125');
  await expect(lines.nth(0)).toContainText('93');
  await expect(lines.nth(1)).toContainText(/· 2 calls on \d{1,2} \w{3} \d{4}/);
  await expect(lines.nth(1).getByTestId('transaction-amount')).toHaveText('\u22122');
  await expect(lines.nth(1)).toContainText('98');
  await expect(lines.nth(2).getByTestId('transaction-amount')).toHaveText('+100');

  await lines.nth(0).getByRole('button', { name: /^Show the 5 rows of Bulk verification/ }).click();
  const rows = page.getByRole('table', { name: /^Rows of Bulk verification/ });
  await expect(rows.getByRole('row')).toHaveCount(5);
  // Newest first, each balance one above the next: 93, 94, 95, 96, 97.
  const balances = await rows.getByRole('row').evaluateAll((trs) => trs.map((tr) => tr.lastElementChild?.textContent ?? ''));
  expect(balances).toEqual(['93', '94', '95', '96', '97']);
  await shoot(page, 'credits-ledger-lines');
});
