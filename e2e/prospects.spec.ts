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
const truth = demoMailboxes();

/** The address of the person of this name at this company when its mailbox exists in the demo mail world (and the name is theirs alone there). */
function deliverableAddress(name: string, company: string): string | null {
  const candidates = truth.get(`${name} @ ${company}`) ?? [];
  return candidates.length === 1 && candidates[0]!.deliverable ? candidates[0]!.email : null;
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

    // Five people whose mailbox exists in the demo mail world (stale addresses are never revealed, by design).
    const rows = page.getByTestId('person-row');
    const chosen = new Map<string, string>();
    for (let i = 0; chosen.size < 5 && i < (await rows.count()); i += 1) {
      const row = rows.nth(i);
      const name = (await row.getByRole('link').first().textContent())!.trim();
      const address = deliverableAddress(name, (await row.locator('td').nth(2).getByRole('link').textContent())!.trim());
      if (!address || chosen.has(name)) continue;
      chosen.set(name, address);
      await row.getByRole('checkbox').check();
    }
    expect(chosen.size, 'deliverable people among the first results').toBe(5);
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
    // Issue 28: the most it can cost is confirmed first (5 e-mails at 1, 5 phones at 2); nothing starts before.
    const confirm = page.getByRole('dialog', { name: 'Enrich this list?' });
    await expect(confirm.getByTestId('enrich-max-cost')).toHaveText('15 credits');
    await page.screenshot({ path: 'test-results/e2e/prospects-enrich-confirm-1366.png' });
    await page.setViewportSize({ width: 375, height: 812 });
    await page.screenshot({ path: 'test-results/e2e/prospects-enrich-confirm-375.png' });
    await page.setViewportSize({ width: 1366, height: 900 });
    expect(await readOrgCredits(page, request)).toBe(before);
    await confirm.getByRole('button', { name: 'Enrich for at most 15 credits' }).click();
    await expect(page.getByTestId('enrichment-state')).toHaveText('Enrichment: Completed', { timeout: 120_000 });
    await expect(page.getByRole('progressbar', { name: 'Enrichment progress' })).toHaveAttribute('aria-valuenow', '100');
    // Every lead's mailbox exists, so the list's thorough check (greylisting waited out, a failed check tried again)
    // reveals each one with its real address and a deliverable badge, each charged once.
    const leads = page.getByTestId('lead-row');
    for (let i = 0; i < 5; i += 1) {
      const row = leads.nth(i);
      const name = (await row.getByRole('link').first().textContent())!.trim();
      await expect(row.getByTestId('person-email'), name).toHaveText(chosen.get(name)!);
      await expect(row.getByText(/^(valid|catch-all)$/)).toBeVisible();
    }
    const spent = before - (await readOrgCredits(page, request));
    expect(spent, 'at least one credit for each revealed e-mail').toBeGreaterThanOrEqual(5);
    // What the screen says was charged is what left the balance.
    await expect(page.getByTestId('enrichment-charged')).toHaveText(`${spent} credits charged`);
    await page.screenshot({ path: 'test-results/e2e/prospects-enrich-charged-1366.png' });

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
    const found = await callApi<{ people: { id: string; full_name: string; linkedin_url: string; company: { name: string } | null }[] }>(page, request, 'POST', '/prospect/search', {
      filters: { countries: ['DE'], seniorities: ['director'] },
      limit: 25,
    });
    // Three of them whose mailbox exists in the demo mail world: revealing them (checked in the request) shows each
    // real address. The first is looked up by e-mail, someone else by LinkedIn URL.
    const known = found.people.filter((p) => deliverableAddress(p.full_name, p.company?.name ?? '-')).slice(0, 3);
    expect(known, 'deliverable people among the results').toHaveLength(3);
    const enriched = await callApi<{ people: { id: string; full_name: string; email: string; email_revealed: boolean }[]; results: { person_id: string; email: { code: string; reason: string | null } }[] }>(
      page,
      request,
      'POST',
      '/prospect/enrich',
      { person_ids: known.map((p) => p.id) },
    );
    for (const p of known) {
      const shown = enriched.people.find((e) => e.id === p.id)!;
      const result = enriched.results.find((r) => r.person_id === p.id)!;
      expect({ revealed: shown.email_revealed, email: shown.email, why: result.email.reason }).toEqual({ revealed: true, email: deliverableAddress(p.full_name, p.company?.name ?? '-'), why: null });
    }
    const a = enriched.people.find((p) => p.id === known[0]!.id)!;
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
