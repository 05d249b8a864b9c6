import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { startChallengeDns, type TChallengeDns } from '@verilead/test-doubles/identity';
import { MAIN_PORT } from './playwright.config';
import { callApi } from './support/api';
import { waitForMailLink } from './support/mail-catcher';
import { startOwnServer } from './support/own-server';
import { closeWelcomeIfShown, logInThroughForm } from './support/session';

// Single sign-on runs on this spec's own server (same build, `--demo-idp`) whose DNS resolver (DNS_SERVERS) is a DNS
// server started here: an owner proves a domain by publishing its TXT record in it, never on the internet.
const PORT = MAIN_PORT + 26;
const BASE = `http://127.0.0.1:${PORT}`;
const DEMO_OIDC_ISSUER = `http://127.0.0.1:${PORT + 30}`;
const DEMO_SAML_SSO_URL = `http://127.0.0.1:${PORT + 31}/saml/sso`;

// The server's "SSO only" refusal (SSO_ONLY_MESSAGE in packages/contracts/src/sso.ts; the spec has no wording for it).
const SSO_ONLY_MESSAGE = 'Your organisation requires single sign-on. Please sign in with SSO.';
const SHOTS = join(import.meta.dirname, '../test-results/e2e-sso');
const DEMO_SAML_CERT = readFileSync(join(import.meta.dirname, '../packages/test-doubles/src/identity/demo-saml-idp.cert.pem'), 'utf8');
const PASSWORD = 'Owner-Passw0rd-1';

function uniqueDomain(prefix: string): string {
  return `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}.test`;
}

/** A fresh organisation whose owner is logged in on `page`. */
async function ownerOf(page: Page, request: APIRequestContext, domain: string): Promise<string> {
  const email = `owner@${domain}`;
  const res = await request.post('/api/v1/user/signup', { data: { name: 'Olive Owner', email, password: PASSWORD, signup_source: 'friends' }, headers: { 'x-app-version': '31.3.1' } });
  expect(res.status()).toBe(200);
  await logInThroughForm(page, email, PASSWORD);
  // A new owner is greeted by the welcome window, which on a busy machine may open after the login's check for it:
  // whenever it covers what the test clicks next, close it first.
  await page.addLocatorHandler(page.getByRole('dialog', { name: 'Welcome' }), async (welcome) => {
    await welcome.getByRole('button', { name: 'Get started' }).click();
  });
  return email;
}

/** Turns a Mantine switch on (its input is visually hidden) once the form has settled. */
async function switchOn(page: Page, name: string) {
  const toggle = page.getByRole('switch', { name });
  await page.waitForLoadState('networkidle');
  // The keyboard reaches the visually hidden input whatever covers it.
  await expect(async () => {
    if (!(await toggle.isChecked())) {
      await toggle.focus();
      await page.keyboard.press('Space');
    }
    await expect(toggle).toBeChecked({ timeout: 2000 });
  }).toPass({ timeout: 30_000 });
}

async function fillDomain(page: Page, domain: string) {
  const domains = page.getByRole('combobox', { name: 'E-mail domains' });
  await domains.fill(domain);
  await domains.press('Enter');
}

async function newPage(browser: Browser): Promise<Page> {
  return (await browser.newContext({ baseURL: BASE })).newPage();
}

/** The saved domain's row on the Authentication screen: pending; its TXT record is published and verified. */
async function proveDomain(page: Page, dns: TChallengeDns, domain: string) {
  const row = page.getByTestId(`domain-claim-${domain}`);
  await expect(row.getByText('Pending', { exact: true })).toBeVisible();
  const name = (await row.locator('code').nth(0).textContent()) ?? '';
  const value = (await row.locator('code').nth(1).textContent()) ?? '';
  expect(name).toBe(`_verilead-challenge.${domain}`);
  expect(value).toMatch(/^verilead-domain-verification=[0-9a-f]{32}$/);
  dns.publishTxt(name, [value]);
  await row.getByRole('button', { name: 'Verify' }).click();
  await expect(row.getByText(/^Verified on /)).toBeVisible();
}

