import { sql } from 'drizzle-orm';
import { selectRows, type TDb } from '../../platform/db/database';
import { PERSON_COLUMNS, type TPersonRow } from './search-queries';

// The statements of prospect files (export.ts pages through them for the downloads export job).

/** How many of these (distinct) ids are people of the directory. */
export async function countKnownPeople(exec: TDb, ids: readonly string[]): Promise<number> {
  const found = await selectRows<{ n: number }>(
    exec,
    sql`select count(*)::int as n from directory_people where id in (${sql.join(
      ids.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`,
  );
  return found[0]?.n ?? 0;
}

/** A page of a list's people (the list of the organisation), in the order they were added. */
export function selectListExportPage(exec: TDb, orgId: string, listId: string, offset: number, limit: number): Promise<TPersonRow[]> {
  return selectRows<TPersonRow>(
    exec,
    sql`select ${PERSON_COLUMNS} from prospect_list_leads ll join directory_people p on p.id = ll.person_id join prospect_lists l on l.id = ll.list_id
        where ll.list_id = ${listId} and l.org_id = ${orgId} order by ll.added_at, p.id limit ${limit} offset ${offset}`,
  );
}

/** These people, by last name. */
export function selectPeopleForExport(exec: TDb, ids: readonly string[]): Promise<TPersonRow[]> {
  return selectRows<TPersonRow>(
    exec,
    sql`select ${PERSON_COLUMNS} from directory_people p where p.id in (${sql.join(
      ids.map((id) => sql`${id}::uuid`),
      sql`, `,
    )}) order by p.last_name, p.id`,
  );
}
