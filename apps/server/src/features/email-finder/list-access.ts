import type { TDb } from '../../platform/db/database';
import { throwNotFound } from '../../platform/errors/app-error';
import { getVisibleScope, type TCallerContext } from '../../platform/tenancy/context';
import { selectList, type TFinderListRow } from './queries';

/** A list the caller sees (404 otherwise: another organisation's, or another member's for an Executive). */
export async function requireList(exec: TDb, ctx: TCallerContext, listId: string): Promise<TFinderListRow> {
  const row = await selectList(exec, getVisibleScope(ctx), listId);
  if (!row) throwNotFound('List');
  return row;
}