test.describe('single sign-on', () => {
  test.describe.configure({ timeout: 180_000 });
  let server: ChildProcess;
  let dns: TChallengeDns;

  test.beforeAll(async () => {
    // The server starts from scratch (migrations, demo data): give it the 240 s its wait loop allows on a busy machine.
    test.setTimeout(270_000);
    dns = await startChallengeDns();
    server = await startOwnServer(PORT, { PROSPECT_DEMO_DIRECTORY: 'false', DNS_SERVERS: dns.dnsServers.join(',') }, ['--demo-idp']);
  });
  test.afterAll(async () => {
    server?.kill('SIGTERM');
    await dns?.stop();
  });
  test.use({ baseURL: BASE });

  test('OIDC: the owner sets it up, a new colleague joins just in time, and "SSO only" refuses password login', async ({ page, browser, request }) => {
    const domain = uniqueDomain('oidc');
    await ownerOf(page, request, domain);
    await page.goto('/account/authentication');
    await expect(page.getByText('Not set up yet')).toBeVisible();
    await switchOn(page, 'Single sign-on is on');
    await fillDomain(page, domain);
    await page.getByLabel('Issuer URL').fill(DEMO_OIDC_ISSUER);
    await page.getByLabel('Client ID').fill('demo-org');
    await page.getByLabel('Client secret').fill('demo-org-secret');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Single sign-on settings saved')).toBeVisible();
    await proveDomain(page, dns, domain);
    await page.screenshot({ path: join(SHOTS, 'authentication-oidc.png'), fullPage: true });

    // A colleague who has no account yet signs in through the identity provider and joins as Executive.
    const colleague = await newPage(browser);
    await colleague.goto('/login');
    await colleague.getByRole('link', { name: 'Sign in with SSO' }).click();
    await expect(colleague).toHaveURL(/\/sso\/signin/);
    await colleague.getByLabel('Work email').fill(`new.colleague@${domain}`);
    await colleague.screenshot({ path: join(SHOTS, 'sso-signin.png') });
    await colleague.getByRole('button', { name: 'Continue with SSO' }).click();
    await expect(colleague).toHaveURL(new RegExp(`^${DEMO_OIDC_ISSUER}/interaction/`));
    await expect(colleague.getByLabel('E-mail')).toHaveValue(`new.colleague@${domain}`);
    await colleague.getByLabel('Name').fill('Nina Colleague');
    await colleague.getByRole('button', { name: 'Sign in' }).click();
    await expect(colleague).not.toHaveURL(/\/sso\/signin|interaction/);
    await closeWelcomeIfShown(colleague);
    const profile = await callApi<{ email: string; user_role: string; name: string }>(colleague, colleague.request, 'GET', '/user/profile');
    expect(profile).toMatchObject({ email: `new.colleague@${domain}`, user_role: 'analyst', name: 'Nina Colleague' });

    // A member with a password; then the owner turns on "SSO only".
    const memberEmail = `pat.member@${domain}`;
    await callApi(page, request, 'POST', '/admin/member/add', { email: memberEmail, role: 'analyst', name: 'Pat Member' });
    const invitation = await waitForMailLink(memberEmail, '/setup_password?token=');
    const member = await newPage(browser);
    await member.goto(invitation.replace(/^https?:\/\/[^/]+/, ''));
    await member.getByLabel('New password', { exact: true }).fill('Member-Passw0rd-1');
    await member.getByLabel('Confirm new password').fill('Member-Passw0rd-1');
    await member.getByRole('button', { name: 'Set password' }).click();
    await expect(member.getByText('Your password is set. Log in to join your team.')).toBeVisible();

    await page.reload();
    await expect(page.getByText(/Last changed/)).toBeVisible();
    await switchOn(page, 'SSO only');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Single sign-on settings saved')).toBeVisible();

    await member.goto('/login');
    await member.getByLabel('Email').fill(memberEmail);
    await member.getByLabel('Password', { exact: true }).fill('Member-Passw0rd-1');
    const answer = member.waitForResponse((res) => res.request().method() === 'POST' && new URL(res.url()).pathname === '/api/v1/user/login');
    await member.getByRole('button', { name: 'Log in' }).click();
    const refused = await answer;
    expect(refused.status()).toBe(403);
    const sent = ((await refused.json()) as { error: { code: string; message: string } }).error;
    expect(sent).toMatchObject({ code: 'sso_required', message: SSO_ONLY_MESSAGE });
    // The server's message, word for word, on the login form itself (not a toast elsewhere on the page).
    const loginForm = member.locator('form').filter({ has: member.getByRole('button', { name: 'Log in' }) });
    await expect(loginForm.getByRole('alert')).toHaveText(sent.message);
    await member.screenshot({ path: join(SHOTS, 'sso-only-refused.png') });
  });

  test('domain verification: free mail refused; a saved domain is pending with its TXT record, a failed check says why, Verify proves it', async ({ page, browser, request }) => {
    const domain = uniqueDomain('verify');
    await ownerOf(page, request, domain);
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto('/account/authentication');
    await expect(page.getByText('Add your e-mail domains above and save: each gets a DNS record to publish.')).toBeVisible();
    await switchOn(page, 'Single sign-on is on');
    await fillDomain(page, 'gmail.com');
    await page.getByLabel('Issuer URL').fill(DEMO_OIDC_ISSUER);
    await page.getByLabel('Client ID').fill('demo-org');
    await page.getByLabel('Client secret').fill('demo-org-secret');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('gmail.com is a free or disposable e-mail provider: its addresses belong to many people, so it cannot be used for single sign-on')).toBeVisible();
    // The tag goes (Backspace in the empty input), the company's own domain comes.
    const domains = page.getByRole('combobox', { name: 'E-mail domains' });
    await domains.focus();
    await domains.press('Backspace');
    await fillDomain(page, domain);
    await expect(page.getByText(`Save to get the DNS record for ${domain}.`)).toBeVisible();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Single sign-on settings saved')).toBeVisible();

    const row = page.getByTestId(`domain-claim-${domain}`);
    await expect(row.getByText('Pending', { exact: true })).toBeVisible();
    await expect(row.locator('code').nth(0)).toHaveText(`_verilead-challenge.${domain}`);
    // Pending: the sign-in screen does not know the domain yet.
    const colleague = await newPage(browser);
    await colleague.goto('/sso/signin');
    await colleague.getByLabel('Work email').fill(`new.colleague@${domain}`);
    await colleague.getByRole('button', { name: 'Continue with SSO' }).click();
    await expect(colleague.getByText(/not set up for this e-mail domain/)).toBeVisible();

    // Verify before the record exists: the reason, stored and shown.
    await row.getByRole('button', { name: 'Verify' }).click();
    await expect(row.getByRole('alert')).toContainText(`No TXT record found for _verilead-challenge.${domain}.`);
    // Full-page shots from the top (the app's header is sticky).
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(SHOTS, 'domain-pending-1366.png'), fullPage: true });
    await page.setViewportSize({ width: 375, height: 812 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(SHOTS, 'domain-pending-375.png'), fullPage: true });
    await page.reload();
    await expect(row.getByRole('alert')).toContainText(`No TXT record found for _verilead-challenge.${domain}.`);

    // Published in the DNS the server resolves through: Verify proves it.
    dns.publishTxt((await row.locator('code').nth(0).textContent()) ?? '', [(await row.locator('code').nth(1).textContent()) ?? '']);
    await row.getByRole('button', { name: 'Verify' }).click();
    await expect(row.getByText('Verified', { exact: true })).toBeVisible();
    await expect(row.getByText(/^Verified on /)).toBeVisible();
    await expect(row.getByRole('button', { name: 'Verify' })).toHaveCount(0);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(SHOTS, 'domain-verified-375.png'), fullPage: true });
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(SHOTS, 'domain-verified-1366.png'), fullPage: true });

    // Now the domain signs in through the organisation's provider.
    await colleague.getByRole('button', { name: 'Continue with SSO' }).click();
    await expect(colleague).toHaveURL(new RegExp(`^${DEMO_OIDC_ISSUER}/interaction/`));
  });

  test('SAML: a signed response logs in; a replayed or tampered one is refused', async ({ page, browser, request }) => {
    const domain = uniqueDomain('saml');
    await ownerOf(page, request, domain);
    await page.goto('/account/authentication');
    await expect(page.getByText('Not set up yet')).toBeVisible();
    await switchOn(page, 'Single sign-on is on');
    await page.getByRole('combobox', { name: 'Identity provider' }).click();
    await page.getByRole('option', { name: 'SAML 2.0' }).click();
    await fillDomain(page, domain);
    await page.getByLabel('Identity provider SSO URL').fill(DEMO_SAML_SSO_URL);
    await page.getByLabel('Identity provider certificate (PEM)').fill(DEMO_SAML_CERT.trim());
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Single sign-on settings saved')).toBeVisible();
    await expect(page.getByText('/api/v1/sso/saml/acs/')).toBeVisible();
    await proveDomain(page, dns, domain);
    await page.screenshot({ path: join(SHOTS, 'authentication-saml.png'), fullPage: true });

    const person = await newPage(browser);
    let posted: { url: string; body: string } | null = null;
    person.on('request', (req) => {
      if (req.method() === 'POST' && req.url().includes('/api/v1/sso/saml/acs/')) posted = { url: req.url(), body: req.postData() ?? '' };
    });
    await person.goto('/sso/signin');
    await person.getByLabel('Work email').fill(`sam.person@${domain}`);
    await person.getByRole('button', { name: 'Continue with SSO' }).click();
    await expect(person).toHaveURL(new RegExp(`^${DEMO_SAML_SSO_URL}`));
    await person.getByLabel('E-mail').fill(`sam.person@${domain}`);
    await person.getByRole('button', { name: 'Sign in' }).click();
    await expect(person).not.toHaveURL(/\/sso\/signin|saml\/sso/);
    await closeWelcomeIfShown(person);
    const profile = await callApi<{ email: string; user_role: string }>(person, person.request, 'GET', '/user/profile');
    expect(profile).toMatchObject({ email: `sam.person@${domain}`, user_role: 'analyst' });
    expect(posted).not.toBeNull();
    const acs = posted as unknown as { url: string; body: string };

    // The same response again (a replay) is refused, in a fresh browser.
    const attacker = await newPage(browser);
    const replay = await attacker.request.post(acs.url, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, data: acs.body, maxRedirects: 0 });
    expect(replay.status()).toBe(303);
    const replayTo = new URL(replay.headers().location!);
    expect(replayTo.searchParams.get('ticket')).toBeNull();
    await attacker.goto(replayTo.pathname + replayTo.search);
    await expect(attacker.getByRole('alert')).toContainText(/already used|could not be verified/);

    // A tampered response (another e-mail put in) is refused.
    const form = new URLSearchParams(acs.body);
    const xml = Buffer.from(form.get('SAMLResponse')!, 'base64').toString('utf8').replaceAll(`sam.person@${domain}`, `owner@${domain}`);
    form.set('SAMLResponse', Buffer.from(xml).toString('base64'));
    const tampered = await attacker.request.post(acs.url, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, data: form.toString(), maxRedirects: 0 });
    const tamperedTo = new URL(tampered.headers().location!);
    expect(tamperedTo.searchParams.get('ticket')).toBeNull();
    await attacker.goto(tamperedTo.pathname + tamperedTo.search);
    await expect(attacker.getByRole('alert')).toContainText('could not be verified');
    await attacker.screenshot({ path: join(SHOTS, 'saml-refused.png') });
  });
});

