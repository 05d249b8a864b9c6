import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { FAKE_MAILCHIMP_CLIENT, startKitFake, startMailchimpFake, type TFakeMember, type TFakePlatform } from '@verilead/test-doubles/platforms';
import { MAIN_PORT } from './playwright.config';
import { startOwnServer } from './support/own-server';
import { closeWelcomeIfShown, DEMO_USERS, logInThroughForm } from './support/session';

// This spec runs its own server (same build, demo mail world) whose integration base URLs point at local fakes of
// Mailchimp and Kit started here, so connect → import → verify → write back runs against the platforms' real
// protocols with no internet.
const PORT = MAIN_PORT + 20;
const BASE = `http://127.0.0.1:${PORT}`;
const root = join(import.meta.dirname, '..');
const MAILCHIMP_KEY = '0123456789abcdef0123456789abcdef-us19';
const KIT_KEY = 'kit_0123456789abcdef0123456789abcdef';

// Demo mail world verdicts: acceptall.test accepts everyone (catch_all); unknown users of strict.test are invalid.
const members: TFakeMember[] = Array.from({ length: 12 }, (_, i) => ({
  id: String(500 + i),
  email: i % 4 === 0 ? `no.such.user${i}@strict.test` : `anyone${i}@acceptall.test`,
  firstName: `First${i}`,
  lastName: `Last${i}`,
}));

let mailchimp: TFakePlatform;
let kit: TFakePlatform;
let server: ChildProcess;

test.beforeAll(async () => {
  // The server starts from scratch (migrations, demo data): give it the 240 s its wait loop allows on a busy machine.
  test.setTimeout(270_000);
  mailchimp = await startMailchimpFake({ apiKey: MAILCHIMP_KEY, lists: [{ id: 'aud1', name: 'Customers', members }] });
  kit = await startKitFake({ apiKey: KIT_KEY, lists: [{ id: '77', name: 'Trial users', members: members.slice(0, 3) }] });
  server = await startOwnServer(PORT, {
    // Integrations need no prospect directory: skip seeding its 20,000 demo people.
    PROSPECT_DEMO_DIRECTORY: 'false',
    INTEGRATION_BASE_URLS: `mailchimp=${mailchimp.baseUrl},kit=${kit.baseUrl}`,
    // "Connect with Mailchimp": the fake's OAuth server (consent page, /oauth2/token, /oauth2/metadata).
    MAILCHIMP_CLIENT_ID: FAKE_MAILCHIMP_CLIENT.clientId,
    MAILCHIMP_CLIENT_SECRET: FAKE_MAILCHIMP_CLIENT.clientSecret,
    MAILCHIMP_OAUTH_URL: new URL(mailchimp.baseUrl).origin,
  });
});

test.afterAll(async () => {
  server?.kill('SIGTERM');
  await mailchimp?.close();
  await kit?.close();
});

test.use({ baseURL: BASE });

