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
import type { TDatabase, TDb } from '../../platform/db/database';
import { AppError, throwNotFound } from '../../platform/errors/app-error';
import type { TCallerContext } from '../../platform/tenancy/context';
import {
  deleteList,
  deleteListLeads,
  deleteSavedSearch,
  insertList,
  insertListLeads,
  insertSavedSearch,
  refreshLeadCount,
  renameList,
  selectKnownPeople,
  selectListLeadsPage,
  selectListsOfPeople,
  selectListsPage,
  selectRecentLeads,
  selectSavedSearches,
  selectVisibleList,
  type TListRow,
  type TSavedRow,
} from './list-queries';
import { createSqlSearchEngine } from './search';
import { toPersonViews } from './views';

export { visible } from './list-queries';

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

/** A list the caller may see, or 404. `forUpdate` locks it for the rest of the transaction. */
export async function getList(exec: TDb, ctx: TCallerContext, listId: string, forUpdate = false): Promise<TListRow> {
  const row = await selectVisibleList(exec, ctx, listId, forUpdate);
  if (!row) throwNotFound('List');
  return row;
}

export async function listLists(exec: TDb, ctx: TCallerContext, q: z.output<typeof ZProspectListsQuery>) {
  const { rows, total } = await selectListsPage(exec, ctx, q);
  return { items: rows.map(toListView), total, page: q.page, limit: q.limit };
}

export async function addProfiles(database: TDatabase, ctx: TCallerContext, input: z.output<typeof ZAddProfilesRequest>) {
  let ids = input.person_ids ?? [];
  if (input.filters) ids = await createSqlSearchEngine(database.db).personIds(input.filters, input.count ?? 25);
  return database.transaction(async (tx) => {
    let listId = input.list_id;
    if (!listId) listId = await insertList(tx, ctx, input.list_name!);
    const list = await getList(tx, ctx, listId, true);
    if (list.state === 'in_progress') throw new AppError('conflict', 'This list is being enriched; please wait until it finishes or cancel it');
    const known = ids.length ? await selectKnownPeople(tx, ids) : [];
    if (input.person_ids && known.length < new Set(ids).size) throwNotFound('Person');
    if (Number(list.lead_count) + known.length > PROSPECT_LIST_MAX_LEADS) {
      throw new AppError('validation_failed', `A list holds at most ${PROSPECT_LIST_MAX_LEADS.toLocaleString('en-US')} people`);
    }
    const inserted = known.length
      ? await insertListLeads(
          tx,
          listId,
          known.map((k) => k.id),
        )
      : [];
    await refreshLeadCount(tx, listId);
    const fresh = await getList(tx, ctx, listId);
    return { list: toListView(fresh), added: inserted.length, already_in_list: known.length - inserted.length };
  });
}

export async function updateList(database: TDatabase, ctx: TCallerContext, listId: string, name: string) {
  return database.transaction(async (tx) => {
    await getList(tx, ctx, listId, true);
    await renameList(tx, listId, name);
    return toListView(await getList(tx, ctx, listId));
  });
}

export async function removeList(database: TDatabase, ctx: TCallerContext, listId: string) {
  return database.transaction(async (tx) => {
    const list = await getList(tx, ctx, listId, true);
    if (list.state === 'in_progress') throw new AppError('conflict', 'This list is being enriched; cancel the enrichment first');
    await deleteList(tx, listId);
    return { message: `The list "${list.name}" was removed` };
  });
}

export async function removeLeads(database: TDatabase, ctx: TCallerContext, listId: string, personIds: string[]) {
  return database.transaction(async (tx) => {
    const list = await getList(tx, ctx, listId, true);
    if (list.state === 'in_progress') throw new AppError('conflict', 'This list is being enriched; please wait until it finishes or cancel it');
    const removed = await deleteListLeads(tx, listId, personIds);
    if (removed.length === 0) throwNotFound('Lead');
    await refreshLeadCount(tx, listId);
    return { list: toListView(await getList(tx, ctx, listId)), removed: removed.length };
  });
}

export async function leadsInLists(exec: TDb, ctx: TCallerContext, personIds: string[]) {
  const rows = await selectListsOfPeople(exec, ctx, personIds);
  return {
    items: [...new Set(personIds)].map((pid) => ({ person_id: pid, lists: rows.filter((r) => r.person_id === pid).map((r) => ({ id: r.id, name: r.name })) })),
  };
}

export async function listLeads(exec: TDb, ctx: TCallerContext, q: z.output<typeof ZListLeadsQuery>) {
  await getList(exec, ctx, q.list_id);
  const { rows, total } = await selectListLeadsPage(exec, q);
  const views = await toPersonViews(exec, ctx.orgId, rows);
  return { items: views.map((v, i) => ({ ...v, added_at: iso(rows[i]!.added_at) })), total, page: q.page, limit: q.limit };
}

export async function recentAdded(exec: TDb, ctx: TCallerContext) {
  const rows = await selectRecentLeads(exec, ctx);
  const views = await toPersonViews(exec, ctx.orgId, rows);
  return { items: views.map((person, i) => ({ person, list_id: rows[i]!.list_id, list_name: rows[i]!.list_name, added_at: iso(rows[i]!.added_at) })) };
}

// ---------- saved searches ----------

const toSaved = (r: TSavedRow): TSavedSearch => ({ id: r.id, name: r.name, filters: r.filters, created_at: iso(r.created_at), user_id: r.user_id });

export async function saveFilter(exec: TDb, ctx: TCallerContext, name: string, filters: TProspectFilters): Promise<TSavedSearch> {
  return toSaved(await insertSavedSearch(exec, ctx, name, filters));
}

export async function listFilters(exec: TDb, ctx: TCallerContext) {
  const rows = await selectSavedSearches(exec, ctx);
  return { items: rows.map(toSaved) };
}

export async function removeFilter(exec: TDb, ctx: TCallerContext, id: string) {
  const name = await deleteSavedSearch(exec, ctx, id);
  if (name === undefined) throwNotFound('Saved search');
  return { message: `The saved search "${name}" was removed` };
}
