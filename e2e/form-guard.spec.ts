import { createServer, type Server } from 'node:http';
import { expect, test, type Page } from '@playwright/test';
import { DEMO_USERS, closeWelcomeIfShown, logInThroughForm, readStoredToken } from './support/session';

/**
 * Three small "customer sites" on 127.0.0.1 (three origins): a plain HTML form, a page that renders its form after
 * load, and a site the guard does not allow. Each page embeds the guard's snippet as the owner copied it.
 */
type TSite = { server: Server; origin: string };

function sitePage(snippet: string, late: boolean): string {
  const form = '<form action="/thanks" method="get"><label>Email <input type="email" name="email"></label><button type="submit">Sign up</button></form>';
  const body = late
    ? `<div id="app">Loading…</div><script>setTimeout(() => { document.getElementById('app').innerHTML = ${JSON.stringify(form)}; }, 500);</script>`
    : form;
  return `<!doctype html><html><head><title>Site</title>${snippet}</head><body><h1>Join us</h1>${body}</body></html>`;
}

async function startSite(render: (url: URL) => string): Promise<TSite> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/thanks') {
      res.setHeader('content-type', 'text/html');
      res.end(`<!doctype html><title>Thanks</title><h1>Thanks, ${url.searchParams.get('email') ?? ''}</h1>`);
      return;
    }
    res.setHeader('content-type', 'text/html');
    res.end(render(url));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  return { server, origin: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` };
}

/** The snippet with the page's own options (timeout, blocking, another token) as data attributes. */
function withOptions(snippet: string, url: URL): string {
  const token = url.searchParams.get('token');
  let tag = token ? snippet.replace(/data-token="[^"]+"/, `data-token="${token}"`) : snippet;
  const timeout = url.searchParams.get('timeout');
  if (timeout) tag = tag.replace('<script ', `<script data-timeout="${timeout}" `);
  const block = url.searchParams.get('block');
  if (block) tag = tag.replace('<script ', `<script data-block-on-timeout="${block}" `);
  return tag;
}

async function submitEmail(page: Page, email: string) {
  const input = page.getByLabel('Email');
  await input.fill(email);
  await page.getByRole('button', { name: 'Sign up' }).click();
}

test('form guard: a site owner creates a guard, embeds it on two origins, and bad addresses are refused', async ({ page, baseURL }) => {
  let snippet = '';
  const plain = await startSite((url) => sitePage(withOptions(snippet, url), false));
  const late = await startSite((url) => sitePage(withOptions(snippet, url), true));
  const foreign = await startSite((url) => sitePage(withOptions(snippet, url), false));
  try {
    await logInThroughForm(page, DEMO_USERS.owner);
    await page.goto('/analytics/form_guard');
    await closeWelcomeIfShown(page);
    const ownerToken = await readStoredToken(page);
    await page.getByRole('link', { name: 'Manage form guards' }).click();
    await expect(page).toHaveURL(/\/form-guard$/);
    await page.getByRole('link', { name: 'New form guard' }).first().click();
    const name = `Signup guard ${Date.now()}`;
    await page.getByLabel('Guard name').fill(name);
    const origins = page.getByRole('combobox', { name: 'Allowed origins' });
    for (const o of [plain.origin, late.origin]) {
      await origins.fill(o);
      await origins.press('Enter');
    }
    // Each refusal has its own message: the disposable one is the owner's own.
    await page.getByLabel('E-mail refused: disposable').fill('Please use a real, permanent address');
    await page.getByRole('button', { name: 'Create form guard' }).click();
    await expect(page.getByText('The token is shown only now')).toBeVisible();
    await page.screenshot({ path: 'test-results/e2e/form-guard-edit.png', fullPage: true });
    snippet = ((await page.getByLabel('Embed snippet').textContent()) ?? '').trim();
    const editUrl = page.url();
    expect(editUrl).toMatch(/\/form-guard\/[0-9a-f-]{36}$/);
    expect(snippet).toMatch(new RegExp(`^<script async src="${baseURL}/form-guard.js" data-token="vla_[^"]+"></script>$`));

    // 1. The plain page: a bad address is refused with the guard's message; a good one is sent.
    await page.goto(`${plain.origin}/`);
    await submitEmail(page, 'disposable@example.com');
    await expect(page.getByRole('alert')).toHaveText('Please use a real, permanent address');
    await expect(page).toHaveURL(`${plain.origin}/`);
    await submitEmail(page, 'valid@example.com');
    await expect(page.getByRole('heading', { name: 'Thanks, valid@example.com' })).toBeVisible();

    // 2. A form rendered after load, on a second origin.
    await page.goto(`${late.origin}/`);
    await submitEmail(page, 'invalid@example.com');
    await expect(page.getByRole('alert')).toHaveText('Please enter a valid email address');
    await submitEmail(page, 'role@example.com');
    await expect(page.getByRole('heading', { name: 'Thanks, role@example.com' })).toBeVisible();

    // 3. A check that does not answer in time: accepted (fail open) by default, refused once the owner chooses to block.
    await page.goto(editUrl);
    await page.getByLabel('Timeout (ms)').fill('1000');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByText('Saved.')).toBeVisible();
    await page.route('**/v2/form_guard/validate', () => undefined); // never answered
    await page.goto(`${plain.origin}/`);
    await submitEmail(page, 'invalid@example.com');
    await expect(page.getByRole('heading', { name: 'Thanks, invalid@example.com' })).toBeVisible();
    await page.goto(editUrl);
    await page.getByLabel('Refuse the form when a check times out (default: accept it)').check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByText('Saved.')).toBeVisible();
    await page.goto(`${plain.origin}/`);
    await submitEmail(page, 'valid@example.com');
    await expect(page.getByRole('alert')).toHaveText('We could not check this right now, please try again');
    await expect(page).toHaveURL(`${plain.origin}/`);
    // A page may also choose for itself (data attributes on the script tag).
    await page.goto(`${plain.origin}/?block=false`);
    await submitEmail(page, 'valid@example.com');
    await expect(page.getByRole('heading', { name: 'Thanks, valid@example.com' })).toBeVisible();
    await page.unroute('**/v2/form_guard/validate');

    // 4. A guard with a life-time limit of one check: after it, nothing more is checked.
    const created = await page.request.post(`${baseURL}/api/v1/apps/create`, {
      headers: { authorization: `Bearer ${ownerToken}`, 'x-app-version': '31.3.1' },
      data: { name: `Limited guard ${Date.now()}`, type: 'client', allowed_origins: [plain.origin], form_guard: { limits: [{ scope: 'global', window: 'life_time', max: 1 }] } },
    });
    const limited = ((await created.json()) as { data: { token: string } }).data;
    const checks: number[] = [];
    page.on('response', (r) => {
      if (r.url().includes('/v2/form_guard/validate')) checks.push(r.status());
    });
    await page.goto(`${plain.origin}/?token=${limited.token}`);
    await submitEmail(page, 'disposable@example.com');
    await expect(page.getByRole('alert')).toHaveText('Please use a permanent email address, not a disposable one');
    await submitEmail(page, 'invalid@example.com');
    await expect(page.getByRole('heading', { name: 'Thanks, invalid@example.com' })).toBeVisible();
    expect(checks).toEqual([200, 429]);

    // 5. An origin the guard does not allow: refused, and its forms are left alone.
    const warnings: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'warning') warnings.push(m.text());
    });
    await page.goto(`${foreign.origin}/`);
    await expect.poll(() => warnings.some((w) => w.startsWith('Verilead form guard:'))).toBe(true);
    await submitEmail(page, 'disposable@example.com');
    await expect(page.getByRole('heading', { name: 'Thanks, disposable@example.com' })).toBeVisible();
    const token = /data-token="([^"]+)"/.exec(snippet)?.[1] ?? '';
    const refused = await fetch(`${baseURL}/v2/form_guard/config`, { headers: { authorization: `Bearer ${token}`, origin: foreign.origin } });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    expect(((await refused.json()) as { error: { code: number } }).error.code).toBe(1074);

    // The owner sees the checks in the form guard analytics.
    await page.goto(`${baseURL}/analytics/form_guard`);
    await expect(page.getByRole('link', { name })).toBeVisible();
    await page.screenshot({ path: 'test-results/e2e/form-guard-analytics.png', fullPage: true });
  } finally {
    for (const s of [plain, late, foreign]) s.server.close();
  }
});
