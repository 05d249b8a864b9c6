import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { closeWelcomeIfShown, DEMO_USERS, logInThroughForm, readStoredToken, uniqueEmail } from './support/session';

// Issue 28: the whole billing life of a new organisation, in the browser: credits bought with each test card and
// PayPal, a plan subscribed to (confirmation seen; the card entered on the checkout page from there), an upgrade
// with its proration preview, a downgrade, cancel and resume, then the invoices and their PDFs read back.

const PASSWORD = 'Billing-Life-Passw0rd!';
let token = '';
const api = () => ({ authorization: `Bearer ${token}`, 'x-app-version': '31.3.1' });

async function orgCredits(request: APIRequestContext): Promise<number> {
  const res = await request.get('/api/v1/user/credits_and_limits', { headers: api() });
  return ((await res.json()) as { data: { org_credits: number } }).data.org_credits;
}

/** Buys `credits` from the header's modal and lands on the fake Stripe's checkout page. */
async function startBuying(page: Page, credits: number, total: string) {
  await page.goto('/');
  await closeWelcomeIfShown(page);
  await page.getByRole('link', { name: 'Add credits' }).click();
  const dialog = page.getByRole('dialog', { name: 'Buy credits' });
  await dialog.getByLabel('Credits').fill(String(credits));
  await expect(dialog.getByTestId('quote-total')).toHaveText(total);
  await dialog.getByRole('button', { name: `Pay ${total}` }).click();
  await expect(page.getByRole('heading', { name: `Pay USD ${total.replace('$', '')}` })).toBeVisible();
}

