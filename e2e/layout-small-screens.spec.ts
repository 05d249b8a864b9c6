import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { closeWelcomeIfShown, DEMO_USERS, logInThroughForm } from './support/session';
import { expectToastClearOfHeader } from './support/toast-placement';

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

/**
 * Nothing scrolls sideways: the page is no wider than the window, the table fits inside it, and no box around the
 * table scrolls it sideways (a table in a scroll area kept the page narrow but was read by swiping left and right).
 */
async function expectNoSidewaysScroll(page: Page, table: Locator) {
  await expect(table).toBeVisible();
  const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, window: window.innerWidth }));
  expect(widths.page, 'document scroll width').toBeLessThanOrEqual(widths.window);
  await expectInside(table, widths.window);
  const scroller = await table.evaluate((element) => {
    for (let node = element.parentElement; node && node !== document.body; node = node.parentElement) {
      if (node.scrollWidth > node.clientWidth + 1 && getComputedStyle(node).overflowX !== 'visible') return `${node.className}: ${node.scrollWidth} > ${node.clientWidth}`;
    }
    return null;
  });
  expect(scroller, 'a box around the table scrolls sideways').toBeNull();
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
    // A reveal charges credits: it first says the most it costs, and Cancel charges nothing.
    const balance = await page.getByTestId('credits-balance').textContent();
    await reveals.first().click();
    const confirm = page.getByRole('dialog', { name: 'Reveal contact data?' });
    await expect(confirm.getByTestId('reveal-max-cost')).toHaveText(/^\d+ credits?$/);
    await expect(confirm.getByRole('button', { name: /^Reveal for at most \d+ credits?$/ })).toBeVisible();
    await shot(page, 'layout-people-reveal-confirm-1366');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toBeHidden();
    await expect(page.getByTestId('credits-balance')).toHaveText(balance ?? '');
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

  test('members: the organisation card\'s "Edit details" reads in full', async ({ page }) => {
    await logInThroughForm(page, DEMO_USERS.owner);
    await page.goto('/admin');
    await closeWelcomeIfShown(page);
    const edit = page.getByRole('button', { name: 'Edit details' });
    await expect(edit).toBeVisible();
    expect(await isCut(edit.locator('.mantine-Button-label')), 'the label is cut').toBe(false);
    await expectInside(edit, 375);
    // The role filter is a select on a phone (the row of roles was cut after "Manager").
    await expect(page.getByRole('radiogroup', { name: 'Role filter' })).toBeHidden();
    await expectInside(page.getByRole('combobox', { name: 'Role' }), 375);
    await shot(page, 'layout-members-375');
  });

  test('lists: the state filter is a select inside the window (the row of states was cut)', async ({ page }) => {
    await logInThroughForm(page, DEMO_USERS.owner);
    await page.goto('/email_verifier/lists');
    await closeWelcomeIfShown(page);
    await expect(page.getByRole('radiogroup', { name: 'Filter by state' })).toBeHidden();
    const state = page.getByRole('combobox', { name: 'State' });
    await expect(state).toBeVisible();
    await expectInside(state, 375);
    await shot(page, 'layout-lists-375');
  });

  test("a list's statistics sit two to a row, each card and figure inside the window (they were fifteen full-width cards)", async ({ page }) => {
    await logInThroughForm(page, DEMO_USERS.owner);
    const file = join(mkdtempSync(join(tmpdir(), 'verilead-e2e-')), 'phone-stats.csv');
    writeFileSync(file, 'email\nalice@strict.test\nno.such.user@strict.test\nalice@strict.test\n');
    await page.goto('/email_verifier/add_list');
    await page.getByLabel('Choose a list file').setInputFiles(file);
    await page.getByRole('button', { name: 'Upload list' }).click();
    await page.waitForURL(/\/email_verifier\/lists\/[0-9a-f-]+$/);
    await expect(page.getByRole('button', { name: 'Verify list' })).toBeVisible({ timeout: 30_000 });
    const cards = page.getByLabel('List statistics').getByRole('group');
    await expect(cards.first()).toBeVisible();
    const boxes = await cards.evaluateAll((all) => all.map((card) => card.getBoundingClientRect()).map((b) => ({ top: Math.round(b.top), left: b.left, right: b.right })));
    expect(boxes.filter((box) => box.top === boxes[0]!.top), 'cards in the first row').toHaveLength(2);
    for (const box of boxes) expect(box.left >= 0 && box.right <= 375, `card ${JSON.stringify(box)} inside the window`).toBe(true);
    const values = page.getByLabel('List statistics').getByTestId('stat-value');
    for (let i = 0; i < (await values.count()); i += 1) expect(await isCut(values.nth(i)), `figure ${i} cut`).toBe(false);
    await cards.first().scrollIntoViewIfNeeded();
    await shot(page, 'layout-list-stats-375');
  });

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
    // The header has no "Add credits" button on a phone: the menu has it, and it opens the buy-credits modal.
    await expect(page.getByRole('link', { name: 'Add credits' })).toBeHidden();
    await menu.getByRole('menuitem', { name: 'Add credits' }).click();
    await expect(page.getByRole('dialog', { name: 'Buy credits' })).toBeVisible();
    await shot(page, 'layout-buy-credits-375');
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

  test('a toast does not cover the header (the credits and the user menu stay in reach)', async ({ page }) => {
    await logInThroughForm(page, DEMO_USERS.owner);
    await expectToastClearOfHeader(page);
    await shot(page, 'layout-toast-375');
  });

  test('the credits ledger, members, verifier lists and people search read without sideways scrolling', async ({ page }) => {
    await logInThroughForm(page, DEMO_USERS.owner);

    await page.goto('/account/credits');
    await closeWelcomeIfShown(page);
    const ledger = page.getByRole('table', { name: 'Credit transactions' });
    await expectNoSidewaysScroll(page, ledger);
    // Each line still shows its amount and balance, each under its column's name.
    await expect(ledger.locator('tbody tr').first().locator('td[data-label="Amount"]')).toBeVisible();
    await expect(ledger.locator('tbody tr').first().locator('td[data-label="Balance"]')).toBeVisible();
    await ledger.scrollIntoViewIfNeeded();
    await shot(page, 'layout-credits-ledger-375');

    await page.goto('/admin');
    const members = page.getByRole('table', { name: 'Members' });
    await expectNoSidewaysScroll(page, members);
    await expect(members.getByRole('button', { name: 'Manage' }).first()).toBeVisible();
    await expectInside(members.getByRole('button', { name: 'Manage' }).first(), 375);
    await members.scrollIntoViewIfNeeded();
    await shot(page, 'layout-members-table-375');

    const file = join(mkdtempSync(join(tmpdir(), 'verilead-e2e-')), 'phone-table.csv');
    writeFileSync(file, 'email\nalice@strict.test\n');
    await page.goto('/email_verifier/add_list');
    await page.getByLabel('Choose a list file').setInputFiles(file);
    await page.getByRole('button', { name: 'Upload list' }).click();
    await page.waitForURL(/\/email_verifier\/lists\/[0-9a-f-]+$/);
    await page.goto('/email_verifier/lists');
    const lists = page.getByRole('table', { name: 'Email verifier lists' });
    await expect(lists.getByText('phone-table').first()).toBeVisible({ timeout: 30_000 });
    await expectNoSidewaysScroll(page, lists);
    await lists.scrollIntoViewIfNeeded();
    await shot(page, 'layout-verifier-lists-375');

    // The audit log reads the same way (the owner's sign-ins are in it).
    await page.goto('/account/audit-log');
    const audit = page.getByRole('table', { name: 'Audit log' });
    await expectNoSidewaysScroll(page, audit);
    await shot(page, 'layout-audit-log-375');

    await page.goto('/prospect/people_search');
    const people = page.getByRole('table', { name: 'People' });
    await expect(people.getByTestId('person-row').first()).toBeVisible({ timeout: 30_000 });
    await expectNoSidewaysScroll(page, people);
    await expectInside(people.getByRole('button', { name: 'Reveal' }).first(), 375);
    await people.scrollIntoViewIfNeeded();
    await shot(page, 'layout-people-table-375');
  });
});
