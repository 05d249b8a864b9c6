import type { TProspectCompany, TProspectPerson, TSeniority, TDepartment } from '@verilead/contracts';
import type { TDb } from '../../platform/db/database';
import { selectRevealRows } from './reveal-queries';
import type { TCompanyRow, TPersonRow } from './search-queries';

export type TReveal = { field: 'email' | 'phone'; value: string; status: string | null };
export type TRevealMap = Map<string, { email?: TReveal; phone?: TReveal }>;

/** j•••@s•••.test: enough to tell there is an address, nothing to send to. */
export function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  const dot = domain.lastIndexOf('.');
  const tld = dot >= 0 ? domain.slice(dot) : '';
  return `${local.slice(0, 1)}•••@${domain.slice(0, 1)}•••${tld}`;
}

/** +49 ••• •• 28: the country code and the last two digits. */
export function maskPhone(phone: string): string {
  const m = /^\+(\d{1,3})/.exec(phone);
  return `+${m?.[1] ?? ''} ••• ••• ${phone.slice(-2)}`;
}

/** What an organisation revealed of these people. */
export async function loadReveals(exec: TDb, orgId: string, personIds: readonly string[]): Promise<TRevealMap> {
  const map: TRevealMap = new Map();
  if (personIds.length === 0) return map;
  const rows = await selectRevealRows(exec, orgId, personIds);
  for (const r of rows) {
    const entry = map.get(r.person_id) ?? {};
    entry[r.field] = { field: r.field, value: r.value, status: r.status };
    map.set(r.person_id, entry);
  }
  return map;
}

export function toPersonView(row: TPersonRow, reveals: TRevealMap): TProspectPerson {
  const r = reveals.get(row.id) ?? {};
  return {
    id: row.id,
    full_name: row.full_name,
    first_name: row.first_name,
    last_name: row.last_name,
    title: row.title,
    seniority: row.seniority as TSeniority,
    department: row.department as TDepartment,
    country: row.country,
    region: row.region,
    city: row.city,
    linkedin_url: row.linkedin_url,
    company: row.company_name
      ? { id: row.company_id, name: row.company_name, domain: row.company_domain, industry: row.industry, size_range: row.size_range }
      : null,
    has_email: !!row.email,
    has_phone: !!row.phone,
    email: r.email ? r.email.value : row.email ? maskEmail(row.email) : null,
    email_revealed: !!r.email,
    email_status: r.email?.status ?? null,
    phone: r.phone ? r.phone.value : row.phone ? maskPhone(row.phone) : null,
    phone_revealed: !!r.phone,
    phone_type: row.phone_type,
  };
}

export async function toPersonViews(exec: TDb, orgId: string, rows: readonly TPersonRow[]): Promise<TProspectPerson[]> {
  const reveals = await loadReveals(
    exec,
    orgId,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toPersonView(r, reveals));
}

export function toCompanyView(row: TCompanyRow): TProspectCompany {
  return {
    id: row.id,
    name: row.name,
    domain: row.domain,
    industry: row.industry,
    industry_code: row.industry_code,
    size_range: row.size_range,
    employees: Number(row.employees),
    revenue_range: row.revenue_range,
    founded_year: row.founded_year,
    technologies: row.technologies ?? [],
    country: row.country,
    region: row.region,
    city: row.city,
    linkedin_url: row.linkedin_url,
    ...(row.people_count !== undefined ? { people_count: Number(row.people_count) } : {}),
  };
}
