import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { CLEVERTAP_FAKE_ACCOUNT_ID, GHL_FAKE_LOCATION_ID, startClevertapFake, startGoHighLevelFake, type TFakeMember, type TFakePlatform } from '@verilead/test-doubles/platforms';
import { MAIN_PORT } from './playwright.config';
import { startOwnServer } from './support/own-server';
import { closeWelcomeIfShown, DEMO_USERS, logInThroughForm } from './support/session';

// Its own server (same build, demo mail world) whose CleverTap and GoHighLevel base URLs point at local fakes started
// here: the region picker, the account / location IDs, import, verification and write-back run with no internet.
const PORT = MAIN_PORT + 19;
const BASE = `http://127.0.0.1:${PORT}`;
const root = join(import.meta.dirname, '..');
const PASSCODE = 'ABC-DEF-GHIJ-e2e-passcode';
const GHL_TOKEN = 'pit-e2e-0000-1111-2222-333333333333';

// Demo mail world verdicts: acceptall.test accepts everyone (catch_all); unknown users of strict.test are invalid.
const members: TFakeMember[] = Array.from({ length: 9 }, (_, i) => ({
  id: `profile-${i}`,
  email: i % 3 === 0 ? `no.such.user${i}@strict.test` : `anyone${i}@acceptall.test`,
  firstName: `First${i}`,
  lastName: `Last${i}`,
}));

let clevertap: TFakePlatform;
let ghl: TFakePlatform;
let server: ChildProcess;

test.beforeAll(async () => {
  // A second server starting on a machine shared with other suites can take longer than the default hook timeout.
  test.setTimeout(180_000);
  clevertap = await startClevertapFake({ apiKey: PASSCODE, lists: [{ id: 'App Launched', name: 'App Launched', members }] });
  ghl = await startGoHighLevelFake({ apiKey: GHL_TOKEN, lists: [{ id: 't1', name: 'webinar signups', members: members.slice(0, 4) }] });
  server = await startOwnServer(PORT, {
    PROSPECT_DEMO_DIRECTORY: 'false', // no directory needed here
    INTEGRATION_BASE_URLS: `clevertap=${clevertap.baseUrl}/{region}/1,go_high_level=${ghl.baseUrl}`,
  });
});

test.afterAll(async () => {
  server?.kill('SIGTERM');
  await clevertap?.close();
  await ghl?.close();
});

test.use({ baseURL: BASE });

test('connect CleverTap in its region, import the profiles of an event, verify them and write the results back', async ({ page }) => {
  test.setTimeout(120_000);
  await logInThroughForm(page, DEMO_USERS.owner);
  await page.goto('/integrations');
  await closeWelcomeIfShown(page);
  await page.getByTestId('integration-clevertap').getByRole('link', { name: 'Connect' }).click();
  await expect(page).toHaveURL(/\/integrations\/clevertap\/connect$/);

  // The right keys in the wrong region: CleverTap's refusal sits on the form and nothing is saved.
  await page.getByLabel('Account name').fill('Mobile app');
  await page.getByRole('combobox', { name: 'Region' }).click();
  await page.getByRole('option', { name: 'United States (us1)' }).click();
  await page.getByRole('textbox', { name: 'Account ID' }).fill(CLEVERTAP_FAKE_ACCOUNT_ID);
  await page.getByLabel('Passcode').fill(PASSCODE);
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(page.getByText(/CleverTap did not accept these credentials/)).toBeVisible();
  await page.getByRole('combobox', { name: 'Region' }).click();
  await page.getByRole('option', { name: 'India (in1)' }).click();
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(page).toHaveURL(/\/integrations\/clevertap$/);

  const lists = page.getByTestId('remote-lists');
  await expect(lists).toContainText('App Launched (last 30 days)');
  await page.getByRole('button', { name: 'Verify App Launched (last 30 days)' }).click();
  const dialog = page.getByRole('dialog', { name: 'Verify "App Launched (last 30 days)"' });
  await dialog.getByLabel('Unsubscribe undeliverable contacts').check();
  await dialog.getByRole('button', { name: 'Import and verify' }).click();
  await expect(dialog).toBeHidden();

  const imports = page.getByTestId('imports-table');
  await expect(imports.getByText('Completed')).toBeVisible({ timeout: 90_000 });
  await expect(imports).toContainText('9 verified, 9 written back');
  await page.screenshot({ path: join(root, 'test-results/e2e/integrations-clevertap.png'), fullPage: true });
  expect(clevertap.writes.filter((w) => w.kind === 'unsubscribe').map((w) => w.email).sort()).toEqual(members.filter((m) => m.email.startsWith('no.such')).map((m) => m.email).sort());
  expect(clevertap.writes.filter((w) => w.kind === 'fields')).toHaveLength(members.length);
});

test('connect GoHighLevel with its location ID: its tags are the lists', async ({ page }) => {
  await logInThroughForm(page, DEMO_USERS.owner);
  await page.goto('/integrations/go_high_level/connect');
  await closeWelcomeIfShown(page);
  await page.getByLabel('Account name').fill('Agency');
  await page.getByRole('textbox', { name: 'Location ID' }).fill(GHL_FAKE_LOCATION_ID);
  await page.getByLabel('Private integration token').fill(GHL_TOKEN);
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(page).toHaveURL(/\/integrations\/go_high_level$/);
  await expect(page.getByTestId('remote-lists')).toContainText('webinar signups');
});
