import ExcelJS from 'exceljs';
import { expect, test, type Page } from '@playwright/test';
import { callApi, readOrgCredits } from './support/api';
import { DEMO_USERS, logInThroughForm } from './support/session';
import { DEMO_DIRECTORY, generateCompanies, generatePeople } from '../apps/server/src/features/prospects/generator';

/**
 * The demo directory's truth, from its deterministic generator (what `npm start` seeds and the demo mail world
 * knows): each person's address by name and company, and whether its mailbox exists (8 % are stale by design).
 */
function demoMailboxes(): Map<string, { email: string; deliverable: boolean }[]> {
  const companies = generateCompanies(DEMO_DIRECTORY.companies, DEMO_DIRECTORY.seed);
  const nameOf = new Map(companies.map((c) => [c.external_id, c.name]));
  const out = new Map<string, { email: string; deliverable: boolean }[]>();
  for (const p of generatePeople(DEMO_DIRECTORY.people, companies, DEMO_DIRECTORY.seed)) {
    const key = `${p.first_name} ${p.last_name} @ ${nameOf.get(p.company_external_id ?? '') ?? '-'}`;
    out.set(key, [...(out.get(key) ?? []), { email: p.email!, deliverable: p.mailbox_exists }]);
  }
  return out;
}

// The demo prospect directory (≈ 20,000 people seeded by `npm start`) and the demo mail world, which knows its mailboxes.
async function chooseOption(page: Page, label: string, option: RegExp) {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option }).first().click();
  await page.keyboard.press('Escape');
}