test.describe('public pages', () => {
  test('public pages: uninstall survey and thank-you, credits calculator, marketing figures', async ({ page }) => {
    await page.goto('/public/chrome-extension-uninstall?v=1.2.0');
    await page.getByRole('button', { name: 'Send feedback' }).click();
    await expect(page.getByText('Please choose at least one reason')).toBeVisible();
    await page.getByLabel('Something else').check();
    await page.getByRole('button', { name: 'Send feedback' }).click();
    await expect(page.getByText('Please tell us the reason')).toBeVisible();
    await page.getByLabel('Your reason').fill('Moving to another browser');
    await page.getByLabel('It is too expensive').check();
    await page.screenshot({ path: join(SHOTS, 'uninstall.png'), fullPage: true });
    await page.getByRole('button', { name: 'Send feedback' }).click();
    await expect(page).toHaveURL(/\/thank_you/);
    await expect(page.getByRole('heading', { name: 'Thank you!' })).toBeVisible();

    await page.goto('/public/credits');
    // The quote comes from billing's price slabs (migration 0009: 10,000 credits at USD 0.006, INR 0.45).
    await page.getByLabel('Credits').fill('10000');
    await expect(page.getByTestId('credits-unit-price')).toHaveText('USD 0.006');
    await expect(page.getByTestId('credits-total')).toHaveText('$60.00');
    await page.getByText('INR').click();
    await expect(page.getByText('GST 18%')).toBeVisible();
    await expect(page.getByTestId('credits-total')).toHaveText('₹5,310.00');
    await page.screenshot({ path: join(SHOTS, 'credits.png'), fullPage: true });

    await page.goto('/public/marketing_stats/');
    await expect(page.getByText('E-mails verified')).toBeVisible();
    await page.screenshot({ path: join(SHOTS, 'marketing.png'), fullPage: true });
  });
});
