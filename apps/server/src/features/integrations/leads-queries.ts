import { sql } from 'drizzle-orm';
import { selectRows, type TDb } from '../../platform/db/database';
import type { TCallerContext } from '../../platform/tenancy/context';
import { visible } from '../prospects';

// The SQL of the `leads` source (leads-source.ts): prospect lists and their leads with a revealed e-mail.

/** How many of a list's leads have an e-mail the organisation revealed (`l` is the prospect list's alias). */
const emailCount = sql.raw(
  `(select count(*)::int from prospect_list_leads ll join prospect_reveals r on r.person_id = ll.person_id and r.org_id = l.org_id and r.field = 'email' where ll.list_id = l.id)`,
);

/** The caller's visible prospect lists, newest first, with their lead and revealed e-mail counts. */
export async function selectLeadsSources(exec: TDb, ctx: TCallerContext) {
  return selectRows<{ id: string; name: string; lead_count: number; email_count: number }>(
    exec,
    sql`select l.id, l.name, l.lead_count, ${emailCount} as email_count
        from prospect_lists l where ${visible(ctx, 'l')} order by l.created_at desc, l.id limit 500`,
  );
}

/** The organisation's prospect lists with their revealed e-mail counts. */
export async function selectLeadsLists(exec: TDb, orgId: string) {
  return selectRows<{ id: string; name: string; n: number }>(exec, sql`select l.id, l.name, ${emailCount} as n from prospect_lists l where l.org_id = ${orgId}`);
}

/** A page of a list's leads with a revealed e-mail after `cursor` (a person id), in person id order. */
export async function selectLeadMembers(exec: TDb, orgId: string, listId: string, cursor: string | null, limit: number) {
  return selectRows<{ person_id: string; email: string; first_name: string; last_name: string }>(
    exec,
    sql`select ll.person_id, r.value as email, p.first_name, p.last_name
        from prospect_list_leads ll
        join prospect_lists l on l.id = ll.list_id and l.org_id = ${orgId}
        join prospect_reveals r on r.person_id = ll.person_id and r.org_id = ${orgId} and r.field = 'email'
        join directory_people p on p.id = ll.person_id
        where ll.list_id = ${listId} ${cursor ? sql`and ll.person_id > ${cursor}` : sql``}
        order by ll.person_id limit ${limit}`,
  );
}

/** How many of a list's leads have an e-mail the organisation revealed. */
export async function countLeadEmails(exec: TDb, orgId: string, listId: string): Promise<number> {
  const [{ n } = { n: 0 }] = await selectRows<{ n: number }>(
    exec,
    sql`select count(*)::int as n from prospect_list_leads ll join prospect_reveals r on r.person_id = ll.person_id and r.org_id = ${orgId} and r.field = 'email' where ll.list_id = ${listId}`,
  );
  return Number(n);
}

/** Stores a verdict on the organisation's revealed e-mail of a person. */
export async function updateRevealedEmailStatus(exec: TDb, orgId: string, personId: string, status: string): Promise<void> {
  await exec.execute(sql`update prospect_reveals set status = ${status} where org_id = ${orgId} and person_id = ${personId} and field = 'email'`);
}