test.describe('prospect', () => {
  test.describe.configure({ timeout: 180_000 });

  test('search with three filters, save it, add five people to a list, enrich the list to done and export it', async ({ page, request }) => {
    await logInThroughForm(page, DEMO_USERS.owner);
    await page.goto('/prospect/people_search');
    await expect(page.getByTestId('person-row').first()).toBeVisible();
    const unfiltered = await page.getByTestId('search-total').textContent();
    await chooseOption(page, 'Country', /^United States|^US/);
    await chooseOption(page, 'Seniority', /^Senior/);
    await chooseOption(page, 'Department', /^Engineering/);
    await expect(page.getByTestId('search-total')).not.toHaveText(unfiltered ?? '');
    await expect(page.getByTestId('person-row').first()).toContainText(/Engineer/);

    await page.getByRole('button', { name: 'Save search' }).click();
    await page.getByRole('dialog').getByRole('textbox', { name: 'Name' }).fill('US senior engineers');
    await page.getByRole('dialog').getByRole('button', { name: 'Save search' }).click();
    await expect(page.getByText('Search saved')).toBeVisible();

    const rows = page.getByTestId('person-row');
    for (let i = 0; i < 5; i += 1) await rows.nth(i).getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Add to list (5)' }).click();
    await page.getByRole('dialog').getByRole('textbox', { name: 'List name' }).fill('E2E five engineers');
    await page.getByRole('dialog').getByRole('button', { name: 'Add to list' }).click();
    await expect(page.getByText(/5 added to "E2E five engineers"/)).toBeVisible();

    await page.goto('/prospect/saved_searches');
    await expect(page.getByTestId('saved-search').filter({ hasText: 'US senior engineers' })).toBeVisible();

    await page.goto('/prospect/lists');
    await page.getByRole('link', { name: 'E2E five engineers' }).first().click();
    await expect(page.getByTestId('lead-row')).toHaveCount(5);
    const before = await readOrgCredits(page, request);
    await page.getByRole('button', { name: 'Enrich list' }).click();
    await expect(page.getByTestId('enrichment-state')).toHaveText('Enrichment: Completed', { timeout: 120_000 });
    await expect(page.getByRole('progressbar', { name: 'Enrichment progress' })).toHaveAttribute('aria-valuenow', '100');
    const spent = before - (await readOrgCredits(page, request));
    expect(spent).toBeGreaterThan(0);
    // An e-mail is revealed only when the verifier finds it deliverable (valid or catch-all); a stale address (no
    // such mailbox), or one whose check ends unknown on a busy machine, stays masked and costs nothing. So: every lead
    // is either revealed with a deliverable badge or still masked; the stale ones stay masked; and of the leads whose
    // mailbox the demo mail world knows, at least one is revealed with its real address.
    const truth = demoMailboxes();
    const leads = page.getByTestId('lead-row');
    let known = 0;
    let revealed = 0;
    for (let i = 0; i < 5; i += 1) {
      const row = leads.nth(i);
      const name = (await row.getByRole('link').first().textContent())!.trim();
      const company = (await row.locator('td').nth(1).textContent())!.trim();
      const candidates = truth.get(`${name} @ ${company}`) ?? [];
      const email = (await row.getByTestId('person-email').textContent())!.trim();
      const masked = email.includes('•••');
      if (!masked) await expect(row.getByText(/^(valid|catch-all)$/)).toBeVisible();
      if (candidates.length !== 1) continue; // a name shared within a company: not told apart by the row
      if (!candidates[0]!.deliverable) expect(masked, `${name}'s stale address stays masked`).toBe(true);
      else {
        known += 1;
        if (!masked) {
          expect(email).toBe(candidates[0]!.email);
          revealed += 1;
        }
      }
    }
    expect(known, 'leads whose mailbox the demo mail world knows').toBeGreaterThan(0);
    expect(revealed, 'known deliverable leads revealed').toBeGreaterThan(0);

    await page.getByRole('button', { name: 'Export' }).click();
    const link = page.getByTestId('export-link');
    await expect(link).toBeVisible({ timeout: 60_000 });
    const file = await request.get((await link.getAttribute('href'))!);
    expect(file.status()).toBe(200);
    const csv = await file.text();
    const lines = csv.trim().split('\n');
    expect(lines[0]).toContain('full_name');
    expect(lines).toHaveLength(6);
    expect(csv).toMatch(/@/);
    expect(csv).not.toContain('•••');

    // XLSX too, opened as a workbook.
    await page.locator('label').filter({ hasText: /^XLSX$/ }).click();
    await page.getByRole('button', { name: 'Export' }).click();
    await expect(page.getByTestId('export-link')).toContainText('.xlsx', { timeout: 60_000 });
    const xlsx = await request.get((await page.getByTestId('export-link').getAttribute('href'))!);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await xlsx.body()) as unknown as ArrayBuffer);
    expect(wb.worksheets[0]!.rowCount).toBe(6);
    await page.screenshot({ path: 'test-results/e2e/prospect-list.png', fullPage: true });
  });

  test('reverse lookup by e-mail and by LinkedIn URL, with history', async ({ page, request }) => {
    await logInThroughForm(page, DEMO_USERS.owner);
    const found = await callApi<{ people: { id: string; full_name: string; linkedin_url: string }[] }>(page, request, 'POST', '/prospect/search', {
      filters: { countries: ['DE'], seniorities: ['director'] },
      limit: 25,
    });
    const enriched = await callApi<{ people: { id: string; full_name: string; email: string; email_revealed: boolean }[] }>(page, request, 'POST', '/prospect/enrich', {
      person_ids: found.people.slice(0, 5).map((p) => p.id),
    });
    // The first of them whose address the verifier found deliverable (so it is revealed); someone else by LinkedIn URL.
    const a = enriched.people.find((p) => p.email_revealed)!;
    const email = a.email;
    const b = found.people.find((p) => p.id !== a.id)!;
    await page.goto('/reverse_lookup/email');
    await page.getByRole('textbox', { name: 'Email address' }).fill(email);
    await page.getByRole('button', { name: 'Look up' }).click();
    await expect(page.getByTestId('lookup-result')).toContainText(a.full_name);
    await expect(page.getByTestId('lookup-history-row').first()).toContainText(email);

    await page.goto('/reverse_lookup/linkedin');
    await page.getByRole('textbox', { name: 'LinkedIn URL' }).fill('https://example.com/nope');
    await page.getByRole('button', { name: 'Look up' }).click();
    await expect(page.getByText(/Please enter a LinkedIn profile URL/)).toBeVisible();
    await page.getByRole('textbox', { name: 'LinkedIn URL' }).fill(b.linkedin_url);
    await page.getByRole('button', { name: 'Look up' }).click();
    await expect(page.getByTestId('lookup-result')).toContainText(b.full_name);
    await expect(page.getByTestId('lookup-history-row').first()).toContainText(b.linkedin_url);
  });

  test('the public reverse-lookup page answers without login and stops at its per-IP limit', async ({ page }) => {
    await page.goto('/public/reverse-lookup');
    const input = page.getByRole('textbox', { name: 'Email address' });
    for (let i = 0; i < 5; i += 1) {
      await input.fill(`nobody${i}@nowhere.test`);
      await page.getByRole('button', { name: 'Look up' }).click();
      await expect(page.getByTestId('public-result')).toContainText('No match');
    }
    await input.fill('one.more@nowhere.test');
    await page.getByRole('button', { name: 'Look up' }).click();
    await expect(page.getByTestId('public-limit')).toContainText('Daily limit reached');
  });
});
