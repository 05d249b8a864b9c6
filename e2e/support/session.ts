import { expect, type Page } from '@playwright/test';

export const DEMO_PASSWORD = 'Demo-Password-1';
export const DEMO_USERS = {
  owner: 'owner@demo.verilead.test',
  manager: 'manager@demo.verilead.test',
  executive: 'executive@demo.verilead.test',
} as const;

/** Logs in through the login screen and waits for the app shell. */
export async function logInThroughForm(page: Page, email: string, password = DEMO_PASSWORD, path = '/login') {
  await page.goto(path);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).not.toHaveURL(/\/login/);
  await closeWelcomeIfShown(page);
}

/**
 * A person's first login greets them with the welcome modal; specs that are not about it close it. The session says
 * whether it is due (`showWelcome`, kept in localStorage): then it is waited for, since it can open after the page
 * looks settled (it once did, and stayed over the next page until the spec timed out).
 */
export async function closeWelcomeIfShown(page: Page) {
  await page.waitForLoadState('networkidle');
  const welcome = page.getByRole('dialog', { name: 'Welcome' });
  const due = await page.evaluate((key) => {
    try {
      return (JSON.parse(localStorage.getItem(key) ?? '{}') as { state?: { showWelcome?: boolean } }).state?.showWelcome === true;
    } catch {
      return false;
    }
  }, 'verilead-session');
  if (due) await welcome.waitFor({ state: 'visible', timeout: 10_000 }).catch(() => undefined);
  if (await welcome.isVisible()) {
    await welcome.getByRole('button', { name: 'Get started' }).click();
    await expect(welcome).toBeHidden();
  }
}

/** A unique address for a person signing up in this run. */
export function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.test`;
}

/** The bearer token the app keeps in its persisted session. */
export async function readStoredToken(page: Page): Promise<string> {
  const token = await page.evaluate(() => {
    for (let i = 0; i < localStorage.length; i += 1) {
      const key = localStorage.key(i);
      if (!key) continue;
      const match = /"jwtToken":"([^"]+)"/.exec(localStorage.getItem(key) ?? '');
      if (match) return match[1];
    }
    return null;
  });
  if (!token) throw new Error('no session token in localStorage');
  return token;
}
