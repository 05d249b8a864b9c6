import { expect, test } from '@playwright/test';
import { DEMO_USERS, logInThroughForm, readStoredToken } from './support/session';

test.describe('session', () => {
  test('survives a reload and vanishes on logout', async ({ page }) => {
    await logInThroughForm(page, DEMO_USERS.owner);
    await page.goto('/account/profile');
    await page.reload();
    await expect(page).toHaveURL(/\/account\/profile$/);
    await expect(page.getByRole('button', { name: 'User menu' })).toBeVisible();
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/\/login/);
    const stored = await page.evaluate(() => JSON.stringify(localStorage));
    expect(stored).not.toContain('jwtToken":"');
    await page.goto('/account/profile');
    await expect(page).toHaveURL(/\/login\?redirect=/);
  });

  test('a revoked token opens the Login Required modal, and closing it signs the user out', async ({ page, request }) => {
    await logInThroughForm(page, DEMO_USERS.manager);
    const token = await readStoredToken(page);
    // The same token is logged out elsewhere (another tab, an admin): the server revokes it.
    const logout = await request.get('/api/v1/user/logout', { headers: { authorization: `Bearer ${token}`, 'x-app-version': '31.3.1' } });
    expect(logout.status()).toBe(200);
    const stale = await request.get('/api/v1/user/profile', { headers: { authorization: `Bearer ${token}`, 'x-app-version': '31.3.1' } });
    expect(stale.status()).toBe(401);
    await page.goto('/account/profile');
    const modal = page.getByRole('dialog', { name: 'Login Required' });
    await expect(modal).toBeVisible();
    await expect(modal).toContainText('Session expired. Please login again to continue.');
    await modal.getByRole('button', { name: 'Ok' }).click();
    await expect(page).toHaveURL(/\/login/);
  });
});
