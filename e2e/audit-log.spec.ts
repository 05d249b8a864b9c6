import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { callApi } from './support/api';
import { logInThroughForm } from './support/session';

const SHOTS = join(import.meta.dirname, '../test-results/e2e-audit-log');
const PASSWORD = 'Owner-Passw0rd-1';

test('an owner rotates an app token and changes single sign-on, then reads both in the audit log and exports it', async ({ page, request }) => {
  test.setTimeout(90_000);
  const domain = `audit-${Date.now()}-${Math.floor(Math.random() * 1e6)}.test`;
  const email = `owner@${domain}`;
  const signup = await request.post('/api/v1/user/signup', { data: { name: 'Olive Owner', email, password: PASSWORD, signup_source: 'friends' }, headers: { 'x-app-version': '31.3.1' } });
  expect(signup.status()).toBe(200);
  await logInThroughForm(page, email, PASSWORD);
  await page.addLocatorHandler(page.getByRole('dialog', { name: 'Welcome' }), async (welcome) => {
    await welcome.getByRole('button', { name: 'Get started' }).click();
  });

  // Rotate an app's token on its edit screen.
  const app = await callApi<{ id: string }>(page, request, 'POST', '/apps/create', { name: 'CRM sync' });
  await page.goto(`/apps/${app.id}/edit`);
  await page.getByRole('button', { name: 'Rotate token' }).click();
  await page.getByRole('dialog', { name: 'Rotate the token?' }).getByRole('button', { name: 'Rotate' }).click();
  await expect(page.getByTestId('app-token-value')).toHaveText(/^vla_/);

  // Change the single sign-on settings.
  await callApi(page, request, 'POST', '/user_preferences/sso', { enabled: false, provider: 'oidc', domains: [domain], client_id: 'crm-client', issuer_url: 'https://id.example.test' });

  // Invite a member and make them a Manager: the entries name them, not their id.
  const added = await callApi<{ member: { member_id: string } }>(page, request, 'POST', '/admin/member/add', { email: `mia@${domain}`, role: 'analyst', name: 'Mia Member' });
  await callApi(page, request, 'POST', '/admin/member/edit', { member_id: added.member.member_id, role: 'admin' });

  await page.goto('/account/audit-log');
  const entries = page.getByTestId('audit-entry');
  await expect(entries.filter({ hasText: 'App token rotated' })).toHaveCount(1);
  await expect(entries.filter({ hasText: 'App token rotated' })).toContainText(email);
  await expect(entries.filter({ hasText: 'App token rotated' }).getByTestId('audit-actor-name')).toHaveText('Olive Owner');
  await expect(entries.filter({ hasText: 'SSO settings changed' })).toHaveCount(1);
  await expect(entries.filter({ hasText: 'SSO settings changed' })).toContainText(domain);
  const roleChange = entries.filter({ hasText: 'Member role changed' });
  await expect(roleChange).toContainText(`Mia Member (mia@${domain})`);
  await expect(roleChange).toContainText('from: Executive · to: Manager');
  await expect(roleChange).not.toContainText(added.member.member_id);
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.screenshot({ path: join(SHOTS, 'audit-log-1366.png'), fullPage: true });

  // Filter by action: only the rotation stays.
  await page.getByRole('combobox', { name: 'Action' }).click();
  await page.getByRole('option', { name: 'App token rotated' }).click();
  await expect(entries).toHaveCount(1);
  await expect(entries.first()).toHaveAttribute('data-action', 'app.token_rotated');

  // The CSV export holds the filtered entry.
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = await (await download.createReadStream()).toArray();
  const text = Buffer.concat(csv as Buffer[]).toString('utf8');
  expect(text.split(/\r?\n/)[0]).toBe('time,action,action_label,actor_email,actor_name,actor_id,target_type,target_id,target_name,details,ip');
  expect(text).toContain('app.token_rotated');
  expect(text).not.toContain('sso.settings_changed');

  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: join(SHOTS, 'audit-log-375.png'), fullPage: true });
});
