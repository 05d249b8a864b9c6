import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Download, type Page } from '@playwright/test';
import { callApi, readOrgCredits } from './support/api';
import { DEMO_USERS, logInThroughForm } from './support/session';

// Every address below is served by the demo mail world the e2e server runs with
// (--demo-mail-world), so each verdict is known in advance (packages/mailworld/README.md).
// The user's own columns (name, company) must come back in every export, before the results.
const LIST_ROWS = [
  ['email', 'name', 'company'],
  ['alice@strict.test', 'Alice', 'Acme'], // valid
  ['john.smith@strict.test', 'John', 'Acme'], // valid
  ['no.such.user@strict.test', 'Nobody', 'Acme'], // invalid: mailbox_not_found
  ['john.smith@gmial.com', 'Typo', 'Gmial'], // invalid: domain_not_found
  ['anyone@acceptall.test', 'Any', 'Accept'], // catch_all
  ['grace@policy.test', 'Grace', 'Policy'], // unknown: verifier_blocked (not billed)
  ['ALICE@strict.test', 'Alice again', 'Acme'], // duplicate
  ['alice@strict.test', 'Alice thrice', 'Acme'], // duplicate
  ['not-an-email', 'Bad', 'None'], // syntax error
  ['bob@@strict.test', 'Bad too', 'None'], // syntax error
];

function writeCsv(name: string, rows: string[][]): string {
  const path = join(mkdtempSync(join(tmpdir(), 'verilead-e2e-')), name);
  writeFileSync(path, rows.map((row) => row.join(',')).join('\n') + '\n');
  return path;
}

async function uploadList(page: Page, path: string) {
  await page.goto('/email_verifier/add_list');
  await page.getByLabel('Choose a list file').setInputFiles(path);
  await expect(page.getByRole('table', { name: 'File preview' })).toBeVisible();
  await page.getByRole('button', { name: 'Upload list' }).click();
  await page.waitForURL(/\/email_verifier\/lists\/[0-9a-f-]+$/);
  await expect(page.getByRole('button', { name: 'Verify list' })).toBeVisible({ timeout: 30_000 });
  return page.url().split('/').pop() as string;
}

