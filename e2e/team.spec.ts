import { expect, test } from '@playwright/test';
import { waitForMailLink } from './support/mail-catcher';
import { DEMO_USERS, closeWelcomeIfShown, logInThroughForm, uniqueEmail } from './support/session';

test.describe('team administration', () => {
  test.describe.configure({ timeout: 180_000 });

  test('the owner adds a Manager who sets a password from the invitation, sees the Manager menus, is capped by a daily limit, and bulk remove spares the owner', async ({ page, browser }) => {
    const managerEmail = uniqueEmail('manager');
    const managerPassword = 'Manag3r-Passw0rd!';

    // The owner adds a Manager.
    await logInThroughForm(page, DEMO_USERS.owner);
    await page.goto('/admin');
    await page.getByRole('button', { name: 'Add member' }).first().click();
    const add = page.getByRole('dialog', { name: 'Add member' });
    await add.getByLabel('Email').fill(managerEmail);
    await add.getByLabel('Name').fill('Morgan Manager');
    await add.getByRole('combobox', { name: 'Role' }).click();
    await page.getByRole('option', { name: 'Manager' }).click();
    await add.getByRole('button', { name: 'Add member' }).click();
    await expect(page.getByText('Member added successfully').first()).toBeVisible();

    // The invitation mail sets the password, in the Manager's own browser.
    const invitation = await waitForMailLink(managerEmail, '/setup_password?token=');
    const managerContext = await browser.newContext();
    const managerPage = await managerContext.newPage();
    await managerPage.goto(invitation.replace(/^https?:\/\/[^/]+/, ''));
    await managerPage.getByLabel('New password', { exact: true }).fill(managerPassword);
    await managerPage.getByLabel('Confirm new password').fill(managerPassword);
    await managerPage.getByRole('button', { name: 'Set password' }).click();
    await logInThroughForm(managerPage, managerEmail, managerPassword);
    const nav = managerPage.getByRole('navigation', { name: 'Main navigation' });
    await expect(nav.getByRole('link', { name: 'Members' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'API Key' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Pricing' })).toHaveCount(0);
    await expect(nav.getByRole('link', { name: 'Delete Account' })).toHaveCount(0);

    // The owner leaves the Manager no credits for today; the Manager's next charge gets the 402 flow.
    await page.reload();
    await page.getByLabel('Search members').fill(managerEmail);
    const row = page.getByRole('row').filter({ hasText: managerEmail });
    await row.getByRole('button', { name: 'Manage' }).click();
    await page.getByRole('menuitem', { name: 'Edit role and limits' }).click();
    const edit = page.getByRole('dialog');
    await edit.getByRole('switch', { name: /Adjust today's remaining daily credits/ }).check();
    await edit.getByLabel('Remaining today').fill('0');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('Member updated successfully').first()).toBeVisible();

    await managerPage.goto('/email_verifier/quick_validation');
    await closeWelcomeIfShown(managerPage);
    await managerPage.getByLabel('Email address').fill('alice@strict.test');
    await managerPage.getByRole('button', { name: 'Verify', exact: true }).click();
    // The organisation has credits: the Manager is told about their own daily limit and stays where they are.
    // the notification (the screen's own alert above the form says the same)
    const toast = managerPage.locator('#payment-required');
    await expect(toast).toContainText('Daily limit reached');
    await expect(toast).toContainText('Your daily credit limit is reached. It resets at the start of the next day.');
    await managerPage.waitForTimeout(6_000); // longer than the owner's redirect to /pricing
    await expect(managerPage).toHaveURL(/\/email_verifier\/quick_validation$/);
    await managerContext.close();

    // Bulk remove with the owner in the selection: the Manager goes, the owner stays.
    await page.getByLabel('Search members').fill('');
    await page.getByRole('checkbox', { name: `Select ${DEMO_USERS.owner}` }).check();
    await page.getByLabel('Search members').fill(managerEmail);
    await page.getByRole('checkbox', { name: `Select ${managerEmail}` }).check();
    await page.getByRole('button', { name: 'Remove selected' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove members' }).click();
    await expect(page.getByText('1 member(s) removed').first()).toBeVisible();
    await expect(page.getByText('Member(s) cannot be removed (member might be owner or already removed)').first()).toBeVisible();
  });
});
