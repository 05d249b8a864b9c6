import { sql, type SQL } from 'drizzle-orm';
import {
  PROSPECT_LIST_MAX_LEADS,
  type TProspectFilters,
  type TProspectList,
  type TSavedSearch,
  type ZAddProfilesRequest,
  type ZListLeadsQuery,
  type ZProspectListsQuery,
} from '@verilead/contracts';
import type { z } from 'zod';
import { selectRows, type TDatabase, type TDb } from '../../platform/db/database';
import { AppError, throwNotFound } from '../../platform/errors/app-error';
import { getVisibleScope, type TCallerContext } from '../../platform/tenancy/context';
import { createSqlSearchEngine, likePattern, PERSON_COLUMNS, type TPersonRow } from './search';
import { toPersonViews } from './views';

/** Lists and saved searches are member objects: the organisation's, and only the member's own for an Executive. */
export function visible(ctx: TCallerContext, alias: string): SQL {
  const scope = getVisibleScope(ctx);
  const a = sql.raw(alias);
  return scope.userId ? sql`${a}.org_id = ${scope.orgId} and ${a}.user_id = ${scope.userId}` : sql`${a}.org_id = ${scope.orgId}`;
}

type TListRow = { id: string; name: string; lead_count: number; state: string; user_id: string; created_at: Date | string; updated_at: Date | string };
const iso = (d: Date | string) => new Date(d).toISOString();

