import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { DEMO_USERS, logInThroughForm } from './support/session';
import { expectToastClearOfHeader } from './support/toast-placement';

test.use({ viewport: { width: 1366, height: 768 } });

/** Badge labels whose text is cut (scrollWidth beyond the visible width). */
async function cutBadges(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll('.mantine-Badge-label'))
      .filter((label) => label.scrollWidth > label.clientWidth + 1 || label.parentElement!.scrollWidth > label.parentElement!.clientWidth + 1)
      .map((label) => label.textContent ?? ''),
  );
}

async function scrollsSideways(page: Page, tableName: string): Promise<boolean> {
  const table = page.getByRole('table', { name: tableName });
  await expect(table).toBeVisible();
  return table.evaluate((element) => {
    for (let node = element.parentElement; node && node !== document.body; node = node.parentElement) {
      if (node.scrollWidth > node.clientWidth + 1 && getComputedStyle(node).overflowX !== 'visible') return true;
    }
    return false;
  });
}

test('at 1366 px the members table fits and no status badge is cut', async ({ page }) => {
  test.setTimeout(180_000);
  await logInThroughForm(page, DEMO_USERS.owner);
  await page.goto('/admin');
  await expect(page.getByRole('table', { name: 'Members' })).toBeVisible();
  await page.screenshot({ path: 'test-results/layout-1366-members.png', fullPage: true });
  expect(await cutBadges(page)).toEqual([]);
  expect(await scrollsSideways(page, 'Members')).toBe(false);

  const dir = mkdtempSync(join(tmpdir(), 'verilead-e2e-'));
  const file = join(dir, 'layout-check.csv');
  writeFileSync(file, 'email\nalice@strict.test\nanyone@acceptall.test\nno.such.user@strict.test\n');
  await page.goto('/email_verifier/add_list');
  await page.getByLabel('Choose a list file').setInputFiles(file);
  await page.getByRole('button', { name: 'Upload list' }).click();
  await page.waitForURL(/\/email_verifier\/lists\/[0-9a-f-]+$/);
  await page.getByRole('button', { name: 'Verify list' }).click({ timeout: 30_000 });
  await page.getByRole('dialog').getByRole('button', { name: /^Verify \d+ address/ }).click();
  await expect(page.getByText('Verification complete')).toBeVisible({ timeout: 120_000 });
  // The end of the job refreshes "Keep verified" too: it offers the schedule, no longer "The list is being verified".
  await expect(page.getByTestId('keep-verified').getByRole('radiogroup', { name: 'Schedule' })).toBeVisible();
  await expect(page.getByTestId('keep-verified-unavailable')).toBeHidden();
  await page.reload();
  await expect(page.getByText(/catch.all/i).first()).toBeVisible();
  await page.screenshot({ path: 'test-results/layout-1366-list-detail.png', fullPage: true });
  expect(await cutBadges(page)).toEqual([]);
  // The statistics cards of a row are equally tall (a card with a hint line stood taller than its neighbours).
  const rows = await page.getByLabel('List statistics').evaluate((grid) => {
    const byTop = new Map<number, number[]>();
    for (const card of Array.from(grid.querySelectorAll('[role="group"]'))) {
      const box = card.getBoundingClientRect();
      byTop.set(Math.round(box.top), [...(byTop.get(Math.round(box.top)) ?? []), Math.round(box.height)]);
    }
    return [...byTop.values()];
  });
  expect(rows.length).toBeGreaterThan(1);
  for (const heights of rows) expect(new Set(heights).size, `card heights in a row: ${heights.join(', ')}`).toBe(1);

  await page.goto('/email_verifier/lists');
  await expect(page.getByText('layout-check').first()).toBeVisible();
  await page.screenshot({ path: 'test-results/layout-1366-lists.png', fullPage: true });
  expect(await cutBadges(page)).toEqual([]);
});

test('at 1366 px a toast does not cover the header (the credits and the user menu stay in reach)', async ({ page }) => {
  await logInThroughForm(page, DEMO_USERS.owner);
  await expectToastClearOfHeader(page);
  await page.screenshot({ path: 'test-results/layout-1366-toast.png' });
});
