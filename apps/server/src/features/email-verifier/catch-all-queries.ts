import { sql } from 'drizzle-orm';
import { selectRows, type TDb } from '../../platform/db/database';

/**
 * The SQL of a catch-all score's evidence (catch-all-evidence.ts says what may count and weighs it). The finder's
 * pattern counts and the prospect directory belong to other features; they are read here by table name, read-only.
 */

/** `%@domain`, the domain's LIKE wildcards escaped. */
function domainSuffix(domain: string): string {
  return `%@${domain.replace(/[\\%_]/g, (c) => `\\${c}`)}`;
}

/** The installation's finder pattern counts at a domain (no address, no name, no organisation). */
export function selectSharedPatternCounts(exec: TDb, domain: string) {
  return selectRows<{ pattern: string; valid_count: number }>(exec, sql`select pattern, valid_count from finder_domain_patterns where domain = ${domain}`);
}

/** The addresses at a domain the organisation verified valid, instant or in a list (lower case; at most `limit` of each). */
export async function selectOwnValidAddressesAtDomain(exec: TDb, orgId: string, domain: string, limit: number): Promise<string[]> {
  const suffix = domainSuffix(domain);
  const rows = await selectRows<{ email: string }>(
    exec,
    sql`(select lower(email) as email from instant_verifications
         where org_id = ${orgId} and status = 'valid' and lower(email) like ${suffix} limit ${limit})
        union
        (select lower(e.email) from verify_list_emails e join verify_lists l on l.id = e.list_id
         where l.org_id = ${orgId} and e.status = 'valid' and lower(e.email) like ${suffix} limit ${limit})`,
  );
  return rows.map((r) => r.email);
}

/** The directory's people at a domain's companies or with an address at it (at most `limit`). */
export function selectDirectoryPeopleAtDomain(exec: TDb, domain: string, limit: number) {
  const suffix = domainSuffix(domain);
  return selectRows<{ first_name: string; last_name: string; email: string | null }>(
    exec,
    sql`select p.first_name, p.last_name, p.email from directory_people p
        where p.company_id in (select id from directory_companies where domain = ${domain}) or lower(p.email) like ${suffix}
        limit ${limit}`,
  );
}