export function toListView(r: TListRow): TProspectList {
  return {
    id: r.id,
    name: r.name,
    lead_count: Number(r.lead_count),
    state: r.state as TProspectList['state'],
    user_id: r.user_id,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}

const LIST_COLUMNS = sql.raw('l.id, l.name, l.lead_count, l.state, l.user_id, l.created_at, l.updated_at');

/** A list the caller may see, or 404. `forUpdate` locks it for the rest of the transaction. */
export async function getList(exec: TDb, ctx: TCallerContext, listId: string, forUpdate = false): Promise<TListRow> {
  const rows = await selectRows<TListRow>(
    exec,
    sql`select ${LIST_COLUMNS} from prospect_lists l where l.id = ${listId} and ${visible(ctx, 'l')} ${forUpdate ? sql`for update` : sql``}`,
  );
  if (!rows[0]) throwNotFound('List');
  return rows[0];
}

export async function listLists(exec: TDb, ctx: TCallerContext, q: z.output<typeof ZProspectListsQuery>) {
  const where = q.q ? sql`${visible(ctx, 'l')} and l.name ilike ${likePattern(q.q)}` : visible(ctx, 'l');
  const [rows, count] = await Promise.all([
    selectRows<TListRow>(exec, sql`select ${LIST_COLUMNS} from prospect_lists l where ${where} order by l.created_at desc, l.id limit ${q.limit} offset ${(q.page - 1) * q.limit}`),
    selectRows<{ n: number }>(exec, sql`select count(*)::int as n from prospect_lists l where ${where}`),
  ]);
  return { items: rows.map(toListView), total: count[0]?.n ?? 0, page: q.page, limit: q.limit };
}

async function refreshCount(tx: TDb, listId: string) {
  await tx.execute(sql`update prospect_lists set lead_count = (select count(*) from prospect_list_leads where list_id = ${listId}), updated_at = now() where id = ${listId}`);
}

export async function addProfiles(database: TDatabase, ctx: TCallerContext, input: z.output<typeof ZAddProfilesRequest>) {
  let ids = input.person_ids ?? [];
  if (input.filters) ids = await createSqlSearchEngine(database.db).personIds(input.filters, input.count ?? 25);
  return database.transaction(async (tx) => {
    let listId = input.list_id;
    if (!listId) {
      const created = await selectRows<{ id: string }>(tx, sql`insert into prospect_lists (org_id, user_id, name) values (${ctx.orgId}, ${ctx.userId}, ${input.list_name!}) returning id`);
      listId = created[0]!.id;
    }
    const list = await getList(tx, ctx, listId, true);
    if (list.state === 'in_progress') throw new AppError('conflict', 'This list is being enriched; please wait until it finishes or cancel it');
    const known = ids.length
      ? await selectRows<{ id: string }>(
          tx,
          sql`select id from directory_people where id in (${sql.join(
            ids.map((id) => sql`${id}::uuid`),
            sql`, `,
          )})`,
        )
      : [];
    if (input.person_ids && known.length < new Set(ids).size) throwNotFound('Person');
    if (Number(list.lead_count) + known.length > PROSPECT_LIST_MAX_LEADS) {
      throw new AppError('validation_failed', `A list holds at most ${PROSPECT_LIST_MAX_LEADS.toLocaleString('en-US')} people`);
    }
    const inserted = known.length
      ? await selectRows<{ person_id: string }>(
          tx,
          sql`insert into prospect_list_leads (list_id, person_id) select ${listId}, id from directory_people where id in (${sql.join(
            known.map((k) => sql`${k.id}::uuid`),
            sql`, `,
          )}) on conflict do nothing returning person_id`,
        )
      : [];
    await refreshCount(tx, listId);
    const fresh = await getList(tx, ctx, listId);
    return { list: toListView(fresh), added: inserted.length, already_in_list: known.length - inserted.length };
  });
}

export async function updateList(database: TDatabase, ctx: TCallerContext, listId: string, name: string) {
  return database.transaction(async (tx) => {
    await getList(tx, ctx, listId, true);
    await tx.execute(sql`update prospect_lists set name = ${name}, updated_at = now() where id = ${listId}`);
    return toListView(await getList(tx, ctx, listId));
  });
}

export async function removeList(database: TDatabase, ctx: TCallerContext, listId: string) {
  return database.transaction(async (tx) => {
    const list = await getList(tx, ctx, listId, true);
    if (list.state === 'in_progress') throw new AppError('conflict', 'This list is being enriched; cancel the enrichment first');
    await tx.execute(sql`delete from prospect_lists where id = ${listId}`);
    return { message: `The list "${list.name}" was removed` };
  });
}

export async function removeLeads(database: TDatabase, ctx: TCallerContext, listId: string, personIds: string[]) {
  return database.transaction(async (tx) => {
    const list = await getList(tx, ctx, listId, true);
    if (list.state === 'in_progress') throw new AppError('conflict', 'This list is being enriched; please wait until it finishes or cancel it');
    const removed = await selectRows<{ person_id: string }>(
      tx,
      sql`delete from prospect_list_leads where list_id = ${listId} and person_id in (${sql.join(
        personIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )}) returning person_id`,
    );
    if (removed.length === 0) throwNotFound('Lead');
    await refreshCount(tx, listId);
    return { list: toListView(await getList(tx, ctx, listId)), removed: removed.length };
  });
}

export async function leadsInLists(exec: TDb, ctx: TCallerContext, personIds: string[]) {
  const rows = await selectRows<{ person_id: string; id: string; name: string }>(
    exec,
    sql`select ll.person_id, l.id, l.name from prospect_list_leads ll join prospect_lists l on l.id = ll.list_id
        where ${visible(ctx, 'l')} and ll.person_id in (${sql.join(
          personIds.map((id) => sql`${id}::uuid`),
          sql`, `,
        )}) order by l.name`,
  );
  return {
    items: [...new Set(personIds)].map((pid) => ({ person_id: pid, lists: rows.filter((r) => r.person_id === pid).map((r) => ({ id: r.id, name: r.name })) })),
  };
}

export async function listLeads(exec: TDb, ctx: TCallerContext, q: z.output<typeof ZListLeadsQuery>) {
  await getList(exec, ctx, q.list_id);
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
  const views = await toPersonViews(exec, ctx.orgId, rows);
  return { items: views.map((v, i) => ({ ...v, added_at: iso(rows[i]!.added_at) })), total: count[0]?.n ?? 0, page: q.page, limit: q.limit };
}

export async function recentAdded(exec: TDb, ctx: TCallerContext) {
  const rows = await selectRows<TPersonRow & { added_at: Date | string; list_id: string; list_name: string }>(
    exec,
    sql`select ${PERSON_COLUMNS}, ll.added_at, l.id as list_id, l.name as list_name from prospect_list_leads ll
        join prospect_lists l on l.id = ll.list_id join directory_people p on p.id = ll.person_id
        where ${visible(ctx, 'l')} order by ll.added_at desc, p.id limit 10`,
  );
  const views = await toPersonViews(exec, ctx.orgId, rows);
  return { items: views.map((person, i) => ({ person, list_id: rows[i]!.list_id, list_name: rows[i]!.list_name, added_at: iso(rows[i]!.added_at) })) };
}

// ---------- saved searches ----------

type TSavedRow = { id: string; name: string; filters: TProspectFilters; created_at: Date | string; user_id: string };
const toSaved = (r: TSavedRow): TSavedSearch => ({ id: r.id, name: r.name, filters: r.filters, created_at: iso(r.created_at), user_id: r.user_id });

export async function saveFilter(exec: TDb, ctx: TCallerContext, name: string, filters: TProspectFilters): Promise<TSavedSearch> {
  const rows = await selectRows<TSavedRow>(
    exec,
    sql`insert into prospect_saved_searches (org_id, user_id, name, filters) values (${ctx.orgId}, ${ctx.userId}, ${name}, ${JSON.stringify(filters)}::jsonb)
        returning id, name, filters, created_at, user_id`,
  );
  return toSaved(rows[0]!);
}

export async function listFilters(exec: TDb, ctx: TCallerContext) {
  const rows = await selectRows<TSavedRow>(exec, sql`select s.id, s.name, s.filters, s.created_at, s.user_id from prospect_saved_searches s where ${visible(ctx, 's')} order by s.created_at desc limit 200`);
  return { items: rows.map(toSaved) };
}

export async function removeFilter(exec: TDb, ctx: TCallerContext, id: string) {
  const rows = await selectRows<{ name: string }>(exec, sql`delete from prospect_saved_searches s where s.id = ${id} and ${visible(ctx, 's')} returning s.name`);
  if (!rows[0]) throwNotFound('Saved search');
  return { message: `The saved search "${rows[0].name}" was removed` };
}
