import { sql } from 'drizzle-orm';
import { selectRows, type TDb } from '../../platform/db/database';
import type { TCallerContext } from '../../platform/tenancy/context';
import { visible } from './list-queries';
import { PERSON_COLUMNS, type TCompanyRow, type TPersonRow } from './search-queries';

// The statements of reverse lookups (lookup.ts keeps the charging rule and the transaction).

/** The person of the directory with this e-mail address (any case). */
export async function selectPersonByEmail(exec: TDb, email: string): Promise<TPersonRow | null> {
  const rows = await selectRows<TPersonRow>(exec, sql`select ${PERSON_COLUMNS} from directory_people p where lower(p.email) = ${email.toLowerCase()} limit 1`);
  return rows[0] ?? null;
}

/** The person of the directory with this (canonical) LinkedIn URL. */
export async function selectPersonByLinkedin(exec: TDb, url: string): Promise<TPersonRow | null> {
  const rows = await selectRows<TPersonRow>(exec, sql`select ${PERSON_COLUMNS} from directory_people p where p.linkedin_url = ${url} limit 1`);
  return rows[0] ?? null;
}

/** Keeps a lookup in the history; answers its id. */
export async function insertReverseLookup(
  tx: TDb,
  row: { orgId: string; userId: string; kind: 'email' | 'linkedin'; query: string; personId: string | null; found: boolean },
): Promise<string> {
  const rows = await selectRows<{ id: string }>(
    tx,
    sql`insert into reverse_lookups (org_id, user_id, kind, query, person_id, found) values (${row.orgId}, ${row.userId}, ${row.kind}, ${row.query}, ${row.personId}, ${row.found}) returning id`,
  );
  return rows[0]!.id;
}

/** Whether the organisation has any reveal row (any field) of the person. */
export async function hasAnyReveal(tx: TDb, orgId: string, personId: string): Promise<boolean> {
  return (await selectRows<{ one: number }>(tx, sql`select 1 as one from prospect_reveals where org_id = ${orgId} and person_id = ${personId} limit 1`)).length > 0;
}

/** Inserts the person's `lookup` reveal row unless it exists (one winner); true when this insert made it. */
export async function insertLookupReveal(tx: TDb, row: { orgId: string; userId: string; personId: string; query: string; credits: number }): Promise<boolean> {
  const first = await selectRows<{ person_id: string }>(
    tx,
    sql`insert into prospect_reveals (org_id, person_id, field, value, user_id, credits) values (${row.orgId}, ${row.personId}, 'lookup', ${row.query}, ${row.userId}, ${row.credits})
        on conflict (org_id, person_id, field) do nothing returning person_id`,
  );
  return first.length > 0;
}

/** A company of the directory (every column). */
export async function selectCompanyRow(exec: TDb, companyId: string): Promise<TCompanyRow | undefined> {
  const c = await selectRows<TCompanyRow>(exec, sql`select * from directory_companies where id = ${companyId}`);
  return c[0];
}

export type TLookupHistoryRow = {
  id: string;
  kind: 'email' | 'linkedin';
  query: string;
  found: boolean;
  full_name: string | null;
  title: string | null;
  company_name: string | null;
  created_at: Date | string;
};

/** A page of the lookups the caller may see (of one kind when given), newest first, and how many there are. */
export async function selectLookupHistory(
  exec: TDb,
  ctx: TCallerContext,
  q: { kind?: 'email' | 'linkedin'; page: number; limit: number },
): Promise<{ rows: TLookupHistoryRow[]; total: number }> {
  const where = q.kind ? sql`${visible(ctx, 'h')} and h.kind = ${q.kind}` : visible(ctx, 'h');
  const [rows, count] = await Promise.all([
    selectRows<TLookupHistoryRow>(
      exec,
      sql`select h.id, h.kind, h.query, h.found, p.full_name, p.title, p.company_name, h.created_at from reverse_lookups h
          left join directory_people p on p.id = h.person_id where ${where} order by h.created_at desc, h.id limit ${q.limit} offset ${(q.page - 1) * q.limit}`,
    ),
    selectRows<{ n: number }>(exec, sql`select count(*)::int as n from reverse_lookups h where ${where}`),
  ]);
  return { rows, total: count[0]?.n ?? 0 };
}
