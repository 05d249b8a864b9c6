import { expect, test, type Page } from '@playwright/test';
import { DEMO_USERS, logInThroughForm } from './support/session';

// spec/menus.tsv: pricing and delete are the owner's; api is owner and admin (Manager);
// profile is everyone's. Admin menus belong to owner and admin only.
async function navLinks(page: Page): Promise<string[]> {
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await expect(nav.getByRole('link').first()).toBeVisible();
  return (await nav.getByRole('link').allInnerTexts()).map((text) => text.trim());
}

test.describe('menus per role', () => {
  test('the owner sees the owner-only account menus', async ({ page }) => {
    await logInThroughForm(page, DEMO_USERS.owner);
    const links = await navLinks(page);
    expect(links).toEqual(expect.arrayContaining(['Dashboard', 'Profile', 'Pricing', 'API Key', 'Delete Account']));
  });

  test('the Manager sees API Key but not the owner-only menus', async ({ page }) => {
    await logInThroughForm(page, DEMO_USERS.manager);
    const links = await navLinks(page);
    expect(links).toEqual(expect.arrayContaining(['Dashboard', 'Profile', 'API Key']));
    for (const ownerOnly of ['Pricing', 'Delete Account', 'Billing', 'Coupons']) expect(links).not.toContain(ownerOnly);
  });

  test('the Executive sees neither admin nor owner menus', async ({ page }) => {
    await logInThroughForm(page, DEMO_USERS.executive);
    const links = await navLinks(page);
    expect(links).toEqual(expect.arrayContaining(['Dashboard', 'Profile']));
    for (const hidden of ['Pricing', 'Delete Account', 'API Key', 'Members', 'Team']) expect(links).not.toContain(hidden);
  });
});
