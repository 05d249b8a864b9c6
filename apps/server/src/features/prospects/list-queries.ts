import { sql, type SQL } from 'drizzle-orm';
import type { TProspectFilters } from '@verilead/contracts';
import { selectRows, type TDb } from '../../platform/db/database';
import { getVisibleScope, type TCallerContext } from '../../platform/tenancy/context';
import { likePattern } from './person-match-queries';
import { PERSON_COLUMNS, type TPersonRow } from './search-queries';

// The statements of prospect lists and saved searches (lists.ts keeps the rules and the transactions).

/** Lists and saved searches are member objects: the organisation's, and only the member's own for an Executive. */
export function visible(ctx: TCallerContext, alias: string): SQL {
  const scope = getVisibleScope(ctx);
  const a = sql.raw(alias);
  return scope.userId ? sql`${a}.org_id = ${scope.orgId} and ${a}.user_id = ${scope.userId}` : sql`${a}.org_id = ${scope.orgId}`;
}

export type TListRow = { id: string; name: string; lead_count: number; state: string; user_id: string; created_at: Date | string; updated_at: Date | string };

const LIST_COLUMNS = sql.raw('l.id, l.name, l.lead_count, l.state, l.user_id, l.created_at, l.updated_at');

function uuidList(ids: readonly string[]): SQL {
  return sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
}

/** A list the caller may see; `forUpdate` locks it for the rest of the transaction. */
export async function selectVisibleList(exec: TDb, ctx: TCallerContext, listId: string, forUpdate: boolean): Promise<TListRow | undefined> {
  const rows = await selectRows<TListRow>(
    exec,
    sql`select ${LIST_COLUMNS} from prospect_lists l where l.id = ${listId} and ${visible(ctx, 'l')} ${forUpdate ? sql`for update` : sql``}`,
  );
  return rows[0];
}

/** A page of the lists the caller may see (whose name holds `q` when given), newest first, and how many there are. */
export async function selectListsPage(exec: TDb, ctx: TCallerContext, q: { q?: string; page: number; limit: number }): Promise<{ rows: TListRow[]; total: number }> {
  const where = q.q ? sql`${visible(ctx, 'l')} and l.name ilike ${likePattern(q.q)}` : visible(ctx, 'l');
  const [rows, count] = await Promise.all([
    selectRows<TListRow>(exec, sql`select ${LIST_COLUMNS} from prospect_lists l where ${where} order by l.created_at desc, l.id limit ${q.limit} offset ${(q.page - 1) * q.limit}`),
    selectRows<{ n: number }>(exec, sql`select count(*)::int as n from prospect_lists l where ${where}`),
  ]);
  return { rows, total: count[0]?.n ?? 0 };
}

/** Sets the list's lead count from its leads. */
export async function refreshLeadCount(tx: TDb, listId: string): Promise<void> {
  await tx.execute(sql`update prospect_lists set lead_count = (select count(*) from prospect_list_leads where list_id = ${listId}), updated_at = now() where id = ${listId}`);
}

export async function insertList(tx: TDb, ctx: TCallerContext, name: string): Promise<string> {
  const created = await selectRows<{ id: string }>(tx, sql`insert into prospect_lists (org_id, user_id, name) values (${ctx.orgId}, ${ctx.userId}, ${name}) returning id`);
  return created[0]!.id;
}

/** Which of these ids are people of the directory. */
export function selectKnownPeople(tx: TDb, ids: readonly string[]): Promise<{ id: string }[]> {
  return selectRows<{ id: string }>(tx, sql`select id from directory_people where id in (${uuidList(ids)})`);
}

/** Adds the people to the list (those already in it stay as they are); answers those added. */
export function insertListLeads(tx: TDb, listId: string, personIds: readonly string[]): Promise<{ person_id: string }[]> {
  return selectRows<{ person_id: string }>(
    tx,
    sql`insert into prospect_list_leads (list_id, person_id) select ${listId}, id from directory_people where id in (${uuidList(personIds)}) on conflict do nothing returning person_id`,
  );
}

export async function renameList(tx: TDb, listId: string, name: string): Promise<void> {
  await tx.execute(sql`update prospect_lists set name = ${name}, updated_at = now() where id = ${listId}`);
}

export async function deleteList(tx: TDb, listId: string): Promise<void> {
  await tx.execute(sql`delete from prospect_lists where id = ${listId}`);
}