async function downloadFormat(page: Page, format: string, fileType: 'CSV' | 'XLSX' = 'CSV'): Promise<Download> {
  await page.getByRole('button', { name: 'Export' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(format, { exact: true }).check();
  await dialog.getByText(fileType, { exact: true }).click();
  await dialog.getByRole('button', { name: 'Download', exact: true }).click();
  await expect(dialog.getByText('Your file is ready')).toBeVisible({ timeout: 60_000 });
  const downloading = page.waitForEvent('download');
  await dialog.getByRole('link', { name: 'Download again' }).click();
  const download = await downloading;
  await dialog.getByRole('button', { name: 'Close' }).click();
  return download;
}

function csvLines(download: Download): Promise<string[]> {
  return download.path().then((path) => readFileSync(path as string, 'utf8').replace(/^\uFEFF/, '').trim().split(/\r?\n/));
}

async function csvEmails(download: Download): Promise<string[]> {
  const text = readFileSync((await download.path()) as string, 'utf8').trim();
  const [header, ...lines] = text.split(/\r?\n/);
  const columns = (header ?? '').split(',').map((cell) => cell.replace(/"/g, '').trim().toLowerCase());
  const index = columns.indexOf('email');
  expect(index).toBeGreaterThanOrEqual(0);
  return lines.map((line) => (line.split(',')[index] ?? '').replace(/"/g, '').trim().toLowerCase()).sort();
}

test.describe('email verifier', () => {
  test.describe.configure({ timeout: 300_000 });

  test('instant verification shows each kind of verdict', async ({ page }) => {
    await logInThroughForm(page, DEMO_USERS.owner);
    await page.goto('/email_verifier/quick_validation');
    const cases: Array<[string, RegExp, RegExp]> = [
      ['alice@strict.test', /^valid$/i, /accepted/i],
      ['no.such.user@strict.test', /^invalid$/i, /./],
      ['anyone@acceptall.test', /catch.?all/i, /./],
      ['grace@policy.test', /^unknown$/i, /./],
    ];
    for (const [email, status, reason] of cases) {
      await page.getByLabel('Email address').fill(email);
      await page.getByRole('button', { name: 'Verify', exact: true }).click();
      const card = page.getByTestId('verdict-card').filter({ has: page.getByTestId('verdict-email').filter({ hasText: email }) });
      await expect(card).toBeVisible({ timeout: 60_000 });
      await expect(card.getByTestId('verdict-status')).toHaveText(status);
      await expect(card.getByTestId('verdict-reason')).toHaveText(reason);
      // The reason is said once, beside the status (the card said it three times).
      const said = (await card.getByTestId('verdict-reason').textContent())!.replace(/\.$/, '');
      const cardText = (await card.textContent())!;
      expect(cardText.split(said).length - 1, `"${said}" in the card`).toBe(1);
      if (email === 'no.such.user@strict.test') {
        for (const width of [1366, 375]) {
          await page.setViewportSize({ width, height: width === 375 ? 812 : 768 });
          await card.scrollIntoViewIfNeeded();
          await page.screenshot({ path: join(import.meta.dirname, `../test-results/e2e/quick-validation-invalid-${width}.png`) });
        }
      }
    }
    // A typo'd provider gets a suggestion.
    await page.getByLabel('Email address').fill('john.smith@gmial.com');
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    await expect(page.getByTestId('verdict-suggestion')).toContainText('john.smith@gmail.com', { timeout: 60_000 });
    // The SMTP transcript is the evidence behind the verdict.
    await page.getByLabel('Email address').fill('alice@strict.test');
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    await page.getByRole('button', { name: /details/i }).click();
    await expect(page.getByTestId('smtp-transcript')).toContainText('RCPT TO:<alice@strict.test>');
  });

  test('a list with duplicates and bad rows is counted, costed, verified to 100% and downloaded in every format, custom columns included', async ({ page, request }) => {
    await logInThroughForm(page, DEMO_USERS.owner);
    const listId = await uploadList(page, writeCsv('leads.csv', LIST_ROWS));

    // Counted before any credit is spent: 10 rows, 2 duplicates, 2 syntax errors, 6 to verify.
    const list = await callApi<{ items: Array<{ id: string; stats: Record<string, number> }> }>(page, request, 'POST', '/email_verify/list', { search: 'leads' });
    const before = list.items.find((item) => item.id === listId);
    expect(before?.stats).toMatchObject({ total: 10, duplicate: 2, syntax_error: 2 });

    const creditsBefore = await readOrgCredits(page, request);
    await page.getByRole('button', { name: 'Verify list' }).click();
    const confirm = page.getByRole('dialog');
    await expect(confirm).toContainText('6');
    await confirm.getByRole('button', { name: /^Verify 6 addresses/ }).click();
    const progress = page.getByRole('progressbar', { name: 'Verification progress' });
    await expect(progress).toBeVisible();
    await expect(page.getByText('Verification complete')).toBeVisible({ timeout: 120_000 });
    await expect(progress).toHaveAttribute('aria-valuenow', '100');
    // The end of the job refreshes the progress: every unique address is counted, not the last poll's figure.
    await expect(page.getByText('6 of 6 unique addresses verified')).toBeVisible();

    // Billing rule: valid, invalid and catch_all are billed (5); unknown, duplicates and syntax errors are not.
    const creditsAfter = await readOrgCredits(page, request);
    expect(creditsBefore - creditsAfter).toBe(5);
    // The header follows without a reload, and shows the exact balance on hover.
    const exact = new Intl.NumberFormat('en-US').format(creditsAfter);
    // Exact below 100,000 credits (the demo's 10,000 among them), abbreviated above.
    await expect(page.getByTestId('credits-balance')).toHaveText(creditsAfter >= 100_000 ? /\d[kMB]$/ : exact);
    await page.getByTestId('credits-balance').hover();
    await expect(page.getByRole('tooltip')).toHaveText(`${exact} credits available`);

    // Every format keeps the uploaded row's columns, in order, followed by the result columns.
    const standard = await downloadFormat(page, 'Email with standard columns');
    const standardLines = await csvLines(standard);
    expect(standardLines[0]).toMatch(/^email,name,company,status,reason,/);
    expect(standardLines.find((line) => line.startsWith('alice@strict.test,Alice,'))).toMatch(/^alice@strict\.test,Alice,Acme,valid,/);
    expect(await csvEmails(standard)).toHaveLength(10);
    const guaranteedLines = await csvLines(await downloadFormat(page, 'Guaranteed deliverables'));
    expect(guaranteedLines[0]).toMatch(/^email,name,company,status,/);
    expect(await csvEmails(await downloadFormat(page, 'Guaranteed deliverables'))).toEqual(['alice@strict.test', 'john.smith@strict.test']);
    expect(await csvEmails(await downloadFormat(page, 'Non-deliverables'))).toEqual(
      ['bob@@strict.test', 'john.smith@gmial.com', 'no.such.user@strict.test', 'not-an-email'].sort(),
    );
    expect(await csvEmails(await downloadFormat(page, 'Deliverables with risk'))).toEqual(['anyone@acceptall.test', 'grace@policy.test']);
    // Custom: every row, with the columns the user chose.
    await page.getByRole('button', { name: 'Export' }).click();
    const custom = page.getByRole('dialog');
    await custom.getByLabel('Custom', { exact: true }).check();
    // The file's own columns can be chosen too: drop "company".
    await custom.getByRole('checkbox', { name: 'company', exact: true }).uncheck();
    await custom.getByRole('checkbox', { name: 'Suggested address' }).uncheck();
    await custom.getByRole('checkbox', { name: 'MX record' }).check();
    await custom.getByRole('button', { name: 'Download', exact: true }).click();
    await expect(custom.getByText('Your file is ready')).toBeVisible({ timeout: 60_000 });
    const customDownload = page.waitForEvent('download');
    await custom.getByRole('link', { name: 'Download again' }).click();
    const customFile = await customDownload;
    await custom.getByRole('button', { name: 'Close' }).click();
    const customHeader = readFileSync((await customFile.path()) as string, 'utf8').split(/\r?\n/)[0] ?? '';
    expect(customHeader).toMatch(/^\uFEFF?email,name,status,/);
    expect(customHeader).toMatch(/mx_record/i);
    expect(customHeader).not.toMatch(/suggested/i);
    expect(await csvEmails(customFile)).toHaveLength(10);

    const xlsx = await downloadFormat(page, 'Email with standard columns', 'XLSX');
    expect(xlsx.suggestedFilename()).toMatch(/\.xlsx$/);
    expect(readFileSync((await xlsx.path()) as string).subarray(0, 2).toString()).toBe('PK');
  });

  test('cancelling a running list stops it and bills only the finished rows', async ({ page, request }) => {
    await logInThroughForm(page, DEMO_USERS.owner);
    // A few strict addresses finish at once; greylist5.test greylists every new recipient for five minutes, so its
    // rows wait for their re-check and the list is certainly still running when it is cancelled (tarpit and
    // one-second greylisting alone finished within seconds on a fast machine, before the click).
    const rows = [['email'], ['alice@strict.test'], ['john.smith@strict.test'], ['no.such.user@strict.test']];
    const run = Date.now().toString(36);
    for (let i = 0; i < 60; i += 1) rows.push([`slow${i}.${run}@greylist5.test`]);
    const listId = await uploadList(page, writeCsv('slow.csv', rows));

    const creditsBefore = await readOrgCredits(page, request);
    await page.getByRole('button', { name: 'Verify list' }).click();
    await page.getByRole('dialog').getByRole('button', { name: /^Verify \d+ addresses/ }).click();
    await expect(page.getByRole('progressbar', { name: 'Verification progress' })).toBeVisible();
    await expect
      .poll(async () => (await callApi<{ verified?: number; processed?: number; progress?: number }>(page, request, 'GET', `/email_verify/bulk/progress_status?list_id=${listId}`)).progress ?? 0, {
        timeout: 60_000,
      })
      .toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Cancel verification' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel verification' }).click();
    await expect(page.getByText('Verification cancelled').first()).toBeVisible({ timeout: 60_000 });

    const lists = await callApi<{ items: Array<{ id: string; state: string; stats: Record<string, number> }> }>(page, request, 'POST', '/email_verify/list', { search: 'slow' });
    const cancelled = lists.items.find((item) => item.id === listId);
    expect(cancelled?.state).toBe('cancelled');
    const billed = creditsBefore - (await readOrgCredits(page, request));
    expect(billed).toBe(cancelled?.stats.billable_credits);
    expect(billed).toBeLessThan(63);
  });

  test('a member at the daily limit: the daily-limit message, and they stay on the page', async ({ page, request }) => {
    // The owner leaves the Executive no credits for today.
    await logInThroughForm(page, DEMO_USERS.owner);
    const members = await callApi<{ items: Array<{ member_id: string; email: string }> }>(page, request, 'POST', '/admin/member/list', { search: DEMO_USERS.executive });
    const executive = members.items.find((member) => member.email === DEMO_USERS.executive);
    const memberId = executive?.member_id;
    expect(memberId).toBeTruthy();
    await callApi(page, request, 'POST', '/admin/member/edit', { member_id: memberId, daily_remaining: 0 });

    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/\/login/);
    await logInThroughForm(page, DEMO_USERS.executive);
    await page.goto('/email_verifier/quick_validation');
    await page.getByLabel('Email address').fill('alice@strict.test');
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    const toast = page.getByRole('alert').filter({ hasText: 'Daily limit reached' });
    await expect(toast).toBeVisible();
    await expect(toast).toContainText('Your daily credit limit is reached. It resets at the start of the next day.');
    await expect(toast).not.toContainText('exhausted');
    await page.waitForTimeout(6_000); // longer than the owner's redirect to /pricing
    await expect(page).toHaveURL(/\/email_verifier\/quick_validation$/);
  });
});
