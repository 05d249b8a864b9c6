import { type TFinderHistoryData, type TFinderStatus, type ZFinderHistoryQuery } from '@verilead/contracts';
import type { z } from 'zod';
import type { TDb } from '../../platform/db/database';
import { getVisibleScope, type TCallerContext } from '../../platform/tenancy/context';
import { selectHistory } from './queries';
import { toInstantResult } from './instant-find';
import { parseDateEndExclusive, parseDateStart } from '../../platform/http/dates';
import { selectUserTimeZone } from '../../platform/tenancy/time-zone';

/** The history's filter: plain dates are whole days in the caller's time zone (`to` inclusive, as its last instant). */
export async function historyFilter(exec: TDb, ctx: TCallerContext, q: { search?: string; status?: TFinderStatus; from?: string; to?: string }) {
  const timeZone = q.from || q.to ? await selectUserTimeZone(exec, ctx.userId) : 'UTC';
  const from = q.from ? parseDateStart(q.from, timeZone) : undefined;
  const to = q.to ? new Date(parseDateEndExclusive(q.to, timeZone).getTime() - 1) : undefined;
  return { ...getVisibleScope(ctx), search: q.search, status: q.status, from, to };
}

export async function listHistory(exec: TDb, ctx: TCallerContext, q: z.output<typeof ZFinderHistoryQuery>): Promise<TFinderHistoryData> {
  const { rows, total } = await selectHistory(exec, await historyFilter(exec, ctx, q), (q.page - 1) * q.limit, q.limit);
  return { items: rows.map(toInstantResult), total, page: q.page, limit: q.limit };
}
