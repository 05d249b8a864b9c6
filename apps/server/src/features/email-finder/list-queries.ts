import {
  type TFinderCheckDuplicateData,
  type TFinderListsData,
  type TFinderProgressData,
  type ZFinderListsRequest,
} from '@verilead/contracts';
import type { z } from 'zod';
import type { TDb } from '../../platform/db/database';
import { getVisibleScope, type TCallerContext } from '../../platform/tenancy/context';
import { selectLists, selectListsByFileName } from './queries';
import { requireList } from './list-access';
import { toListView } from './list-view';

export async function listFinderLists(exec: TDb, ctx: TCallerContext, q: z.output<typeof ZFinderListsRequest>): Promise<TFinderListsData> {
  const { rows, total } = await selectLists(exec, {
    ...getVisibleScope(ctx),
    search: q.search,
    state: q.state,
    listId: q.list_id,
    sortBy: q.sort_by,
    sortOrder: q.sort_order,
    offset: (q.page - 1) * q.limit,
    limit: q.limit,
  });
  return { items: rows.map(toListView), total, page: q.page, limit: q.limit };
}

export async function getFinderProgress(exec: TDb, ctx: TCallerContext, listId: string): Promise<TFinderProgressData> {
  const v = toListView(await requireList(exec, ctx, listId));
  return { list_id: v.id, state: v.state, activity: v.activity, progress: v.progress, processed: v.counts.processed, total: v.counts.searchable, stats: v.stats, stopped_reason: v.stopped_reason };
}

export async function checkFinderDuplicate(exec: TDb, ctx: TCallerContext, fileName: string): Promise<TFinderCheckDuplicateData> {
  const lists = await selectListsByFileName(exec, getVisibleScope(ctx), fileName.trim());
  return {
    is_duplicate: lists.length > 0,
    message: lists.length > 0 ? `A file named "${fileName.trim()}" was already uploaded. Upload it again?` : 'No file with this name was uploaded before',
    lists: lists.map((l) => ({ id: l.id, name: l.name, created_at: l.createdAt.toISOString() })),
  };
}
