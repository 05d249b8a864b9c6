import { randomUUID } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { expect, test, type Page } from '@playwright/test';
import pg from 'pg';
import { E2E_APP_SECRET, MAIN_PORT } from './playwright.config';
import { startOwnServer } from './support/own-server';
import { DEMO_PASSWORD, DEMO_USERS } from './support/session';

/**
 * The operator console's infrastructure screens (issue 31 point 1): an operator retries a failed job and pauses a mail
 * host (a customer's verification for it waits, then resumes after the operator resumes the host). The spec runs its
 * own server on a PostgreSQL database of its own (E2E_DATABASE_URL, default the local server), so it can put a failed
 * job in pg-boss's table as a Stripe outage would leave it; the retry then runs through the real worker.
 */
const PORT = MAIN_PORT + 40;
const BASE = `http://127.0.0.1:${PORT}`;
const ADMIN_URL = process.env.E2E_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_NAME = `vl_e2e_ops_${randomUUID().slice(0, 8)}`;
const dbUrl = (() => {
  const u = new URL(ADMIN_URL);
  u.pathname = `/${DB_NAME}`;
  return u.toString();
})();

let server: ChildProcess | null = null;
let db: pg.Client;

test.describe.configure({ mode: 'serial', timeout: 300_000 });

test.beforeAll(async () => {
  test.setTimeout(300_000); // the server starts from scratch (migrations, demo data): slow on a busy machine
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${DB_NAME}`);
  await admin.end();
  server = await startOwnServer(PORT, { DATABASE_URL: dbUrl, PROSPECT_DEMO_DIRECTORY: 'false' }); // no directory needed here
  db = new pg.Client({ connectionString: dbUrl });
  await db.connect();
});

test.afterAll(async () => {
  await db?.end();
  if (server) {
    const exited = new Promise((resolve) => server!.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${DB_NAME} with (force)`);
  await admin.end();
});

/** A new operator through the ops command's call and the one-time link, signed in on `page`. */
async function signInOperator(page: Page): Promise<void> {
  const res = await fetch(`${BASE}/api/v1/ops/create_operator`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-ops-secret': E2E_APP_SECRET },
    body: JSON.stringify({ email: `ops-${Date.now()}@verilead.test` }),
  });
  const link = ((await res.json()) as { data: { url: string } }).data.url;
  await page.goto(link.replace(/^https?:\/\/[^/]+/, BASE));
  await page.getByLabel('New password').fill('Operator-Password-1');
  await page.getByLabel('Repeat the password').fill('Operator-Password-1');
  await page.getByRole('button', { name: 'Set password and sign in' }).click();
  await expect(page).toHaveURL(/\/ops\/orgs/);
}

