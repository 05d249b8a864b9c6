import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { E2E_APP_SECRET, MAIN_PORT } from './playwright.config';
import { closeWelcomeIfShown, uniqueEmail } from './support/session';

// Issue 31 point 1: an operator (created by the ops command's one-time link) finds an organisation, grants credits
// (the owner then reads the adjustment in their ledger), suspends and restores a user, invites an operator (the link
// is mailed, never shown) and disables them.

const root = join(import.meta.dirname, '..');
const OPERATOR_PASSWORD = 'Operator-E2E-Pass-1';

/** `npm run ops -- create-operator`, pointed at the e2e server: answers the one-time link it prints. */
function createOperator(email: string): string {
  const out = execFileSync('npm', ['run', '--silent', 'ops', '--', 'create-operator', '--email', email], {
    cwd: root,
    env: { ...process.env, PORT: String(MAIN_PORT), APP_SECRET: E2E_APP_SECRET },
    encoding: 'utf8',
  });
  const link = /https?:\/\/\S+\/ops\/set-password\?token=\S+/.exec(out)?.[0];
  if (!link) throw new Error(`no link in: ${out}`);
  return link;
}

async function shoot(page: Page, name: string) {
  for (const width of [1366, 375]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await page.screenshot({ path: `test-results/e2e/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

async function customerLogin(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

test('an operator finds an organisation, grants credits the owner sees, suspends and restores a user', async ({ page, browser, request }) => {
  test.setTimeout(180_000);
  const customer = uniqueEmail('ops-owner');
  const customerPassword = 'Customer-Ops-Pass-1';
  const signup = await request.post('/api/v1/user/signup', { headers: { 'x-app-version': '31.3.1' }, data: { name: 'Olga Owner', email: customer, password: customerPassword, signup_source: 'search_engines' } });
  expect(signup.ok()).toBe(true);

  // The first operator sets the password with the link the ops command printed, and lands in the console.
  const link = createOperator(uniqueEmail('operator'));
  await page.goto(link.replace(/^https?:\/\/[^/]+/, ''));
  await page.getByLabel('New password').fill(OPERATOR_PASSWORD);
  await page.getByLabel('Repeat the password').fill(OPERATOR_PASSWORD);
  await page.getByRole('button', { name: 'Set password and sign in' }).click();
  await expect(page).toHaveURL(/\/ops\/orgs$/);
  await expect(page.getByRole('navigation', { name: 'Operator console' }).getByRole('link', { name: 'Organisations' })).toBeVisible();

  // Find the organisation by the owner's e-mail and open it.
  await page.getByLabel('Search organisations').fill(customer);
  const row = page.getByRole('row').filter({ hasText: customer });
  await expect(row).toHaveCount(1);
  await shoot(page, 'ops-orgs');
  await row.getByRole('link', { name: "Olga Owner's organisation" }).click();
  await expect(page.getByRole('heading', { name: "Olga Owner's organisation" })).toBeVisible();
  const balanceBefore = Number((await page.getByRole('group', { name: 'Credits', exact: true }).getByTestId('figure-value').innerText()).replace(/,/g, ''));

  // Grant 1,234 credits with a reason; the confirmation shows the amount and the resulting balance.
  await page.getByRole('button', { name: 'Adjust credits' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Credits').fill('1234');
  await dialog.getByLabel('Reason').fill('Goodwill for ticket 42');
  await dialog.getByRole('button', { name: 'Review' }).click();
  const after = (balanceBefore + 1234).toLocaleString('en-US');
  await expect(dialog).toContainText(`Grant 1,234 credits`);
  await expect(dialog).toContainText(`to ${after}`);
  await shoot(page, 'ops-credits-confirm');
  await dialog.getByRole('button', { name: 'Grant 1,234 credits' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(/Goodwill for ticket 42/)).toBeVisible();
  await expect(page.getByRole('group', { name: 'Credits', exact: true })).toContainText(after);
  await shoot(page, 'ops-org-detail');

  // The owner reads the adjustment in their own ledger.
  const ownerContext = await browser.newContext();
  const owner = await ownerContext.newPage();
  await customerLogin(owner, customer, customerPassword);
  await expect(owner).not.toHaveURL(/\/login/);
  await closeWelcomeIfShown(owner);
  await owner.goto('/account/credits');
  await expect(owner.getByText('Adjustment by Verilead support: Goodwill for ticket 42').first()).toBeVisible();

  // Support access: hidden until the owner grants it in Settings; then the console shows until when and the lists.
  await expect(page.getByText('Not granted')).toBeVisible();
  await owner.goto('/settings');
  const card = owner.getByRole('region', { name: 'Support access' }).or(owner.locator('[aria-labelledby="support-access-title"]'));
  await card.getByRole('button', { name: 'Grant access' }).click();
  await expect(card.getByText(/Granted until/)).toBeVisible();
  await shoot(owner, 'settings-support-access');
  await page.reload();
  await expect(page.getByText(/Granted until/)).toBeVisible();
  await page.getByRole('button', { name: "View the organisation's lists (logged)" }).click();
  await expect(page.getByText('No lists.')).toBeVisible();

  // Suspend the user: they cannot sign in, with a message saying why.
  await page.getByRole('button', { name: `Actions for ${customer}` }).click();
  await page.getByRole('menuitem', { name: 'Suspend user' }).click();
  await page.getByRole('dialog').getByLabel('Reason (kept in the audit log)').fill('Chargeback under review');
  await page.getByRole('dialog').getByRole('button', { name: 'Suspend user' }).click();
  await expect(page.getByRole('row').filter({ hasText: customer }).getByText('Suspended')).toBeVisible();
  const blockedContext = await browser.newContext();
  const blocked = await blockedContext.newPage();
  await customerLogin(blocked, customer, customerPassword);
  await expect(blocked.getByText(/suspended by Verilead support/)).toBeVisible();

  // Restore: the user signs in again.
  await page.getByRole('button', { name: `Actions for ${customer}` }).click();
  await page.getByRole('menuitem', { name: 'Restore user' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Restore user' }).click();
  await expect(page.getByRole('row').filter({ hasText: customer }).getByText('Suspended')).toBeHidden();
  await customerLogin(blocked, customer, customerPassword);
  await expect(blocked).not.toHaveURL(/\/login/);

  // Every action is in the operator log.
  await page.getByRole('navigation', { name: 'Operator console' }).getByRole('link', { name: 'Operator log' }).click();
  await expect(page.getByRole('cell', { name: /User restored by Verilead support/ }).first()).toBeVisible();
  await expect(page.getByRole('cell', { name: /Credits adjusted by Verilead support/ }).first()).toBeVisible();
  await shoot(page, 'ops-log');
  await page.getByRole('navigation', { name: 'Operator console' }).getByRole('link', { name: 'Plans and coupons' }).click();
  await expect(page.getByLabel('Pricing file')).toBeVisible();
  await shoot(page, 'ops-pricing');
  await page.getByRole('navigation', { name: 'Operator console' }).getByRole('link', { name: 'Operators' }).click();
  await expect(page.getByRole('heading', { name: 'Invite an operator' })).toBeVisible();
  // An invitation is mailed to the invitee; the inviting operator never sees the link. Then disable the invitee.
  const invitee = uniqueEmail('invited-operator');
  await page.getByLabel('E-mail').fill(invitee);
  await page.getByRole('button', { name: 'Invite', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: `Invitation sent to ${invitee}` })).toBeVisible();
  await expect(page.getByText(/\/ops\/set-password\?token=/)).toHaveCount(0);
  const inviteeRow = page.getByRole('row').filter({ hasText: invitee });
  await expect(inviteeRow.getByText('Invited', { exact: true })).toBeVisible();
  await shoot(page, 'ops-operators');
  await inviteeRow.getByRole('button', { name: `Disable ${invitee}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Disable operator' }).click();
  await expect(inviteeRow.getByText('Disabled', { exact: true })).toBeVisible();
  await expect(inviteeRow.getByRole('button', { name: `Enable ${invitee}` })).toBeVisible();
  await ownerContext.close();
  await blockedContext.close();
});