test('connect Mailchimp, import an audience, verify it and write the results back', async ({ page }) => {
  test.setTimeout(120_000);
  await logInThroughForm(page, DEMO_USERS.owner);

  await page.goto('/integrations');
  await closeWelcomeIfShown(page);
  await expect(page.getByTestId('integration-automizy')).toContainText('Automizy has shut down');
  await page.getByTestId('integration-mailchimp').getByRole('link', { name: 'Connect' }).click();
  await expect(page).toHaveURL(/\/integrations\/mailchimp\/connect$/);

  // A wrong key: the platform's refusal sits on the key field and nothing is saved.
  await page.getByTestId('api-key-connect').getByLabel('Account name').fill('Main audience');
  await page.getByLabel('API key').fill('ffffffffffffffffffffffffffffffff-us19');
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(page.getByText(/Mailchimp did not accept these credentials/)).toBeVisible();
  await page.getByLabel('API key').fill(MAILCHIMP_KEY);
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(page).toHaveURL(/\/integrations\/mailchimp$/);

  const lists = page.getByTestId('remote-lists');
  await expect(lists).toContainText('Customers');
  await page.getByRole('button', { name: 'Verify Customers' }).click();
  const dialog = page.getByRole('dialog', { name: 'Verify "Customers"' });
  await dialog.getByLabel('Unsubscribe undeliverable contacts').check();
  await dialog.getByRole('button', { name: 'Import and verify' }).click();
  await expect(dialog).toBeHidden();

  const imports = page.getByTestId('imports-table');
  await expect(imports).toContainText('Customers');
  await expect(imports.getByText('Completed')).toBeVisible({ timeout: 90_000 });
  await expect(imports).toContainText('12 verified, 12 written back');
  await page.screenshot({ path: join(root, 'test-results/e2e/integrations-imports.png'), fullPage: true });

  // The fake recorded the write-back: undeliverable members unsubscribed, result fields on everyone.
  expect(mailchimp.writes.filter((w) => w.kind === 'unsubscribe').map((w) => w.email).sort()).toEqual(members.filter((m) => m.email.startsWith('no.such')).map((m) => m.email).sort());
  expect(mailchimp.writes.filter((w) => w.kind === 'fields')).toHaveLength(members.length);

  // The imported list is a verifier list whose source is the platform.
  await imports.getByRole('link', { name: 'Customers' }).click();
  await expect(page).toHaveURL(/\/email_verifier\/lists\/[0-9a-f-]+$/);

  await page.goto('/integrations/connected_accounts');
  await expect(page.getByTestId('linked-accounts')).toContainText('Main audience');
});

test('Kit asks for a paid plan first: "No, Cancel" connects nothing, "Yes, Continue" connects', async ({ page }) => {
  await logInThroughForm(page, DEMO_USERS.owner);
  await page.goto('/integrations/kit/connect');
  await closeWelcomeIfShown(page);
  await page.getByLabel('Account name').fill('Creator');
  await page.getByLabel('V4 API key').fill(KIT_KEY);
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Connect Kit' });
  await expect(dialog).toContainText('paid plan');
  await dialog.getByRole('button', { name: 'No, Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/integrations\/kit\/connect$/);
  expect(kit.requests.filter((r) => r.path === '/account')).toHaveLength(0);

  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await dialog.getByRole('button', { name: 'Yes, Continue' }).click();
  await expect(page).toHaveURL(/\/integrations\/kit$/);
  await expect(page.getByTestId('remote-lists')).toContainText('Trial users');
  await page.screenshot({ path: join(root, 'test-results/e2e/integrations-kit.png'), fullPage: true });
});

test('Connect with Mailchimp: the consent page → Allow → back in the app, the account is listed', async ({ page }) => {
  test.setTimeout(60_000);
  await logInThroughForm(page, DEMO_USERS.owner);
  await page.goto('/integrations/mailchimp/connect');
  await closeWelcomeIfShown(page);
  const oauth = page.getByTestId('oauth-connect');
  await oauth.getByLabel('Account name').fill('OAuth audience');
  await oauth.getByRole('button', { name: 'Connect with Mailchimp' }).click();

  // Mailchimp's own page (the local fake's): who asks, for which account, Allow / Deny.
  await expect(page).toHaveURL((u) => u.origin === new URL(mailchimp.baseUrl).origin && u.pathname === '/oauth2/authorize');
  await expect(page.getByText('Verilead would like to access the Mailchimp account')).toBeVisible();
  await page.getByRole('button', { name: 'Allow' }).click();

  // Back on the connect screen with code and state: the app finishes the connection and opens Mailchimp.
  await expect(page).toHaveURL(/\/integrations\/mailchimp$/, { timeout: 30_000 });
  await expect(page.getByTestId('remote-lists')).toContainText('Customers');
  expect(mailchimp.requests.some((r) => r.path === '/oauth2/token')).toBe(true);
  expect(mailchimp.requests.some((r) => r.path === '/oauth2/metadata')).toBe(true);

  await page.goto('/integrations/connected_accounts');
  const linked = page.getByTestId('linked-accounts');
  await expect(linked).toContainText('OAuth audience');
  await expect(linked).toContainText('Fake Chimp Co');
  await page.screenshot({ path: join(root, 'test-results/e2e/integrations-mailchimp-oauth.png'), fullPage: true });
});
