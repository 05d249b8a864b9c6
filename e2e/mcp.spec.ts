import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect, test } from '@playwright/test';
import { closeWelcomeIfShown, DEMO_USERS, logInThroughForm } from './support/session';

const SHOTS = join(import.meta.dirname, '..', 'test-results');

test('the API page shows the MCP URL and client configuration, and an app token made on the Apps page works there', async ({ page }) => {
  await logInThroughForm(page, DEMO_USERS.owner);
  await page.goto('/apps/create');
  await page.getByLabel('App name').fill(`MCP app ${Date.now()}`);
  await page.getByRole('button', { name: 'Create App' }).click();
  const token = ((await page.getByTestId('app-token-value').textContent()) ?? '').trim();
  expect(token).toMatch(/^vla_/);

  await page.goto('/developer/api');
  await closeWelcomeIfShown(page);
  // Opening the page creates nothing: a member without a default token creates it there first.
  const createToken = page.getByRole('button', { name: 'Create my API token' });
  await expect(createToken.or(page.getByTestId('api-base-url'))).toBeVisible();
  if (await createToken.isVisible()) await createToken.click();
  const apiBase = ((await page.getByTestId('api-base-url').textContent()) ?? '').trim();
  const mcpUrl = apiBase.replace(/\/v2$/, '/mcp');
  await expect(page.getByTestId('mcp-url')).toHaveText(mcpUrl);
  await expect(page.getByText('verify_email, find_email, get_list_status, get_list_results, get_credits')).toBeVisible();
  for (const width of [1366, 375]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await page.getByRole('heading', { name: 'AI assistants (MCP)' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, `mcp-api-page-${width}.png`), fullPage: true });
  }

  // The URL on the page, with the app's token, as an assistant would use it: a test address is free and fixed.
  const client = new Client({ name: 'e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  try {
    const result = (await client.callTool({ name: 'verify_email', arguments: { email: 'valid@example.com' } })) as { isError?: boolean; structuredContent?: { status?: string } };
    expect(result.isError ?? false).toBe(false);
    expect(result.structuredContent?.status).toBe('valid');
  } finally {
    await client.close();
  }
});
