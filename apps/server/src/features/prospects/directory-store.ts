import { sql } from 'drizzle-orm';
import { selectRows, type TDatabase, type TDb } from '../../platform/db/database';
import { PERSONAL_MAIL_DOMAINS, ROLE_LOCAL_PARTS, revenueRangeOf, sizeRangeOf } from './directory-data';
import type { TCompanyRow, TPersonRow } from './records';

/**
 * Writes the directory: idempotent upserts keyed by the operator's external ids, a batch per statement (the batch
 * travels as one JSON parameter). The company's searchable fields are copied onto its people.
 */

export async function upsertCompanies(exec: TDb, rows: readonly TCompanyRow[]): Promise<void> {
  if (rows.length === 0) return;
  const batch = rows.map((r) => ({
    ...r,
    size_range: sizeRangeOf(r.employees),
    revenue_range: r.revenue_usd === null ? 'unknown' : revenueRangeOf(r.revenue_usd),
    technologies: r.technologies.join('\u001f'),
  }));
  await exec.execute(sql`
    insert into directory_companies as d (external_id, name, domain, industry, industry_code, size_range, employees, revenue_range, revenue_usd,
      founded_year, technologies, country, region, city, phone, linkedin_url, updated_at)
    select r.external_id, r.name, r.domain, r.industry, r.industry_code, r.size_range, r.employees, r.revenue_range, r.revenue_usd,
      r.founded_year, case when r.technologies = '' then '{}'::text[] else string_to_array(r.technologies, chr(31)) end,
      r.country, r.region, r.city, r.phone, r.linkedin_url, now()
    from jsonb_to_recordset(${JSON.stringify(batch)}::jsonb) as r(external_id text, name text, domain text, industry text, industry_code text,
      size_range text, employees int, revenue_range text, revenue_usd bigint, founded_year int, technologies text, country text, region text,
      city text, phone text, linkedin_url text)
    on conflict (external_id) do update set name = excluded.name, domain = excluded.domain, industry = excluded.industry,
      industry_code = excluded.industry_code, size_range = excluded.size_range, employees = excluded.employees,
      revenue_range = excluded.revenue_range, revenue_usd = excluded.revenue_usd, founded_year = excluded.founded_year,
      technologies = excluded.technologies, country = excluded.country, region = excluded.region, city = excluded.city,
      phone = excluded.phone, linkedin_url = excluded.linkedin_url, updated_at = now()`);
  // People of a changed company follow it (their copy of its searchable fields).
  await exec.execute(sql`
    update directory_people p set company_name = c.name, company_domain = c.domain, industry = c.industry, size_range = c.size_range,
      revenue_range = c.revenue_range, founded_year = c.founded_year, technologies = c.technologies
    from directory_companies c
    where p.company_id = c.id and c.external_id in (select jsonb_array_elements_text(${JSON.stringify(rows.map((r) => r.external_id))}::jsonb))
      and (p.company_name is distinct from c.name or p.company_domain is distinct from c.domain or p.industry is distinct from c.industry
        or p.size_range is distinct from c.size_range or p.revenue_range is distinct from c.revenue_range
        or p.founded_year is distinct from c.founded_year or p.technologies is distinct from c.technologies)`);
}

