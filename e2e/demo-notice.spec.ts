import { expect, test } from '@playwright/test';
import { DEMO_PASSWORD, DEMO_USERS } from './support/session';

/**
 * The quick start (the e2e servers run it: NODE_ENV is not production) says on its sign-in pages that it is a demo,
 * with the demo accounts and their published password (issue 27.3). A production server shows no such notice
 * (apps/server/src/production-start.test.ts checks what it answers).
 */
for (const width of [1366, 375]) {
  test(`the login and sign-up pages say "Demo" at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: width > 500 ? 800 : 740 });
    await page.goto('/login');
    const notice = page.getByRole('note', { name: 'Demo' });
    await expect(notice).toBeVisible();
    await expect(notice).toContainText("This server is the quick start's demo: its data is made up and payments run in test mode.");
    await expect(notice).toContainText(`Log in as ${DEMO_USERS.owner} (owner), ${DEMO_USERS.manager} (manager) or ${DEMO_USERS.executive} (executive) with the password ${DEMO_PASSWORD}.`);
    // The notice sits below the form (it loads after the page: above it, it would push the fields and the Log in
    // button down under the pointer), and nothing overflows sideways.
    const noticeBox = (await notice.boundingBox())!;
    const buttonBox = (await page.getByRole('button', { name: 'Log in', exact: true }).boundingBox())!;
    expect(noticeBox.y).toBeGreaterThanOrEqual(buttonBox.y + buttonBox.height);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await page.screenshot({ path: `test-results/e2e/demo-notice-login-${width}.png`, fullPage: true });

    await page.goto('/signup');
    await expect(page.getByRole('note', { name: 'Demo' })).toContainText('payments run in test mode');
    await page.screenshot({ path: `test-results/e2e/demo-notice-signup-${width}.png`, fullPage: true });
  });
}
