import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { callApi, readOrgCredits } from './support/api';
import { logInThroughForm, uniqueEmail } from './support/session';

// Issue 32 point 2: an owner uploads a campaign's bounce report, checks the detected columns, applies it, and sees
// the valid verdict's claim re-checked (the credited path, where the mail server now refuses the address, is in
// apps/server/src/features/bounces/bounces.test.ts), the soft bounce recorded and not claimed.

async function shoot(page: Page, name: string) {
  for (const width of [1366, 375]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await page.screenshot({ path: `test-results/e2e/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

test('an owner uploads a bounce report, confirms the columns and sees the claim re-checked (declined: the mailbox still exists)', async ({ page, request }) => {
  test.setTimeout(120_000);
  const email = uniqueEmail('bounces');
  const password = 'Bounce-Back-Passw0rd!';
  const signup = await request.post('/api/v1/user/signup', { headers: { 'x-app-version': '31.3.1' }, data: { name: 'Bo Bounce', email, password, signup_source: 'search_engines' } });
  expect(signup.ok()).toBe(true);
  await logInThroughForm(page, email, password);
  await page.addLocatorHandler(page.getByRole('dialog', { name: 'Welcome' }), async (welcome) => {
    await welcome.getByRole('button', { name: 'Get started' }).click();
  });

  // Two addresses verified valid (one credit each).
  for (const address of ['alice@strict.test', 'john.smith@strict.test']) {
    const verdict = await callApi<{ status: string }>(page, request, 'POST', '/email_verify/instant', { email: address });
    expect(verdict.status).toBe('valid');
  }
  const before = await readOrgCredits(page, request);

  await page.goto('/email_verifier/bounces');
  await expect(page.getByText('30-day bounce guarantee')).toBeVisible();
  await expect(page.getByText('No bounce reports yet')).toBeVisible();
  await shoot(page, 'bounces-empty');

  // A Postmark-like export: alice hard-bounced, john soft-bounced.
  const file = join(mkdtempSync(join(tmpdir(), 'verilead-e2e-')), 'campaign-bounces.csv');
  writeFileSync(file, ['Email,Type,Description,Details', 'alice@strict.test,HardBounce,Unknown user,smtp;550 5.1.1 no such user', 'john.smith@strict.test,SoftBounce,Mailbox full,smtp;452 4.2.2 over quota'].join('\n') + '\n');
  await page.getByLabel('Choose a bounce report').setInputFiles(file);
  const preview = page.getByTestId('bounce-preview');
  await expect(preview).toBeVisible();
  await expect(preview.getByText('Looks like a Postmark export.')).toBeVisible();
  await expect(preview.getByRole('combobox', { name: 'Email address' })).toHaveValue('1. Email');
  await expect(preview.getByRole('combobox', { name: 'Bounce type' })).toHaveValue('2. Type');
  await expect(preview.getByRole('combobox', { name: 'SMTP code / status' })).toHaveValue('4. Details');
  await expect(preview.getByRole('table', { name: 'First rows of the report' }).getByText('Hard', { exact: true })).toBeVisible();
  await shoot(page, 'bounces-preview');
  await preview.getByRole('button', { name: 'Apply bounces' }).click();

  const summary = page.getByTestId('bounce-summary');
  await expect(summary.getByRole('group', { name: 'Hard bounces' })).toContainText('1');
  await expect(summary.getByRole('group', { name: 'Soft bounces' })).toContainText('1');
  await expect(page.getByTestId('bounce-report')).toHaveCount(1);
  // alice's valid verdict is claimed, and re-checked: the mail server still has her mailbox, so the report's word
  // alone gives nothing back. The screen follows the claim until it is settled.
  await expect(summary.getByRole('group', { name: 'Claims checked' })).toContainText('1 declined: the address is still accepted');
  await expect(summary.getByRole('group', { name: 'Credits returned' })).toContainText('0');
  await expect(page.getByTestId('bounce-report').getByRole('cell').last()).toHaveText('1 declined');
  await shoot(page, 'bounces-applied');
  expect(await readOrgCredits(page, request)).toBe(before);
});
