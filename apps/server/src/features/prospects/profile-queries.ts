import { sql } from 'drizzle-orm';
import { selectRows, type TDb } from '../../platform/db/database';
import type { TCallerContext } from '../../platform/tenancy/context';
import { visible } from './list-queries';
import { PERSON_COLUMNS, type TCompanyRow, type TPersonRow } from './search-queries';

// The statements of profiles (a person's, a company's with its people) and of the prospect activity feed.

/** A company of the directory with how many people it has. */
export async function selectCompanyWithPeopleCount(exec: TDb, id: string): Promise<TCompanyRow | null> {
  const rows = await selectRows<TCompanyRow>(
    exec,
    sql`select c.*, (select count(*)::int from directory_people p where p.company_id = c.id) as people_count from directory_companies c where c.id = ${id}`,
  );
  return rows[0] ?? null;
}

/** A person of the directory (as a one-row list, none when unknown). */
export function selectPersonRows(exec: TDb, personId: string): Promise<TPersonRow[]> {
  return selectRows<TPersonRow>(exec, sql`select ${PERSON_COLUMNS} from directory_people p where p.id = ${personId}`);
}

/** The lists the caller may see that hold the person, by name. */
export function selectListsOfPerson(exec: TDb, ctx: TCallerContext, personId: string): Promise<{ id: string; name: string }[]> {
  return selectRows<{ id: string; name: string }>(
    exec,
    sql`select l.id, l.name from prospect_list_leads ll join prospect_lists l on l.id = ll.list_id where ll.person_id = ${personId} and ${visible(ctx, 'l')} order by l.name`,
  );
}

/** A page of a company's people, most senior first, and how many it has. */
export async function selectCompanyPeoplePage(exec: TDb, q: { company_id: string; page: number; limit: number }): Promise<{ rows: TPersonRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    selectRows<TPersonRow>(
      exec,
      sql`select ${PERSON_COLUMNS} from directory_people p where p.company_id = ${q.company_id}
          order by array_position(array['owner','founder','c_suite','partner','vp','head','director','manager','senior','entry','intern']::text[], p.seniority), p.id
          limit ${q.limit} offset ${(q.page - 1) * q.limit}`,
    ),
    selectRows<{ n: number }>(exec, sql`select count(*)::int as n from directory_people p where p.company_id = ${q.company_id}`),
  ]);
  return { rows, total: count[0]?.n ?? 0 };
}

/** The caller's visible prospect activities (enrichments, prospect exports), newest first (at most 20). */
export function selectProspectActivities(exec: TDb, ctx: TCallerContext): Promise<{ type: string; description: string; created_at: Date | string }[]> {
  return selectRows<{ type: string; description: string; created_at: Date | string }>(
    exec,
    sql`select a.type, a.description, a.created_at from activities a where ${visible(ctx, 'a')}
        and (a.metadata->>'feature' = 'prospect'
             or (a.type = 'export' and exists (select 1 from downloads d where d.id::text = a.metadata->>'download_id' and d.kind = 'prospects')))
        order by a.created_at desc limit 20`,
  );
}
