import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { callApi } from './support/api';
import { closeWelcomeIfShown, DEMO_USERS, logInThroughForm } from './support/session';

// The twelve presets of the spec (packages/contracts/src/date-presets.ts), as the range picker names them.
const PRESETS: [string, string][] = [
  ['today', 'Today'],
  ['yesterday', 'Yesterday'],
  ['this_week', 'This week'],
  ['last_7_days', 'Last 7 days'],
  ['last_week', 'Last week'],
  ['this_month', 'This month'],
  ['last_month', 'Last month'],
  ['this_year', 'This year'],
  ['last_30_days', 'Last 30 days'],
  ['last_year', 'Last year'],
  ['last_24_hours', 'Last 24 hours'],
  ['last_two_years', 'Last two years'],
];
const SHOTS = join(import.meta.dirname, '..', 'test-results');

async function pickRange(page: Page, label: string) {
  await page.getByRole('combobox', { name: 'Date range' }).click();
  await page.getByRole('option', { name: label, exact: true }).click();
}

test.describe('analytics and the dashboard', () => {
  test.describe.configure({ timeout: 240_000 });

  test('the owner spends credits, then sees them on every analytics screen, with every preset and as CSV', async ({ page, request }) => {
    await logInThroughForm(page, DEMO_USERS.owner);
    // Seed usage through the product: two instant verifications and one instant search against the mail world.
    await callApi(page, request, 'POST', '/email_verify/instant', { email: 'alice@strict.test' });
    await callApi(page, request, 'POST', '/email_verify/instant', { email: 'no.such.user@strict.test' });
    await callApi(page, request, 'POST', '/email_finder/instant', { name: 'John Smith', domain: 'strict.test' });

    await page.goto('/analytics?range=last_7_days');
    await closeWelcomeIfShown(page);
    await expect(page.getByRole('heading', { name: 'Analytics' })).toBeVisible();
    await expect(page.getByText('Credits used').first()).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Credits used over time' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Billable split' })).toBeVisible();
    await expect(page.getByRole('cell', { name: 'Email Verifier' })).toBeVisible();

    // The chart's data as CSV.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export Credits used over time as CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('credits-over-time.csv');
    const csv = readFileSync(await file.path(), 'utf8');
    expect(csv.split('\r\n')[0]).toBe('Period,Email Verifier,Email Finder,Prospect,Form Guard,Other,Total');
    expect(csv.split('\r\n').length).toBeGreaterThan(7);

    // Every preset answers (the address keeps the choice).
    for (const [preset, label] of PRESETS) {
      await pickRange(page, label);
      await expect(page).toHaveURL(new RegExp(`range=${preset}`));
      await expect(page.getByRole('heading', { name: 'Credits used over time' })).toBeVisible();
      await expect(page.getByRole('alert')).toHaveCount(0);
    }

    // The whole organisation, as an owner may choose.
    await page.getByRole('combobox', { name: 'Whose usage' }).click();
    await page.getByRole('option', { name: 'Whole organisation' }).click();
    await expect(page).toHaveURL(/view=org/);
    await expect(page.getByRole('heading', { name: 'Billable split' })).toBeVisible();

    await page.goto('/analytics/email_verifier?range=last_7_days');
    await expect(page.getByRole('heading', { name: 'Email Verifier analytics' })).toBeVisible();
    await expect(page.getByText('Emails verified')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Results by status' })).toBeVisible();
    await page.screenshot({ path: join(SHOTS, 'analytics-email-verifier.png'), fullPage: true });

    await page.goto('/analytics/email_finder?range=last_7_days');
    await expect(page.getByRole('heading', { name: 'Email Finder analytics' })).toBeVisible();
    await expect(page.getByText('Searches', { exact: true })).toBeVisible();

    // Nothing spent on prospects or form guards yet: each screen says so.
    await page.goto('/analytics/prospect?range=last_7_days');
    await expect(page.getByRole('heading', { name: 'Prospect analytics' })).toBeVisible();
    await expect(page.getByText('No usage yet').first()).toBeVisible();
    await page.goto('/analytics/form_guard');
    await expect(page.getByRole('heading', { name: 'Form Guard analytics' })).toBeVisible();
    await expect(page.getByText('No checks in this period')).toBeVisible();

    await page.goto('/analytics/team?range=last_7_days');
    await expect(page.getByRole('heading', { name: 'Team analytics' })).toBeVisible();
    const members = page.getByRole('table', { name: 'Credits per member' });
    await expect(members.getByText('Demo Owner')).toBeVisible();
    await expect(members.getByText('Demo Executive')).toBeVisible();
    await page.locator('label', { hasText: 'By team' }).click();
    await expect(page.getByRole('table', { name: 'Credits per team' }).getByText('No team')).toBeVisible();
    await page.screenshot({ path: join(SHOTS, 'analytics-team.png'), fullPage: true });

    // The dashboard with its widgets.
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Credits used over time' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Billable split' })).toBeVisible();
    await expect(page.getByText('Used in period')).toBeVisible();
    await expect(page.getByText('Emails verified')).toBeVisible();
    await expect(page.getByText('Emails found')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Recent activity' })).toBeVisible();
    await page.screenshot({ path: join(SHOTS, 'dashboard.png'), fullPage: true });
    // A widget hidden stays hidden.
    await page.getByRole('button', { name: 'Widgets' }).click();
    await page.getByRole('checkbox', { name: 'Billable split' }).uncheck();
    await expect(page.getByRole('heading', { name: 'Billable split' })).toHaveCount(0);
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Credits used over time' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Billable split' })).toHaveCount(0);

    // The activities download: the count first, then the file.
    await page.goto('/activities');
    await page.getByRole('button', { name: 'Download' }).click();
    const dialog = page.getByRole('dialog', { name: 'Download activities' });
    await expect(dialog.getByTestId('activity-download-count')).toContainText('activities will be downloaded');
    await dialog.getByRole('button', { name: 'Download' }).click();
    await expect(dialog.getByTestId('activity-download-ready')).toContainText('.csv');
  });

  test('an executive sees their own analytics and is refused the team screen', async ({ page }) => {
    await logInThroughForm(page, DEMO_USERS.executive);
    await page.goto('/analytics');
    await expect(page.getByRole('heading', { name: 'Analytics' })).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Whose usage' })).toHaveCount(0);
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await expect(nav.getByRole('link', { name: 'Team' })).toHaveCount(0);
    await page.goto('/analytics/team');
    await expect(page.getByText("You don't have access to this page")).toBeVisible();
  });
});
