import { expect, type Page } from '@playwright/test';

/**
 * Saves the organisation's details on /admin, which answers with a toast, and checks the toast leaves the header
 * alone: its box does not overlap the header's, and the credits and the user menu are what a click there reaches.
 */
export async function expectToastClearOfHeader(page: Page) {
  await page.goto('/admin');
  await page.getByRole('button', { name: 'Edit details' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
  const toast = page.locator('.mantine-Notification-root').filter({ hasText: 'details saved' });
  await expect(toast).toBeVisible();
  const header = page.getByRole('banner');
  // The toast slides in: wait for it to stand still before measuring.
  let last = '';
  await expect
    .poll(async () => {
      const box = JSON.stringify(await toast.boundingBox());
      const still = box === last;
      last = box;
      return still;
    })
    .toBe(true);
  const t = (await toast.boundingBox())!;
  const h = (await header.boundingBox())!;
  const overlaps = t.x < h.x + h.width && h.x < t.x + t.width && t.y < h.y + h.height && h.y < t.y + t.height;
  expect(overlaps, `toast ${JSON.stringify(t)} over the header ${JSON.stringify(h)}`).toBe(false);
  for (const control of [page.getByRole('button', { name: 'User menu' }), page.getByRole('link', { name: 'Credits balance' })]) {
    const reached = await control.evaluate((element) => {
      const box = element.getBoundingClientRect();
      return element.contains(document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2));
    });
    expect(reached, 'a click on the header control reaches it, not the toast').toBe(true);
  }
  const viewport = page.viewportSize()!;
  expect(t.x >= 0 && t.x + t.width <= viewport.width && t.y + t.height <= viewport.height, `toast ${JSON.stringify(t)} inside the window`).toBe(true);
  return toast;
}
