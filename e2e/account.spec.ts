import { expect, test } from '@playwright/test';
import { waitForMailLink } from './support/mail-catcher';
import { readStoredToken, uniqueEmail } from './support/session';

test('a person signs up, opens the verification link and is signed in, edits the profile, sees credits, logs out, and the old token is refused', async ({ page: firstTab, request }) => {
  let page = firstTab;
  const email = uniqueEmail('jane');
  const password = 'Str0ng-Passw0rd!';

  await page.goto('/signup');
  await page.getByLabel('Full name').fill('Jane Doe');
  await page.getByLabel('Work email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('combobox', { name: 'How did you hear about us?' }).click();
  await page.getByRole('option', { name: 'Others (specify)' }).click();
  await page.getByLabel('Please specify').fill('A conference talk');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('Check your inbox')).toBeVisible();

  // The verification mail arrives over SMTP; the person opens its link in this browser (a new tab, as from a mail
  // client): it verifies the address and signs them in, straight onto the dashboard.
  const link = await waitForMailLink(email, '/emailverification?token=');
  const tab = await page.context().newPage();
  await page.close();
  page = tab;
  await page.goto(link.replace(/^https?:\/\/[^/]+/, ''));
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: 'User menu' })).toBeVisible();
  // A first sign-in greets the person once.
  const welcome = page.getByRole('dialog', { name: 'Welcome' });
  await expect(welcome).toBeVisible();
  await welcome.getByRole('button', { name: 'Get started' }).click();
  await expect(welcome).toBeHidden();

  await page.goto('/account/profile');
  await page.getByRole('button', { name: 'Edit name' }).click();
  const nameDialog = page.getByRole('dialog', { name: 'Edit name' });
  await nameDialog.getByLabel('Full name').fill('Jane Q. Doe');
  await nameDialog.getByRole('button', { name: 'Save' }).click();
  await expect(nameDialog).toBeHidden();
  await expect(page.getByText('Jane Q. Doe').first()).toBeVisible();
  await page.reload();
  await expect(page.getByText('Jane Q. Doe').first()).toBeVisible();

  await page.goto('/account/credits');
  await expect(page.getByText('Available credits')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Credit transactions' }).or(page.getByText('No transactions'))).toBeVisible();

  const token = await readStoredToken(page);
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login/);
  const stale = await request.get('/api/v1/user/profile', { headers: { authorization: `Bearer ${token}`, 'x-app-version': '31.3.1' } });
  expect(stale.status()).toBe(401);
  const body = (await stale.json()) as { status: string };
  expect(body.status).toBe('failed');
});

test('the verification link opened in another browser verifies the address and asks to log in, with the address filled in', async ({ page, browser }) => {
  const email = uniqueEmail('elsewhere');
  const password = 'Str0ng-Passw0rd!';
  await page.goto('/signup');
  await page.getByLabel('Full name').fill('Eli Elsewhere');
  await page.getByLabel('Work email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('combobox', { name: 'How did you hear about us?' }).click();
  await page.getByRole('option', { name: 'Friends' }).click();
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('Check your inbox')).toBeVisible();
  const link = await waitForMailLink(email, '/emailverification?token=');

  // Another browser (the phone's mail app): no sign-up key there.
  const other = await browser.newContext();
  const phone = await other.newPage();
  await phone.goto(link.replace(/^https?:\/\/[^/]+/, ''));
  await expect(phone).toHaveURL(/\/login$/);
  await expect(phone.getByText(`${email} is verified. Log in to start verifying.`)).toBeVisible();
  await expect(phone.getByLabel('Email')).toHaveValue(email);
  await phone.getByLabel('Password', { exact: true }).fill(password);
  await phone.getByRole('button', { name: 'Log in' }).click();
  await expect(phone.getByRole('button', { name: 'User menu' })).toBeVisible();
  await other.close();

  // The link is spent: opened again in the first browser it signs nobody in.
  await page.goto(link.replace(/^https?:\/\/[^/]+/, ''));
  await expect(page.getByText('This link has already been used.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'User menu' })).toBeHidden();
});

test('forgot password sends a single-use reset link that sets a new password', async ({ page }) => {
  const email = uniqueEmail('reset');
  const signup = await page.request.post('/api/v1/user/signup', {
    headers: { 'x-app-version': '31.3.1' },
    data: { name: 'Reset Person', email, password: 'First-Passw0rd!', signup_source: 'search_engines' },
  });
  expect(signup.ok()).toBeTruthy();

  await page.goto('/forgot_password');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: /send/i }).click();
  const link = await waitForMailLink(email, '/resetpassword?token=');
  await page.goto(link.replace(/^https?:\/\/[^/]+/, ''));
  await page.getByLabel('New password', { exact: true }).fill('Second-Passw0rd!');
  await page.getByLabel('Confirm new password').fill('Second-Passw0rd!');
  await page.getByRole('button', { name: /reset|set|save|change/i }).click();
  await expect(page).toHaveURL(/\/login/);
  // The link works once only: opened again, it says so and offers a new link instead of the form.
  await page.goto(link.replace(/^https?:\/\/[^/]+/, ''));
  await expect(page.getByText('This link has already been used.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Request a new link' })).toBeVisible();
  await expect(page.getByLabel('New password', { exact: true })).toHaveCount(0);
});
