import { sql } from 'drizzle-orm';
import { selectRows, type TDb } from '../../platform/db/database';
import { PERSON_COLUMNS, type TPersonRow } from './search-queries';

// The statements of revealed contact data (`prospect_reveals`: one row per organisation, person and field).

/** These people of the directory. */
export function selectPeopleByIds(exec: TDb, ids: readonly string[]): Promise<TPersonRow[]> {
  return selectRows<TPersonRow>(
    exec,
    sql`select ${PERSON_COLUMNS} from directory_people p where p.id in (${sql.join(
      ids.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`,
  );
}

/** The fields an organisation revealed of one person. */
export async function selectRevealedFields(exec: TDb, orgId: string, personId: string): Promise<string[]> {
  const rows = await selectRows<{ field: string }>(exec, sql`select field from prospect_reveals where org_id = ${orgId} and person_id = ${personId}`);
  return rows.map((r) => r.field);
}

/**
 * Inserts the reveal row of one field unless the organisation has it already (one winner: `on conflict do nothing`);
 * true when this insert made it (and so the caller charges it).
 */
export async function insertReveal(
  tx: TDb,
  row: { orgId: string; userId: string; personId: string; field: 'email' | 'phone'; value: string; status: string | null; credits: number },
): Promise<boolean> {
  const inserted = await selectRows<{ person_id: string }>(
    tx,
    sql`insert into prospect_reveals (org_id, person_id, field, value, status, user_id, credits)
        values (${row.orgId}, ${row.personId}, ${row.field}, ${row.value}, ${row.status}, ${row.userId}, ${row.credits})
        on conflict (org_id, person_id, field) do nothing returning person_id`,
  );
  return inserted.length > 0;
}

export type TRevealRow = { person_id: string; field: 'email' | 'phone'; value: string; status: string | null };

/** What an organisation revealed of these people (their e-mail and phone rows). */
export function selectRevealRows(exec: TDb, orgId: string, personIds: readonly string[]): Promise<TRevealRow[]> {
  return selectRows<TRevealRow>(
    exec,
    sql`select person_id, field, value, status from prospect_reveals where org_id = ${orgId}
        and person_id in (${sql.join(
          personIds.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})`,
  );
}
