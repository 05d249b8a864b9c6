import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { callApi, readOrgCredits } from './support/api';
import { DEMO_USERS, logInThroughForm } from './support/session';

// People of the demo mail world (--demo-mail-world): John Smith has john.smith@strict.test,
// acceptall.test accepts every address (catch-all), and nobody called Nobody Noone exists.
test.describe('email finder', () => {
  test.describe.configure({ timeout: 180_000 });

  test('instant find: a found address, a catch-all guess with lower confidence, and a company name refused on its field', async ({ page }) => {
    await logInThroughForm(page, DEMO_USERS.owner);
    await page.goto('/email_finder/quick');
    const find = async (first: string, last: string, domain: string) => {
      await page.getByRole('textbox', { name: 'First name' }).fill(first);
      await page.getByRole('textbox', { name: 'Last name' }).fill(last);
      await page.getByRole('textbox', { name: 'Company domain' }).fill(domain);
      await page.getByRole('button', { name: 'Find', exact: true }).click();
    };
    await find('John', 'Smith', 'strict.test');
    const result = page.getByTestId('finder-result');
    await expect(result.getByTestId('finder-email')).toHaveText('john.smith@strict.test', { timeout: 60_000 });
    await expect(result.getByTestId('finder-status')).toHaveText(/found/i);

    await find('Jane', 'Doe', 'acceptall.test');
    await expect(result.getByTestId('finder-email')).toHaveText('jane.doe@acceptall.test', { timeout: 60_000 });
    await expect(result.getByTestId('flag-catch_all')).toBeVisible();

    await find('Jane', 'Doe', 'Acme Inc');
    await expect(page.getByText(/finding by company name is not available yet/)).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Company domain' })).toHaveAttribute('aria-invalid', 'true');
  });

  test('a bulk list with mapped columns is searched to completion, bills only found addresses and downloads', async ({ page, request }) => {
    await logInThroughForm(page, DEMO_USERS.owner);
    const path = join(mkdtempSync(join(tmpdir(), 'verilead-e2e-')), 'people.csv');
    writeFileSync(path, ['First Name,Last Name,Company Website,Title', 'John,Smith,strict.test,CEO', 'Nobody,Noone,strict.test,Ghost', 'Jane,Doe,acceptall.test,Sales'].join('\n') + '\n');
    await page.goto('/email_finder/add_list');
    await page.getByLabel('Choose a list file').setInputFiles(path);
    await expect(page.getByRole('table', { name: 'File preview' })).toBeVisible();
    await page.getByRole('button', { name: 'Upload list' }).click();
    await page.waitForURL(/\/email_finder\/lists\/[0-9a-f-]+$/);

    const creditsBefore = await readOrgCredits(page, request);
    await page.getByRole('button', { name: 'Find addresses' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Find addresses' }).click();
    await expect(page.getByText('Search complete')).toBeVisible({ timeout: 120_000 });
    // Found: John Smith and the catch-all guess for Jane Doe; Nobody Noone is not found and not billed.
    expect(creditsBefore - (await readOrgCredits(page, request))).toBe(2);

    await page.getByRole('button', { name: 'Download' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('radio', { name: /^Found only/ }).check();
    await dialog.getByRole('button', { name: 'Download', exact: true }).click();
    const downloading = page.waitForEvent('download');
    await dialog.getByRole('link', { name: 'Download again' }).click();
    const file = readFileSync((await (await downloading).path()) as string, 'utf8');
    expect(file).toContain('john.smith@strict.test');
    expect(file).not.toContain('Noone');
    const history = await callApi<{ total: number }>(page, request, 'GET', '/email_finder/history?page=1&limit=25');
    expect(history.total).toBeGreaterThan(0);
  });
});
