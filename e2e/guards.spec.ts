import { expect, test } from '@playwright/test';
import { DEMO_USERS, logInThroughForm } from './support/session';

test.describe('route guards', () => {
  test('a logged-out visitor of a private page goes to /login with the path and query kept, and comes back after login', async ({ page }) => {
    await page.goto('/account/profile?tab=security&x=1');
    await expect(page).toHaveURL(/\/login\?redirect=/);
    const redirect = new URL(page.url()).searchParams.get('redirect');
    expect(redirect).toBe('/account/profile?tab=security&x=1');
    await page.getByLabel('Email').fill(DEMO_USERS.owner);
    await page.getByLabel('Password', { exact: true }).fill('Demo-Password-1');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL(/\/account\/profile\?tab=security&x=1$/);
  });

  test('a logged-in user on a logged-out-only page goes to ?redirect= keeping the other query parameters, or to /', async ({ page }) => {
    await logInThroughForm(page, DEMO_USERS.owner);
    await page.goto('/login?redirect=%2Factivities&utm=mail');
    await expect(page).toHaveURL(/\/activities\?utm=mail$/);
    await page.goto('/forgot_password');
    await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
    await page.goto('/signup?ref=ad');
    await expect(page).toHaveURL(/\/\?ref=ad$/);
  });

  test('open pages render for logged-out and logged-in users alike', async ({ page }) => {
    await page.goto('/resetpassword?token=not-a-real-token');
    await expect(page).toHaveURL(/\/resetpassword\?token=not-a-real-token$/);
    await logInThroughForm(page, DEMO_USERS.executive);
    await page.goto('/emailverification?token=not-a-real-token');
    await expect(page).toHaveURL(/\/emailverification\?token=not-a-real-token$/);
  });

  test('an unknown path goes to / (after login for a logged-out visitor)', async ({ page }) => {
    await page.goto('/no/such/page?q=1');
    await expect(page).toHaveURL(/\/login\?redirect=/);
    await logInThroughForm(page, DEMO_USERS.manager, undefined, page.url().replace(/^https?:\/\/[^/]+/, ''));
    await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
    await page.goto('/also/unknown');
    await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
  });

  test('/pricing is owner-only: a manager and an executive are told they have no access, in place', async ({ page }) => {
    for (const who of [DEMO_USERS.manager, DEMO_USERS.executive]) {
      await logInThroughForm(page, who);
      await page.goto('/pricing');
      await expect(page.getByRole('heading', { name: "You don't have access to this page" })).toBeVisible();
      await expect(page).toHaveURL(/\/pricing$/);
      await page.getByRole('button', { name: 'User menu' }).click();
      await page.getByRole('menuitem', { name: 'Log out' }).click();
      await expect(page).toHaveURL(/\/login/);
    }
  });

  test('a forbidden page says so instead of bouncing silently to the dashboard', async ({ page }) => {
    await logInThroughForm(page, DEMO_USERS.executive);
    await page.goto('/account/delete');
    await expect(page.getByRole('heading', { name: "You don't have access to this page" })).toBeVisible();
    await expect(page).toHaveURL(/\/account\/delete$/);
    await page.getByRole('link', { name: 'Go to the dashboard' }).click();
    await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
  });
});