/** Removes the people from the list; answers those removed. */
export function deleteListLeads(tx: TDb, listId: string, personIds: readonly string[]): Promise<{ person_id: string }[]> {
  return selectRows<{ person_id: string }>(tx, sql`delete from prospect_list_leads where list_id = ${listId} and person_id in (${uuidList(personIds)}) returning person_id`);
}

/** The lists the caller may see that hold these people, by list name. */
export function selectListsOfPeople(exec: TDb, ctx: TCallerContext, personIds: readonly string[]): Promise<{ person_id: string; id: string; name: string }[]> {
  return selectRows<{ person_id: string; id: string; name: string }>(
    exec,
    sql`select ll.person_id, l.id, l.name from prospect_list_leads ll join prospect_lists l on l.id = ll.list_id
        where ${visible(ctx, 'l')} and ll.person_id in (${uuidList(personIds)}) order by l.name`,
  );
}

/** A page of a list's people (whose name, title or company holds `q` when given), last added first, and how many there are. */
export async function selectListLeadsPage(
  exec: TDb,
  q: { list_id: string; q?: string; page: number; limit: number },
): Promise<{ rows: (TPersonRow & { added_at: Date | string })[]; total: number }> {
  const k = q.q ? likePattern(q.q) : null;
  const search = k ? sql`and (p.full_name ilike ${k} or p.title ilike ${k} or p.company_name ilike ${k})` : sql``;
  const [rows, count] = await Promise.all([
    selectRows<TPersonRow & { added_at: Date | string }>(
      exec,
      sql`select ${PERSON_COLUMNS}, ll.added_at from prospect_list_leads ll join directory_people p on p.id = ll.person_id
          where ll.list_id = ${q.list_id} ${search} order by ll.added_at desc, p.id limit ${q.limit} offset ${(q.page - 1) * q.limit}`,
    ),
    selectRows<{ n: number }>(exec, sql`select count(*)::int as n from prospect_list_leads ll join directory_people p on p.id = ll.person_id where ll.list_id = ${q.list_id} ${search}`),
  ]);
  return { rows, total: count[0]?.n ?? 0 };
}

/** The ten people last added to the lists the caller may see. */
export function selectRecentLeads(exec: TDb, ctx: TCallerContext): Promise<(TPersonRow & { added_at: Date | string; list_id: string; list_name: string })[]> {
  return selectRows<TPersonRow & { added_at: Date | string; list_id: string; list_name: string }>(
    exec,
    sql`select ${PERSON_COLUMNS}, ll.added_at, l.id as list_id, l.name as list_name from prospect_list_leads ll
        join prospect_lists l on l.id = ll.list_id join directory_people p on p.id = ll.person_id
        where ${visible(ctx, 'l')} order by ll.added_at desc, p.id limit 10`,
  );
}

// ---------- saved searches ----------

export type TSavedRow = { id: string; name: string; filters: TProspectFilters; created_at: Date | string; user_id: string };

export async function insertSavedSearch(exec: TDb, ctx: TCallerContext, name: string, filters: TProspectFilters): Promise<TSavedRow> {
  const rows = await selectRows<TSavedRow>(
    exec,
    sql`insert into prospect_saved_searches (org_id, user_id, name, filters) values (${ctx.orgId}, ${ctx.userId}, ${name}, ${JSON.stringify(filters)}::jsonb)
        returning id, name, filters, created_at, user_id`,
  );
  return rows[0]!;
}

/** The saved searches the caller may see, newest first (at most 200). */
export function selectSavedSearches(exec: TDb, ctx: TCallerContext): Promise<TSavedRow[]> {
  return selectRows<TSavedRow>(exec, sql`select s.id, s.name, s.filters, s.created_at, s.user_id from prospect_saved_searches s where ${visible(ctx, 's')} order by s.created_at desc limit 200`);
}

/** Deletes a saved search the caller may see; answers its name, or undefined when there was none. */
export async function deleteSavedSearch(exec: TDb, ctx: TCallerContext, id: string): Promise<string | undefined> {
  const rows = await selectRows<{ name: string }>(exec, sql`delete from prospect_saved_searches s where s.id = ${id} and ${visible(ctx, 's')} returning s.name`);
  return rows[0]?.name;
}
