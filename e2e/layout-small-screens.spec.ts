import { join } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { closeWelcomeIfShown, DEMO_USERS, logInThroughForm } from './support/session';

const root = join(import.meta.dirname, '..');
const shot = (page: Page, name: string) => page.screenshot({ path: join(root, `test-results/e2e/${name}.png`), fullPage: false });

/** The element's box, which must lie inside the viewport (left, right) and, when given, inside `within`'s box. */
async function expectInside(element: Locator, viewportWidth: number, within?: Locator) {
  const box = await element.boundingBox();
  expect(box, 'the element is laid out').not.toBeNull();
  expect(box!.x, 'left edge inside the viewport').toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, 'right edge inside the viewport').toBeLessThanOrEqual(viewportWidth);
  if (within) {
    const outer = (await within.boundingBox())!;
    expect(box!.x + box!.width, 'right edge inside its container').toBeLessThanOrEqual(outer.x + outer.width + 0.5);
  }
}

/** True when an element's text is cut (its content is wider than its box). */
const isCut = (element: Locator) => element.evaluate((e) => e.scrollWidth > e.clientWidth + 1);

test.describe('at 1366 px', () => {
  test.use({ viewport: { width: 1366, height: 768 } });

  test('people search: every Reveal button is inside the window and the table does not scroll sideways', async ({ page }) => {
    await logInThroughForm(page, DEMO_USERS.owner);
    await page.goto('/prospect/people_search');
    await closeWelcomeIfShown(page);
    const table = page.getByRole('table', { name: 'People' });
    await expect(table.getByTestId('person-row').first()).toBeVisible({ timeout: 30_000 });
    await shot(page, 'layout-people-search-1366');
    const reveals = table.getByRole('button', { name: 'Reveal' });
    expect(await reveals.count()).toBeGreaterThan(0);
    for (let i = 0; i < Math.min(await reveals.count(), 10); i += 1) await expectInside(reveals.nth(i), 1366, table.locator('xpath=..'));
    expect(await table.evaluate((t) => (t.parentElement ? t.parentElement.scrollWidth > t.parentElement.clientWidth + 1 : false))).toBe(false);
    // The filters are a column beside the results: no "Filters" button.
    await expect(page.getByLabel('Keywords')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Filters' })).toBeHidden();
  });
});

test.describe('at 1366 px, quick finder', () => {
  test.use({ viewport: { width: 1366, height: 768 } });

  test("a field's error does not push the other labels down; the Find button lines up with the inputs", async ({ page }) => {
    await logInThroughForm(page, DEMO_USERS.owner);
    await page.goto('/email_finder/quick');
    await closeWelcomeIfShown(page);
    await page.getByRole('textbox', { name: 'First name' }).fill('Jane');
    await page.getByRole('textbox', { name: 'Company domain' }).fill('not a domain');
    await page.getByRole('button', { name: 'Find' }).click();
    await expect(page.getByRole('textbox', { name: 'Last name' })).toHaveAttribute('aria-invalid', 'true');
    const tops = await Promise.all(['First name', 'Last name', 'Company domain'].map(async (n) => (await page.getByRole('textbox', { name: n }).boundingBox())!.y));
    expect(new Set(tops.map((y) => Math.round(y))).size, `input tops ${tops.join(', ')}`).toBe(1);
    const button = (await page.getByRole('button', { name: 'Find' }).boundingBox())!;
    expect(Math.abs(button.y - tops[0]!)).toBeLessThanOrEqual(2);
    await shot(page, 'layout-quick-finder-error-1366');
  });
});

test.describe('at 375 px', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('the header keeps the avatar menu inside the window, and its menu opens inside it', async ({ page }) => {
    await logInThroughForm(page, DEMO_USERS.owner);
    await page.goto('/');
    await closeWelcomeIfShown(page);
    const avatar = page.getByRole('button', { name: 'User menu' });
    await expectInside(avatar, 375);
    await expectInside(page.getByRole('link', { name: 'Credits balance' }), 375);
    await avatar.click();
    const menu = page.getByRole('menu');
    await expect(menu).toBeVisible();
    await expectInside(menu, 375);
    await shot(page, 'layout-header-menu-375');
  });

  test('analytics: each "Export CSV" button reads in full, inside the window', async ({ page }) => {
    await logInThroughForm(page, DEMO_USERS.owner);
    await page.goto('/analytics');
    await closeWelcomeIfShown(page);
    const exports = page.getByRole('button', { name: /^Export .* as CSV$/ });
    await expect(exports.first()).toBeVisible({ timeout: 30_000 });
    const n = await exports.count();
    for (let i = 0; i < n; i += 1) {
      const button = exports.nth(i);
      await button.scrollIntoViewIfNeeded();
      await expect(button).toHaveText('Export CSV');
      expect(await isCut(button.locator('.mantine-Button-label')), `button ${i} label cut`).toBe(false);
      await expectInside(button, 375);
    }
    await exports.first().scrollIntoViewIfNeeded();
    await shot(page, 'layout-analytics-375');
  });

  test('people search: the filters fold behind a "Filters" button, so the first result is on the first screen', async ({ page }) => {
    await logInThroughForm(page, DEMO_USERS.owner);
    await page.goto('/prospect/people_search');
    await closeWelcomeIfShown(page);
    const firstRow = page.getByTestId('person-row').first();
    await expect(firstRow).toBeVisible({ timeout: 30_000 });
    await expect(page.getByLabel('Keywords')).toBeHidden();
    const row = (await firstRow.boundingBox())!;
    expect(row.y, 'the first result starts on the first screen').toBeLessThan(812);
    await shot(page, 'layout-people-search-375');

    await page.getByRole('button', { name: 'Filters' }).click();
    const drawer = page.getByRole('dialog', { name: 'Filters' });
    await expect(drawer.getByLabel('Keywords')).toBeVisible();
    await drawer.getByLabel('Keywords').fill('engineer');
    await shot(page, 'layout-people-filters-375');
    await drawer.getByRole('button', { name: 'Show results' }).click();
    await expect(drawer).toBeHidden();
    await expect(page.getByRole('button', { name: 'Filters (1 active)' })).toBeVisible();
  });
});