async function shoot(page: Page, name: string) {
  for (const width of [1366, 375]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await page.screenshot({ path: `test-results/e2e/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

type TInvoice = { id: string; number: string | null; status: string; total: number; kind: string; plan_name: string | null };

async function pdfText(request: APIRequestContext, kind: 'invoice' | 'receipt', id: string): Promise<string> {
  const res = await request.get(`/api/v1/${kind}/download?id=${id}`, { headers: api() });
  expect(res.status()).toBe(200);
  const dir = mkdtempSync(join(tmpdir(), 'billing-life-'));
  writeFileSync(join(dir, 'doc.pdf'), await res.body());
  return execFileSync('pdftotext', ['-layout', join(dir, 'doc.pdf'), '-'], { encoding: 'utf8' });
}

test('the billing life of an organisation: credits with every test card and PayPal, subscribe, upgrade, downgrade, cancel, resume, invoices', async ({ page, request }) => {
  test.setTimeout(240_000);
  const email = uniqueEmail('billing-life');
  const signup = await request.post('/api/v1/user/signup', { headers: { 'x-app-version': '31.3.1' }, data: { name: 'Bea Billing', email, password: PASSWORD, signup_source: 'search_engines' } });
  expect(signup.ok()).toBe(true);
  await logInThroughForm(page, email, PASSWORD);
  token = await readStoredToken(page);
  let balance = await orgCredits(request);

  // ----- credits with each test card -----
  await startBuying(page, 5000, '$40.00');
  await page.getByRole('button', { name: /Visa 4242 4242 4242 4242/ }).click();
  await expect(page.getByRole('heading', { name: 'Thank you!' })).toBeVisible();
  balance += 5000;
  await expect(page.getByTestId('balance-after')).toHaveText(`Your balance is now ${balance.toLocaleString('en-US')} credits.`);

  await startBuying(page, 2000, '$16.00');
  await page.getByRole('button', { name: /0002 \(declined\)/ }).click();
  await expect(page.getByRole('alert')).toHaveText('Your card was declined.');
  expect(await orgCredits(request)).toBe(balance);
  await page.getByRole('button', { name: /Mastercard/ }).click();
  await expect(page.getByRole('heading', { name: 'Thank you!' })).toBeVisible();
  balance += 2000;

  await startBuying(page, 1000, '$8.00');
  await page.getByRole('button', { name: /authentication required/ }).click();
  await page.getByRole('button', { name: 'Fail authentication' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'unable to authenticate' })).toBeVisible();
  expect(await orgCredits(request)).toBe(balance);
  await page.getByRole('button', { name: /authentication required/ }).click();
  await page.getByRole('button', { name: 'Complete authentication' }).click();
  await expect(page.getByRole('heading', { name: 'Thank you!' })).toBeVisible();
  balance += 1000;

  // An abandoned checkout: the page is left without paying.
  await startBuying(page, 4000, '$32.00');

  await page.goto('/pricing?buy=1');
  const buy = page.getByRole('dialog', { name: 'Buy credits' });
  await buy.getByLabel('Credits').fill('3000');
  await expect(buy.getByTestId('quote-total')).toHaveText('$24.00');
  await buy.getByRole('button', { name: 'PayPal' }).click();
  await page.getByRole('button', { name: 'Pay with PayPal balance' }).click();
  await expect(page.getByRole('heading', { name: 'Thank you!' })).toBeVisible();
  balance += 3000;
  await expect.poll(() => orgCredits(request)).toBe(balance);

  // ----- billing details printed on invoices (owner, billing screen) -----
  await page.goto('/account/billing');
  await page.getByLabel('Name to bill').fill('Bea Billing Ltd');
  await page.getByLabel('Address').fill('7 Ledger Lane, Bristol BS1 4DJ');
  await page.getByLabel('Tax id').fill('GB123456789');
  await page.getByRole('button', { name: 'Save billing details' }).click();
  await expect(page.getByText('Your next invoices print them.')).toBeVisible();

  // ----- subscribe: nothing is charged before the confirmation; no card yet, so the card is entered from there -----
  await page.goto('/pricing');
  await expect(page.getByRole('button', { name: 'Buy 10k credits once' })).toBeVisible();
  await page.getByRole('button', { name: 'Subscribe Starter (Monthly)' }).click();
  let confirm = page.getByRole('dialog', { name: 'Subscribe: Starter (Monthly)' });
  await expect(confirm.getByTestId('amount-due')).toHaveText('$48.00');
  await expect(confirm.getByText('No card is saved yet.', { exact: false })).toBeVisible();
  expect(await orgCredits(request)).toBe(balance);
  await confirm.getByRole('button', { name: 'Enter a card' }).click();
  await expect(page.getByRole('heading', { name: 'Add a card' })).toBeVisible();
  await page.getByRole('button', { name: /Visa 4242 4242 4242 4242/ }).click();
  // Back on the pricing screen, the card is saved and the same confirmation asks before charging it.
  await expect(page).toHaveURL(/\/pricing$/);
  confirm = page.getByRole('dialog', { name: 'Subscribe: Starter (Monthly)' });
  await expect(confirm.getByTestId('amount-due')).toHaveText('$48.00');
  await expect(confirm.getByText(/10,000 credits are added once paid\. The plan renews on \d{1,2} \w{3} \d{4} at \$48\.00 per month\./)).toBeVisible();
  await expect(confirm.getByText('Charged to your visa card ending in 4242.')).toBeVisible();
  expect(await orgCredits(request)).toBe(balance);
  await shoot(page, 'billing-life-subscribe-confirm');
  await confirm.getByRole('button', { name: 'Pay $48.00' }).click();
  await expect(page.getByText('You are now on Starter. $48.00 charged.')).toBeVisible();
  balance += 10000;
  await expect.poll(() => orgCredits(request)).toBe(balance);
  await expect(page.getByRole('button', { name: 'Starter (Monthly) is your current plan' })).toHaveText('Current plan');
  await expect(page.getByText(/\$48\.00 per month · 10,000 credits · 1 member seat · renews \d{1,2} \w{3} \d{4}/)).toBeVisible();

  // ----- upgrade, with the unused time of Starter credited in the preview -----
  await page.getByRole('button', { name: 'Switch Growth (Monthly)' }).click();
  confirm = page.getByRole('dialog', { name: 'Upgrade: Growth (Monthly)' });
  await expect(confirm.getByRole('table', { name: 'Charge today' })).toContainText('Unused time on Verilead Starter');
  const due = (await confirm.getByTestId('amount-due').textContent()) ?? '';
  const dueAmount = Number(due.replace(/[$,]/g, ''));
  expect(dueAmount).toBeGreaterThan(190);
  expect(dueAmount).toBeLessThan(240);
  await shoot(page, 'billing-life-upgrade-confirm');
  await confirm.getByRole('button', { name: `Pay ${due}` }).click();
  await expect(page.getByText(`You are now on Growth. ${due} charged.`)).toBeVisible();
  balance += 50000;
  await expect.poll(() => orgCredits(request)).toBe(balance);
  await expect(page.getByText(/\$240\.00 per month · 50,000 credits · 5 member seats/)).toBeVisible();

  // ----- downgrade: nothing to pay, the rest kept as credit -----
  await page.getByRole('button', { name: 'Switch Starter (Monthly)' }).click();
  confirm = page.getByRole('dialog', { name: 'Downgrade: Starter (Monthly)' });
  await expect(confirm.getByTestId('amount-due')).toHaveText('$0.00');
  await expect(confirm.getByText(/is kept as credit for your next invoices/)).toBeVisible();
  await confirm.getByRole('button', { name: 'Confirm downgrade' }).click();
  await expect(page.getByText('You are now on Starter. $0.00 charged.')).toBeVisible();
  balance += 10000;
  await expect.poll(() => orgCredits(request)).toBe(balance);

  // ----- the plan screen: cancel, then resume -----
  await page.goto('/account/plan');
  await expect(page.getByRole('heading', { name: 'Starter' })).toBeVisible();
  await expect(page.getByText('$48.00 per month')).toBeVisible();
  await expect(page.getByText('Paid with the visa card ending in 4242')).toBeVisible();
  await expect(page.getByText('Renews on')).toBeVisible();
  await page.getByRole('button', { name: 'Cancel subscription' }).click();
  const cancel = page.getByRole('dialog', { name: 'Cancel subscription' });
  await cancel.getByLabel('Why do you cancel?').fill('Trying the whole life');
  await cancel.getByRole('button', { name: 'Cancel subscription' }).click();
  await expect(page.getByText('Cancels on', { exact: true })).toBeVisible();
  await expect(page.getByText('Renews on')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Resume subscription' })).toBeVisible();
  await shoot(page, 'billing-life-plan-cancelled');
  await page.goto('/pricing');
  await expect(page.getByText(/^Cancels on \d{1,2} \w{3} \d{4}$/)).toBeVisible();
  await expect(page.getByText(/ · renews /)).toHaveCount(0);
  await page.goto('/account/plan');
  await page.getByRole('button', { name: 'Resume subscription' }).click();
  await expect(page.getByText('Renews on')).toBeVisible();
  await expect(page.getByText('Cancels on', { exact: true })).toHaveCount(0);
  await shoot(page, 'billing-life-plan');
  expect(await orgCredits(request)).toBe(balance);

  // ----- invoices: only payments made, numbered without gaps; their PDFs read back -----
  await page.goto('/account/billing');
  const table = page.getByRole('table', { name: 'Invoices' });
  await expect(table.getByRole('row')).toHaveCount(1 + 7);
  await expect(table.getByText('Draft')).toHaveCount(0);
  await shoot(page, 'billing-life-billing');
  const list = ((await (await request.get('/api/v1/invoice/list?limit=50', { headers: api() })).json()) as { data: { items: TInvoice[] } }).data.items;
  expect(list.map((i) => i.status)).toEqual(Array(7).fill('paid'));
  const numbers = list.map((i) => Number(i.number!.slice(4))).reverse();
  expect(numbers).toEqual(numbers.map((_, i) => numbers[0]! + i));
  expect(list.map((i) => i.plan_name)).toEqual(['Starter', 'Growth', 'Starter', null, null, null, null]);
  expect(list.map((i) => i.total)).toEqual([0, dueAmount, 48, 24, 8, 16, 40]);
  // The abandoned checkout waits as a pending draft, without a number; the declined and failed attempts are not listed.
  const pending = ((await (await request.get('/api/v1/invoice/pending_list', { headers: api() })).json()) as { data: { items: TInvoice[] } }).data.items;
  expect(pending.map((i) => [i.number, i.total])).toEqual([[null, 32]]);

  // The invoice PDF downloaded from the screen, and the others through the API.
  const download = page.waitForEvent('download');
  await table.getByRole('row').filter({ hasText: list[1]!.number! }).getByRole('button', { name: 'PDF' }).click();
  const file = await download;
  const dir = mkdtempSync(join(tmpdir(), 'billing-life-dl-'));
  await file.saveAs(join(dir, 'growth.pdf'));
  const growth = execFileSync('pdftotext', ['-layout', join(dir, 'growth.pdf'), '-'], { encoding: 'utf8' });
  expect(growth).toContain(`Invoice ${list[1]!.number}`);
  expect(growth).toContain('Billed to: Bea Billing Ltd');
  expect(growth).toContain('7 Ledger Lane, Bristol BS1 4DJ');
  expect(growth).toContain('Tax id: GB123456789');
  expect(growth).toMatch(/Plan Growth \(monthly\), \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}: 50,000 credits/);
  expect(growth).toMatch(/Credit for unused time\s+- USD \d+\.\d{2}/);
  expect(growth).toMatch(new RegExp(`Total\\s+USD ${dueAmount.toFixed(2)}`));
  const receipt = await pdfText(request, 'receipt', list[6]!.id);
  expect(receipt).toContain(`Receipt ${list[6]!.number}`);
  expect(receipt).toMatch(/5,000 credits\s+USD 40\.00/);
  expect(receipt).toContain('Payment by card.');
  const paypal = await pdfText(request, 'invoice', list[3]!.id);
  expect(paypal).toMatch(/3,000 credits\s+USD 24\.00/);
  expect(paypal).toContain('Payment by PayPal.');
  const starter = await pdfText(request, 'invoice', list[2]!.id);
  expect(starter).toMatch(/Plan Starter \(monthly\), \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}: 10,000 credits\s+USD 48\.00/);
});

test('a manager sees the plan screen (not bounced to the dashboard) without the owner’s actions', async ({ page }) => {
  await logInThroughForm(page, DEMO_USERS.manager);
  await page.goto('/account/plan');
  await expect(page).toHaveURL(/\/account\/plan$/);
  await expect(page.getByRole('heading', { name: 'Plan', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cancel subscription' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Resume subscription' })).toHaveCount(0);
  await shoot(page, 'billing-life-plan-manager');
});
