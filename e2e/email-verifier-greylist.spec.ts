import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { MAIN_PORT } from './playwright.config';
import { startOwnServer } from './support/own-server';
import { DEMO_USERS, logInThroughForm } from './support/session';

// A real greylisting wait, watched in the browser. This spec runs its own server (same build, demo mail world) whose
// greylist.test greylists every new (client, sender, recipient) triplet for GREYLIST_MS (DEMO_GREYLIST_DELAY_MS), and
// whose verifier re-checks greylisted addresses just after that. A list of strict, catch-all and greylisted addresses
// is verified: the greylisted ones wait for their re-check while the others' results are already on screen (the list
// page and the lists overview both say how many wait and when), then the re-check answers them and the list completes.
const PORT = MAIN_PORT + 22;
const BASE = `http://127.0.0.1:${PORT}`;
const GREYLIST_MS = 40_000;

let server: ChildProcess;

test.beforeAll(async () => {
  // The server starts from scratch (migrations, demo data): give it the 240 s its wait loop allows on a busy machine.
  test.setTimeout(270_000);
  server = await startOwnServer(PORT, {
    // no prospect directory needed here: skip seeding its 20,000 demo people
    PROSPECT_DEMO_DIRECTORY: 'false',
    DEMO_GREYLIST_DELAY_MS: String(GREYLIST_MS),
  });
});

test.afterAll(() => {
  server?.kill('SIGTERM');
});

test.use({ baseURL: BASE });

test('greylisted addresses wait for their re-check while the other results show, on the list and the lists overview, then the list completes', async ({ page }) => {
  test.setTimeout(240_000);
  await logInThroughForm(page, DEMO_USERS.owner);
  const dir = mkdtempSync(join(tmpdir(), 'verilead-e2e-'));
  const path = join(dir, 'greylist-wait.csv');
  const answeredAtOnce = ['alice@strict.test', 'john.smith@strict.test', 'no.such.user@strict.test', 'anyone@acceptall.test'];
  const greylisted = ['carol@greylist.test', 'carol.white@greylist.test', 'ghost@greylist.test'];
  writeFileSync(path, ['email', ...answeredAtOnce, ...greylisted].join('\n') + '\n');
  await page.goto('/email_verifier/add_list');
  await page.getByLabel('Choose a list file').setInputFiles(path);
  await expect(page.getByRole('table', { name: 'File preview' })).toBeVisible();
  await page.getByRole('button', { name: 'Upload list' }).click();
  await page.waitForURL(/\/email_verifier\/lists\/[0-9a-f-]+$/);
  const listUrl = page.url();
  await expect(page.getByRole('button', { name: 'Verify list' })).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Verify list' }).click();
  await page.getByRole('dialog').getByRole('button', { name: /^Verify 7 addresses/ }).click();

  // The first pass answers the four at once; the three greylisted ones wait for a re-check GREYLIST_MS later.
  const wait = page.getByTestId('greylist-wait');
  await expect(wait).toContainText('3 addresses wait for a greylist re-check at', { timeout: GREYLIST_MS / 2 });
  await expect(wait).toContainText(/at \d{2}:\d{2}/);
  await expect(page.getByText('4 of 7 unique addresses verified')).toBeVisible();
  await expect(page.getByTestId('verification-percent')).toHaveText('57%');
  await page.screenshot({ path: 'test-results/greylist-wait.png', fullPage: true });

  // The lists overview says it too, in the list's row.
  await page.goto('/email_verifier/lists');
  const row = page.getByTestId('list-row').filter({ hasText: 'greylist-wait' });
  await expect(row.getByTestId('list-greylist-wait')).toContainText(/^3 addresses wait for a greylist re-check at \d{2}:\d{2}$/);

  // After the re-check every address has its answer and the list is complete.
  await page.goto(listUrl);
  await expect(page.getByText('Verification complete')).toBeVisible({ timeout: GREYLIST_MS + 90_000 });
  await expect(page.getByText('7 of 7 unique addresses verified')).toBeVisible();
  await expect(page.getByTestId('greylist-wait')).toHaveCount(0);
});