/** The screen at 1366 and 375 px, each loaded afresh at that width (no toast, no navbar mid-transition). */
async function screenshots(page: Page, name: string, heading: string): Promise<void> {
  for (const width of [1366, 375]) {
    await page.setViewportSize({ width, height: width === 1366 ? 900 : 812 });
    await page.reload();
    await expect(page.getByRole('heading', { name: heading })).toBeVisible();
    await expect(page.getByText('Loading')).toHaveCount(0);
    await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

test('an operator retries a failed job: it runs again on the worker and leaves the failed list', async ({ page }) => {
  const id = randomUUID();
  const org = await db.query<{ id: string; name: string }>(`select id, name from organisations order by created_at limit 1`);
  await db.query(
    `insert into pgboss.job (id, name, data, state, retry_limit, retry_count, output, started_on, completed_on)
     values ($1, 'webhooks', $2, 'failed', 0, 0, $3, now() - interval '1 minute', now() - interval '1 minute')`,
    [id, JSON.stringify({ kind: 'billing-stripe-event', payload: { event_id: 'evt_e2e_not_stored' } }), JSON.stringify({ message: 'Stripe did not answer: connect ECONNREFUSED' })],
  );
  await db.query(`insert into job_status (id, queue, name, org_id) values ($1, 'webhooks', 'billing-stripe-event', $2)`, [id, org.rows[0]!.id]);

  await signInOperator(page);
  await page.getByRole('link', { name: 'Job queues' }).click();
  await expect(page.getByRole('heading', { name: 'Job queues' })).toBeVisible();
  const row = page.locator(`[data-testid="failed-job"][data-job-id="${id}"]`);
  await expect(row).toContainText('billing-stripe-event');
  await expect(row).toContainText('Stripe did not answer');
  await expect(row).toContainText(org.rows[0]!.name);
  await expect(page.locator('[data-testid="queue-row"][data-queue="webhooks"]')).toBeVisible();
  await screenshots(page, 'ops-queues', 'Job queues');

  await row.getByRole('button', { name: 'Retry' }).click();
  const dialog = page.getByRole('dialog', { name: 'Retry this job?' });
  await expect(dialog).toContainText(`It belongs to ${org.rows[0]!.name}`);
  await dialog.getByRole('button', { name: 'Retry job' }).click();
  await expect(page.getByText('Job retried')).toBeVisible();
  await expect(row).toHaveCount(0);
  await expect.poll(async () => (await db.query(`select state from pgboss.job where id = $1`, [id])).rows[0]?.state, { timeout: 30_000 }).toBe('completed');
  const audit = await db.query(`select action, target_id from audit_log where org_id = $1 and action = 'operator.job_retried'`, [org.rows[0]!.id]);
  expect(audit.rows).toEqual([{ action: 'operator.job_retried', target_id: id }]);
});

test("an operator pauses a mail host: a customer's verification for it waits, then resumes after the host is resumed", async ({ page, request }) => {
  await signInOperator(page);
  await page.getByRole('link', { name: 'Mail hosts' }).click();
  await expect(page.getByRole('heading', { name: 'Mail hosts' })).toBeVisible();
  await page.getByLabel('Mail host').fill('mx.strict.test');
  await page.getByLabel('Note').fill('e2e: holding strict.test');
  await page.getByRole('button', { name: 'Pause host' }).click();
  await page.getByRole('dialog', { name: 'Pause mx.strict.test?' }).getByRole('button', { name: 'Pause host' }).click();
  const banner = page.getByTestId('paused-hosts');
  await expect(banner.locator('[data-testid="paused-host"][data-host="mx.strict.test"]')).toContainText('e2e: holding strict.test');

  // the demo owner verifies an address at that host: the call waits (it is not answered unknown)
  const login = await request.post(`${BASE}/api/v1/user/login`, { data: { email: DEMO_USERS.owner, password: DEMO_PASSWORD }, headers: { 'x-app-version': '31.3.1' } });
  const token = ((await login.json()) as { data: { token: string } }).data.token;
  let answered = false;
  const verification = request
    .post(`${BASE}/api/v1/email_verify/instant`, { data: { email: 'nobody.here@strict.test' }, headers: { authorization: `Bearer ${token}`, 'x-app-version': '31.3.1' }, timeout: 60_000 })
    .finally(() => (answered = true));
  const hostRow = page.locator('[data-testid="mail-host"][data-exchange="mx.strict.test"]').first();
  await expect(hostRow).toContainText('Paused');
  await expect(hostRow).toContainText('0 /');
  expect(answered).toBe(false);
  await screenshots(page, 'ops-mail-hosts', 'Mail hosts');

  await banner.getByRole('button', { name: 'Resume' }).click();
  await page.getByRole('dialog', { name: 'Resume mx.strict.test?' }).getByRole('button', { name: 'Resume host' }).click();
  await expect(banner).toHaveCount(0);
  const res = await verification;
  expect(res.status()).toBe(200);
  const result = ((await res.json()) as { data: { status: string; reason: { code: string } } }).data;
  expect(`${result.status}/${result.reason.code}`).toBe('invalid/mailbox_not_found');
  await expect(hostRow).toContainText('Active');

  await page.getByRole('link', { name: 'Payments' }).click();
  await expect(page.getByRole('heading', { name: 'Payments' })).toBeVisible();
  await expect(page.getByText('No payment events')).toBeVisible();
  // two events as billing stores Stripe's webhooks: a declined payment of the demo organisation, and a success
  const org = await db.query<{ id: string; name: string }>(`select id, name from organisations order by created_at limit 1`);
  const event = (id: string, type: string, object: object) =>
    db.query(`insert into payment_events (provider, event_id, type, payload, processed_at) values ('stripe', $1, $2, $3, now())`, [id, type, JSON.stringify({ data: { object } })]);
  await event('evt_e2e_ok', 'payment_intent.succeeded', { amount: 4900, currency: 'usd', metadata: { org_id: org.rows[0]!.id } });
  await event('evt_e2e_declined', 'payment_intent.payment_failed', { amount: 9900, currency: 'usd', metadata: { org_id: org.rows[0]!.id }, last_payment_error: { message: 'Your card was declined.' } });
  await page.getByText('Failures', { exact: true }).click();
  const declined = page.locator('[data-testid="payment-event"]');
  await expect(declined).toHaveCount(1);
  await expect(declined).toContainText('payment_intent.payment_failed');
  await expect(declined).toContainText(org.rows[0]!.name);
  await expect(declined).toContainText('Your card was declined.');
  await page.getByText('All events', { exact: true }).click();
  await expect(page.locator('[data-testid="payment-event"]')).toHaveCount(2);
  await screenshots(page, 'ops-payments', 'Payments');
});
