import { sql } from 'drizzle-orm';
import { selectRows, type TDb } from '../../platform/db/database';
import { likePattern } from './search';

// SQL the prospect routes used to hold inline: routes stay thin and never import the ORM.

/** How many e-mails and phones the organisation revealed among a list's people. */
export async function selectListRevealCounts(exec: TDb, orgId: string, listId: string): Promise<{ emails: number; phones: number }> {
  const counts = await selectRows<{ emails: number; phones: number }>(
    exec,
    sql`select count(*) filter (where rv.field = 'email')::int as emails, count(*) filter (where rv.field = 'phone')::int as phones
        from prospect_list_leads ll join prospect_reveals rv on rv.person_id = ll.person_id and rv.org_id = ${orgId} where ll.list_id = ${listId}`,
  );
  return { emails: counts[0]?.emails ?? 0, phones: counts[0]?.phones ?? 0 };
}

/** Up to ten directory companies whose name or domain starts with (or whose name holds) the text, best first. */
export async function selectCompanyAutocomplete(exec: TDb, q: string): Promise<{ id: string; name: string; domain: string }[]> {
  return selectRows<{ id: string; name: string; domain: string }>(
    exec,
    sql`select id, name, domain from directory_companies where name ilike ${likePattern(q)} or domain ilike ${`${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`}
        order by (name ilike ${`${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}) desc, employees desc, id limit 10`,
  );
}