/** https://www.linkedin.com/in/<handle>, lower case, without query or trailing slash. */
export function canonicalLinkedin(url: string): string | null {
  const m = /linkedin\.com\/in\/([^/?#\s]+)/i.exec(url.trim());
  return m ? `https://www.linkedin.com/in/${decodeURIComponent(m[1]!).toLowerCase()}` : null;
}

/** Whether an address is a role mailbox (info@, sales@…) and whether it is personal (free mail) or business. */
export function classifyEmail(email: string | null): { type: 'business' | 'personal' | null; role: boolean } {
  if (!email) return { type: null, role: false };
  const [local = '', domain = ''] = email.split('@');
  return { type: PERSONAL_MAIL_DOMAINS.has(domain) ? 'personal' : 'business', role: ROLE_LOCAL_PARTS.has(local) };
}

/** Upserts people; answers the external ids whose company_external_id names no known company (stored without company). */
export async function upsertPeople(exec: TDb, rows: readonly TPersonRow[]): Promise<{ unknownCompanies: string[] }> {
  if (rows.length === 0) return { unknownCompanies: [] };
  const batch = rows.map((r) => {
    const e = classifyEmail(r.email);
    return {
      ...r,
      full_name: `${r.first_name} ${r.last_name}`,
      email_type: e.type,
      email_role: e.role,
      linkedin_url: r.linkedin_url ? (canonicalLinkedin(r.linkedin_url) ?? r.linkedin_url) : null,
    };
  });
  const missing = await selectRows<{ external_id: string }>(
    exec,
    sql`
    with r as (select * from jsonb_to_recordset(${JSON.stringify(batch)}::jsonb) as r(external_id text, first_name text, last_name text,
      full_name text, title text, seniority text, department text, country text, region text, city text, company_external_id text, email text,
      email_type text, email_role boolean, phone text, phone_type text, linkedin_url text)),
    up as (
      insert into directory_people as d (external_id, first_name, last_name, full_name, title, seniority, department, country, region, city,
        company_id, company_name, company_domain, industry, size_range, revenue_range, founded_year, technologies, email, email_type, email_role,
        phone, phone_type, linkedin_url, updated_at)
      select r.external_id, r.first_name, r.last_name, r.full_name, r.title, r.seniority, r.department, r.country, r.region, r.city,
        c.id, c.name, c.domain, c.industry, c.size_range, c.revenue_range, c.founded_year, coalesce(c.technologies, '{}'), r.email, r.email_type,
        coalesce(r.email_role, false), r.phone, r.phone_type, r.linkedin_url, now()
      from r left join directory_companies c on c.external_id = r.company_external_id
      on conflict (external_id) do update set first_name = excluded.first_name, last_name = excluded.last_name, full_name = excluded.full_name,
        title = excluded.title, seniority = excluded.seniority, department = excluded.department, country = excluded.country,
        region = excluded.region, city = excluded.city, company_id = excluded.company_id, company_name = excluded.company_name,
        company_domain = excluded.company_domain, industry = excluded.industry, size_range = excluded.size_range,
        revenue_range = excluded.revenue_range, founded_year = excluded.founded_year, technologies = excluded.technologies,
        email = excluded.email, email_type = excluded.email_type, email_role = excluded.email_role, phone = excluded.phone,
        phone_type = excluded.phone_type, linkedin_url = excluded.linkedin_url, updated_at = now()
      returning 1
    )
    select r.external_id from r left join directory_companies c on c.external_id = r.company_external_id
    where r.company_external_id is not null and c.id is null and (select count(*) from up) >= 0`,
  );
  await exec.execute(sql`insert into directory_titles (title) select distinct t from jsonb_array_elements_text(${JSON.stringify([...new Set(rows.map((r) => r.title))])}::jsonb) t on conflict do nothing`);
  return { unknownCompanies: missing.map((m) => m.external_id) };
}

export async function countDirectory(exec: TDb): Promise<{ people: number; companies: number }> {
  const rows = await selectRows<{ people: number; companies: number }>(
    exec,
    sql`select (select count(*)::int from directory_people) as people, (select count(*)::int from directory_companies) as companies`,
  );
  return rows[0] ?? { people: 0, companies: 0 };
}

/**
 * After a bulk write: VACUUM sets the visibility map, so counts and page ids come from index-only scans, and ANALYZE
 * gives the planner the new distribution (autovacuum would do both, later). The facet roll-ups and the companies'
 * technologies need nothing else: triggers keep them.
 */
export async function settleDirectory(database: TDatabase): Promise<void> {
  await database.db.execute(sql`vacuum (analyze) directory_people`);
  await database.db.execute(sql`vacuum (analyze) directory_companies`);
  await database.db.execute(sql`vacuum (analyze) directory_company_technologies`);
}
