import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { getLocalDay, getLocalParts, getZonedInstant, resolveDateRange, type TDatePreset } from '@verilead/contracts';
import { MAIN_PORT } from './playwright.config';
import { callApi } from './support/api';
import { startOwnServer } from './support/own-server';
import { copyUsageToPast } from './support/past-usage';
import { decodePng, describeColours } from './support/png';
import { closeWelcomeIfShown, DEMO_USERS, logInThroughForm, readStoredToken } from './support/session';

// The twelve presets of the spec (packages/contracts/src/date-presets.ts), as the range picker names them.
const PRESETS: [TDatePreset, string][] = [
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
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

async function pickRange(page: Page, label: string) {
  await page.getByRole('combobox', { name: 'Date range' }).click();
  await page.getByRole('option', { name: label, exact: true }).click();
}

/** The value of a figure card on screen. */
function figure(page: Page, label: string) {
  return page.getByRole('group', { name: label, exact: true }).getByTestId('stat-value');
}

/** The dashboard's widgets, named as in its Widgets picker (each is a region of that name). */
const DASHBOARD_WIDGETS = ['Credits', 'Credits over time', 'Billable split', 'Email Verifier results', 'Email Finder results', 'Recent activity'];

/**
 * Every dashboard widget is on screen with its content (figures, a drawn chart, activity rows), and its own screenshot
 * is a real picture: decoded, of some size, and not one flat colour. The page and each widget are saved under test-results.
 */
async function checkDashboardWidgets(page: Page, name: string) {
  await expect(page.getByRole('heading', { name: 'Credits used over time' })).toBeVisible();
  for (const widget of DASHBOARD_WIDGETS) {
    const region = page.getByRole('region', { name: widget, exact: true });
    await expect(region, widget).toBeVisible();
    await expect(region, widget).not.toHaveText(/^\s*$/);
    await expect(region.getByText('No usage yet'), widget).toHaveCount(0);
  }
  const credits = page.getByRole('region', { name: 'Credits', exact: true });
  await expect(credits.getByTestId('stat-value')).toHaveCount(4);
  for (const label of ['Credits balance', 'Used in period']) await expect(figure(page, label), label).toHaveText(/^[\d,]+$/);
  for (const label of ['Emails verified', 'Emails found']) await expect(figure(page, label), label).toHaveText(/^[\d,]+$/);
  // The chart is drawn (its SVG surface), the split has its rows, the activity its entries.
  await expect(page.getByRole('region', { name: 'Credits over time' }).locator('svg.recharts-surface').first()).toBeVisible();
  await expect(page.getByRole('region', { name: 'Billable split', exact: true }).getByRole('cell', { name: 'Email Verifier' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Recent activity' }).getByText('No activity yet')).toHaveCount(0);
  mkdirSync(join(SHOTS, name), { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  for (const widget of DASHBOARD_WIDGETS) {
    const shot = await page.getByRole('region', { name: widget, exact: true }).screenshot({ path: join(SHOTS, name, `${widget.toLowerCase().replace(/ /g, '-')}.png`) });
    const image = decodePng(shot);
    expect(image.width, widget).toBeGreaterThan(100);
    expect(image.height, widget).toBeGreaterThan(40);
    const colours = describeColours(image);
    // Text and shapes anti-alias into many shades; a blank or flat box has one or two.
    expect(colours.colours, widget).toBeGreaterThan(16);
    expect(colours.dominantShare, widget).toBeLessThan(0.99);
  }
}

/** A fresh organisation (so the figures are only what the test spends), its owner logged in on `page`. */
async function freshOwner(page: Page, request: APIRequestContext): Promise<string> {
  const email = `analytics-${Date.now()}-${Math.floor(Math.random() * 1e6)}@presets.test`;
  const password = 'Owner-Passw0rd-1';
  const res = await request.post('/api/v1/user/signup', { data: { name: 'Preset Owner', email, password, signup_source: 'friends' }, headers: { 'x-app-version': '31.3.1' } });
  expect(res.status()).toBe(200);
  await logInThroughForm(page, email, password);
  return email;
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

    // The dashboard with every widget (test-results/dashboard.png and dashboard/<widget>.png).
    await page.goto('/');
    await checkDashboardWidgets(page, 'dashboard');
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

/**
 * The presets over usage made now and copied to the past: this describe runs its own server (same build, demo mail
 * world and prospect directory) so it can stop it, copy the organisation's usage into its embedded database at
 * yesterday, a week ago, the previous month and the previous year, and start it again.
 */
test.describe('analytics over past usage, in the user\'s time zone', () => {
  const PORT = MAIN_PORT + 24;
  const BASE = `http://127.0.0.1:${PORT}`;
  // Far from UTC, and from each other: 25 hours apart, so every instant falls on another day in the two.
  const ZONE = 'Pacific/Kiritimati'; // UTC+14
  const OTHER_ZONE = 'Pacific/Pago_Pago'; // UTC-11
  let dataDir: string;
  let server: ChildProcess | undefined;

  async function stopServer() {
    const running = server;
    server = undefined;
    if (!running || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGTERM');
    });
  }

  test.beforeAll(async () => {
    test.setTimeout(270_000);
    dataDir = mkdtempSync(join(tmpdir(), 'verilead-e2e-analytics-'));
    server = await startOwnServer(PORT, { DATA_DIR: dataDir });
  });
  test.afterAll(async () => {
    await stopServer();
    rmSync(dataDir, { recursive: true, force: true });
  });
  test.use({ baseURL: BASE });

  test('each analytics screen steps through the twelve presets, its figures following usage now and in the past; the time zone setting moves the days', async ({ page, request }) => {
    test.setTimeout(600_000);
    const email = await freshOwner(page, request);
    await callApi(page, request, 'POST', '/user/timezone/edit', { timezone: ZONE });
    const since = new Date(Date.now() - 1_000);
    // Usage now, through the product: verifications, a search, an enrichment and two form guard checks.
    await callApi(page, request, 'POST', '/email_verify/instant', { email: 'alice@strict.test' });
    await callApi(page, request, 'POST', '/email_verify/instant', { email: 'no.such.user@strict.test' });
    await callApi(page, request, 'POST', '/email_finder/instant', { name: 'John Smith', domain: 'strict.test' });
    const found = await callApi<{ people: { id: string }[] }>(page, request, 'POST', '/prospect/search', { filters: { countries: ['DE'] }, limit: 25 });
    await callApi(page, request, 'POST', '/prospect/enrich', { person_ids: found.people.slice(0, 3).map((p) => p.id) });
    const token = await readStoredToken(page);
    const created = await request.post('/api/v1/apps/create', {
      headers: { authorization: `Bearer ${token}`, 'x-app-version': '31.3.1' },
      data: { name: 'Preset guard', type: 'client', allowed_origins: [BASE], form_guard: { fields: { email: true, phone: true, name: true } } },
    });
    const guard = ((await created.json()) as { data: { token: string } }).data;
    for (const [type, value] of [['name', 'Alice Smith'], ['phone', '+1 415 555 0100']] as const) {
      const check = await request.post('/v2/form_guard/validate', { headers: { authorization: `Bearer ${guard.token}`, origin: BASE }, data: { type, value, request_id: `preset-${type}-${Date.now()}` } });
      expect(check.status(), await check.text()).toBe(200);
    }
    const usedAt = new Date();

    // What the reports answer for today: each copy to the past adds the same again.
    type TToday = { credits: { net: number } };
    const overview = await callApi<TToday>(page, request, 'POST', '/reports/overview_usage', { date_range: 'today' });
    const verifier = await callApi<TToday & { stats: { total: number } }>(page, request, 'POST', '/reports/usage', { date_range: 'today' });
    const finder = await callApi<TToday & { stats: { total: number } }>(page, request, 'POST', '/reports/finder_usage', { date_range: 'today' });
    const prospect = await callApi<TToday & { stats: { email: number } }>(page, request, 'POST', '/reports/prospect_usage', { date_range: 'today' });
    expect(verifier.stats.total).toBe(2);
    expect(finder.stats.total).toBe(1);
    expect(prospect.credits.net).toBeGreaterThan(0);
    expect(overview.credits.net).toBeGreaterThan(verifier.credits.net + finder.credits.net + prospect.credits.net);

    // The same usage yesterday, a week ago, mid previous month and mid-June last year (local times of ZONE; yesterday's
    // twelve hours off the present hour, so "last 24 hours" is never a matter of minutes).
    const p = getLocalParts(usedAt, ZONE);
    const past = [
      getZonedInstant(p.year, p.month, p.day - 1, ZONE, (p.hour + 12) % 24),
      getZonedInstant(p.year, p.month, p.day - 7, ZONE, 12),
      getZonedInstant(p.year, p.month - 1, 15, ZONE, 12),
      getZonedInstant(p.year - 1, 6, 15, ZONE, 12),
    ];
    await stopServer();
    await copyUsageToPast(dataDir, email, since, past);
    server = await startOwnServer(PORT, { DATA_DIR: dataDir });

    /** How many copies of the usage (now and past) a preset holds in `zone`. */
    const copies = (preset: TDatePreset, zone = ZONE) => {
      const range = resolveDateRange(preset, zone, new Date());
      return [usedAt, ...past].filter((t) => t >= range.from && t < range.to).length;
    };
    // The past presets see the past usage. Yesterday's copy is the only one yesterday holds; the others can hold more
    // than one copy on some days (on a Monday in ZONE, yesterday falls in last week as well; in January, a week ago
    // can fall in last year), which `copies` counts for the figures below.
    expect(copies('yesterday')).toBe(1);
    for (const preset of ['last_week', 'last_month', 'last_year'] as const) expect(copies(preset), preset).toBeGreaterThanOrEqual(1);
    const n = (v: number) => v.toLocaleString('en-US');

    const screens: { path: string; heading: string; checks: [string, number][] }[] = [
      { path: '/analytics', heading: 'Analytics', checks: [['Credits used', overview.credits.net]] },
      { path: '/analytics/email_verifier', heading: 'Email Verifier analytics', checks: [['Emails verified', 2], ['Credits used', verifier.credits.net]] },
      { path: '/analytics/email_finder', heading: 'Email Finder analytics', checks: [['Searches', 1], ['Credits used', finder.credits.net]] },
      { path: '/analytics/prospect', heading: 'Prospect analytics', checks: [['Email contacts', prospect.stats.email], ['Credits used', prospect.credits.net]] },
      { path: '/analytics/form_guard', heading: 'Form Guard analytics', checks: [['Total checks', 2], ['Phone', 1], ['Name', 1]] },
    ];
    // A time on screen in the setting's zone: the enrichment's entry in the dashboard's recent activity (its title is
    // the full date and time, 22 Nov 2026, 14:05).
    const enriched = (await callApi<{ items: { created_at: string; description: string }[] }>(page, request, 'POST', '/user/activities', { limit: 100 })).items.find((a) =>
      a.description.startsWith('Enriched'),
    )!;
    const shownAt = (zone: string) => {
      const t = getLocalParts(new Date(enriched.created_at), zone);
      const pad = (v: number) => String(v).padStart(2, '0');
      return `${t.day} ${MONTHS[t.month - 1]} ${t.year}, ${pad(t.hour)}:${pad(t.minute)}`;
    };
    expect(shownAt(ZONE)).not.toBe(shownAt(OTHER_ZONE));
    await page.goto('/');
    await closeWelcomeIfShown(page);
    await expect(page.getByRole('region', { name: 'Recent activity' }).getByTitle(shownAt(ZONE)).first()).toBeVisible();

    for (const screen of screens) {
      await page.goto(screen.path);
      await expect(page.getByRole('heading', { name: screen.heading, exact: true })).toBeVisible();
      for (const [preset, label] of PRESETS) {
        await pickRange(page, label);
        await expect(page).toHaveURL(new RegExp(`range=${preset}`));
        const k = copies(preset);
        if (screen.path === '/analytics/form_guard' && k === 0) {
          await expect(page.getByText('No checks in this period'), `${screen.path} ${preset}`).toBeVisible();
          continue;
        }
        for (const [name, value] of screen.checks) {
          await expect(figure(page, name), `${screen.path} ${preset} ${name}`).toHaveText(n(k * value));
        }
      }
      await expect(page.getByRole('alert')).toHaveCount(0);
    }

    // The team screen: the owner's row totals the organisation's credits for each preset.
    await page.goto('/analytics/team');
    await expect(page.getByRole('heading', { name: 'Team analytics' })).toBeVisible();
    for (const [preset, label] of PRESETS) {
      await pickRange(page, label);
      await expect(page).toHaveURL(new RegExp(`range=${preset}`));
      const row = page.getByRole('table', { name: 'Credits per member' }).getByRole('row', { name: /Preset Owner/ });
      await expect(row.getByRole('cell').last(), `team ${preset}`).toHaveText(n(copies(preset) * overview.credits.net));
    }

    // The time zone setting moves the days: the chart's days (its CSV) in ZONE, then in OTHER_ZONE.
    const chartDays = async () => {
      await page.goto('/analytics?range=last_30_days');
      await expect(page.getByRole('heading', { name: 'Credits used over time' })).toBeVisible();
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Export Credits used over time as CSV' }).click();
      const lines = readFileSync(await (await download).path(), 'utf8').trim().split('\r\n').slice(1);
      return Object.fromEntries(lines.map((l) => l.split(',')).filter((c) => c.at(-1) !== '0').map((c) => [c[0], Number(c.at(-1))]));
    };
    const expectedDays = (zone: string) => {
      const range = resolveDateRange('last_30_days', zone, new Date());
      const days: Record<string, number> = {};
      for (const t of [usedAt, ...past].filter((i) => i >= range.from && i < range.to)) days[getLocalDay(t, zone)] = (days[getLocalDay(t, zone)] ?? 0) + overview.credits.net;
      return days;
    };
    expect(await chartDays()).toEqual(expectedDays(ZONE));
    await callApi(page, request, 'POST', '/user/timezone/edit', { timezone: OTHER_ZONE });
    await page.reload();
    expect(expectedDays(OTHER_ZONE)).not.toEqual(expectedDays(ZONE));
    await expect.poll(chartDays, { message: `the chart's days in ${OTHER_ZONE}` }).toEqual(expectedDays(OTHER_ZONE));
    await page.goto('/');
    await expect(page.getByRole('region', { name: 'Recent activity' }).getByTitle(shownAt(OTHER_ZONE)).first()).toBeVisible();

    // The dashboard: every widget on screen with its content, each widget's screenshot a real picture.
    await page.goto('/');
    await checkDashboardWidgets(page, 'dashboard-fresh');
  });
});
