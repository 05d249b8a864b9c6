import { createServer, type IncomingHttpHeaders } from 'node:http';
import { expect, test } from '@playwright/test';
import { OUTDATED_PORT } from './playwright.config';
import { DEMO_USERS, logInThroughForm, readStoredToken } from './support/session';

test('a developer creates an app, copies its token, calls the public API, creates a webhook, sends a test event and sees it in the logs', async ({ page, baseURL }) => {
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.end('ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const address = receiver.address();
  const hookUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hook`;
  try {
    await logInThroughForm(page, DEMO_USERS.owner);
    const appName = `E2E app ${Date.now()}`;
    const hookName = `E2E receiver ${Date.now()}`;
    await page.goto('/apps/create');
    await page.getByLabel('App name').fill(appName);
    await page.getByRole('button', { name: 'Create App' }).click();
    const token = ((await page.getByTestId('app-token-value').textContent()) ?? '').trim();
    expect(token).toMatch(/^vla_/);
    await page.getByRole('button', { name: 'Copy token' }).click();
    await expect(page.getByText('Copied')).toBeVisible();

    const res = await fetch(`${baseURL}/v2/email_verify/instant`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'valid@example.com' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-limit')).toBe('100');
    expect(((await res.json()) as { data: { status: string } }).data.status).toBe('valid');
    await page.goto('/apps');
    await expect(page.getByRole('row', { name: new RegExp(appName) }).getByText('Active')).toBeVisible();

    await page.goto('/developer/webhooks');
    await page.getByRole('button', { name: 'Create webhook' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create webhook' });
    await dialog.getByLabel('Name').fill(hookName);
    await dialog.getByLabel('Destination URL').fill(hookUrl);
    await dialog.getByRole('button', { name: 'Save webhook' }).click();
    // The e2e main server allows loopback destinations (ALLOW_PRIVATE_DESTINATIONS, as tests do).
    await expect(page.getByRole('cell', { name: hookName, exact: true })).toBeVisible();

    await page.getByRole('button', { name: `Send a test event to ${hookName}` }).click();
    await expect(page.getByTestId('test-result')).toContainText('Test event delivered: 200');
    await expect(page.getByTestId('event-logs').getByRole('row', { name: new RegExp(hookName) }).getByText('webhook.test')).toBeVisible();
    expect(received).toHaveLength(1);
    expect(received[0]?.headers['x-verilead-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
  } finally {
    // Remove the webhook before its receiver goes away, so later specs' events are not delivered to it.
    const token = await readStoredToken(page).catch(() => null);
    if (token) {
      const headers = { authorization: `Bearer ${token}`, 'x-app-version': '31.3.1' };
      const list = (await (await page.request.get('/api/v1/webhook/name_list', { headers })).json()) as { data: { items: { id: string; name: string }[] } };
      for (const hook of list.data.items.filter((item) => item.name.startsWith('E2E receiver'))) {
        await page.request.delete(`/api/v1/webhook/${hook.id}`, { headers });
      }
    }
    receiver.close();
  }
});

test('a webhook to a private address is refused with a clear message where configuration does not allow it', async ({ page }) => {
  // The second e2e server keeps the production default: private destinations are refused.
  const outdated = `http://127.0.0.1:${OUTDATED_PORT}`;
  const login = await page.request.post(`${outdated}/api/v1/user/login`, {
    headers: { 'x-app-version': '99.0.0' },
    data: { email: DEMO_USERS.owner, password: 'Demo-Password-1' },
  });
  const token = ((await login.json()) as { data: { token: string } }).data.token;
  const create = await page.request.post(`${outdated}/api/v1/webhook`, {
    headers: { authorization: `Bearer ${token}`, 'x-app-version': '99.0.0' },
    data: { name: 'Internal', url: 'http://10.1.2.3/hook', events: ['email_verifier.instant.completed'] },
  });
  expect(create.status()).toBe(400);
  const body = (await create.json()) as { error: { message: string } };
  expect(body.error.message).toMatch(/private, loopback, link-local or other special-purpose address; such destinations are refused/);
  expect(body.error.message).toContain('ALLOW_PRIVATE_DESTINATIONS=true');
});
