import {
  type TFinderCheckDuplicateData,
  type TFinderListsData,
  type TFinderProgressData,
  type ZFinderListsRequest,
} from '@verilead/contracts';
import type { z } from 'zod';
import { duplicateFileAnswer, readListPage, readPausedReasons } from '../../platform/bulk-lists/list-views';
import type { TDb } from '../../platform/db/database';
import { getVisibleScope, type TCallerContext } from '../../platform/tenancy/context';
import { finderListStore } from './queries';
import { requireList } from './list-access';
import { toListView } from './list-view';

export function listFinderLists(exec: TDb, ctx: TCallerContext, q: z.output<typeof ZFinderListsRequest>): Promise<TFinderListsData> {
  return readListPage(exec, finderListStore, ctx, q, toListView);
}

export async function getFinderProgress(exec: TDb, ctx: TCallerContext, listId: string): Promise<TFinderProgressData> {
  const row = await requireList(exec, ctx, listId);
  const v = toListView(row, (await readPausedReasons(exec, row.orgId, [row])).get(row.id) ?? null);
  return { list_id: v.id, state: v.state, activity: v.activity, progress: v.progress, processed: v.counts.processed, total: v.counts.searchable, stats: v.stats, stopped_reason: v.stopped_reason, paused_reason: v.paused_reason };
}

export async function checkFinderDuplicate(exec: TDb, ctx: TCallerContext, fileName: string): Promise<TFinderCheckDuplicateData> {
  const lists = await finderListStore.selectByFileName(exec, getVisibleScope(ctx), { fileName: fileName.trim(), anyCase: false, limit: 20 });
  return duplicateFileAnswer(fileName.trim(), lists);
}
