import { expect, test, type Page } from '@playwright/test';
import { waitForMailLink } from './support/mail-catcher';
import { uniqueEmail } from './support/session';

/** The error text shown on a labelled field (the element its aria-describedby points to). */
async function fieldError(page: Page, label: string): Promise<string> {
  const input = page.getByLabel(label, { exact: true }).first();
  await expect(input).toHaveAttribute('aria-describedby', /-error/);
  const ids = ((await input.getAttribute('aria-describedby')) ?? '').split(' ').filter((id) => id.endsWith('-error'));
  const texts = await Promise.all(ids.map((id) => page.locator(`[id="${id}"]`).innerText()));
  return texts.join(' ').trim();
}

test('sign-up shows a message written for a person on each field, client-side and from the server', async ({ page, request }) => {
  await page.goto('/signup');
  await page.getByLabel('Work email').fill('ab');
  await page.getByLabel('Password', { exact: true }).fill('short');
  await page.getByRole('button', { name: 'Create account' }).click();
  expect(await fieldError(page, 'Full name')).toBe('Please enter your name');
  expect(await fieldError(page, 'Work email')).toBe('Please enter a valid email address');
  expect(await fieldError(page, 'Password')).toBe('Password must be at least 8 characters');
  expect(await fieldError(page, 'How did you hear about us?')).toBe('Please choose how you heard about us');
  await expect(page.locator('body')).not.toContainText(/Too small|Invalid option|expected one of|signup_source|>=/);
  // No placeholder looks like a value typed in: none names an example person or address, and a field in error keeps
  // the grey placeholder colour (Mantine turned it red).
  await expect(page.getByLabel('Full name')).not.toHaveAttribute('placeholder', /.+/);
  await expect(page.getByLabel('Work email')).not.toHaveAttribute('placeholder', /.+/);
  const source = page.getByRole('combobox', { name: 'How did you hear about us?' });
  await expect(source).toHaveAttribute('placeholder', 'Choose one');
  const colours = await source.evaluate((e) => {
    const errorId = (e.getAttribute('aria-describedby') ?? '').split(' ').find((id) => id.endsWith('-error'));
    return { placeholder: getComputedStyle(e, '::placeholder').color, error: getComputedStyle(document.getElementById(errorId ?? '')!).color };
  });
  expect(colours.placeholder, 'the placeholder of a field in error is not the error colour').not.toBe(colours.error);

  // The server speaks the same language: a 400 with per-field reasons and a message without keys.
  const res = await request.post('/api/v1/user/signup', {
    headers: { 'x-app-version': '31.3.1' },
    data: { name: 'Ada', email: 'ab', password: 'Str0ng-Passw0rd!', signup_source: 'nope' },
  });
  expect(res.status()).toBe(400);
  const body = (await res.json()) as { error: { message: string; reasons: { field: string; messages: string[] }[] } };
  expect(body.error.message).toBe('Please enter a valid email address. Please choose how you heard about us.');
  expect(body.error.reasons.map((r) => r.field).sort()).toEqual(['email', 'signup_source']);
});

/** Signs up through the form and answers the text of the "Check your inbox" card. */
async function signUpInBrowser(page: Page, email: string): Promise<string> {
  await page.goto('/signup');
  await page.getByLabel('Full name').fill('Sam Someone');
  await page.getByLabel('Work email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('Str0ng-Passw0rd!');
  await page.getByRole('combobox', { name: 'How did you hear about us?' }).click();
  await page.getByRole('option', { name: 'Friends' }).click();
  await page.getByRole('button', { name: 'Create account' }).click();
  const card = page.getByText('We sent a message to');
  await expect(card).toBeVisible();
  return card.innerText();
}

test('sign-up for an address that has an account reads as for a new one, and mails its owner instead (issue 27.12)', async ({ page, request }) => {
  const taken = uniqueEmail('taken');
  const first = await request.post('/api/v1/user/signup', {
    headers: { 'x-app-version': '31.3.1' },
    data: { name: 'First Owner', email: taken, password: 'First-Passw0rd!', signup_source: 'friends' },
  });
  expect(first.status()).toBe(200);
  const fresh = uniqueEmail('fresh');
  const forNew = await signUpInBrowser(page, fresh);
  const forTaken = await signUpInBrowser(page, taken);
  expect(forTaken.replace(taken, 'X')).toBe(forNew.replace(fresh, 'X'));
  await expect(page.locator('body')).not.toContainText(/already exists|already registered/i);
  // The account's owner is told, with a link to reset the password; the second password opened nothing.
  const reset = await waitForMailLink(taken, '/resetpassword?token=');
  expect(reset).toContain('/resetpassword?token=');
  const login = await request.post('/api/v1/user/login', { headers: { 'x-app-version': '31.3.1' }, data: { email: taken, password: 'Str0ng-Passw0rd!' } });
  expect(login.status()).toBe(401);
});
