import { and, asc, eq, gt, inArray, type SQL } from 'drizzle-orm';
import type { TDb } from '../../platform/db/database';
import { events } from './tables';

export async function insertEvent(exec: TDb, row: { orgId: string; userId: string | null; type: string; payload: Record<string, unknown> }) {
  const rows = await exec.insert(events).values(row).returning({ id: events.id, createdAt: events.createdAt });
  return rows[0]!;
}

export function selectEvents(exec: TDb, f: { orgId: string; types?: string[]; after?: Date; limit: number }) {
  const where: SQL[] = [eq(events.orgId, f.orgId)];
  if (f.types && f.types.length > 0) where.push(inArray(events.type, f.types));
  if (f.after) where.push(gt(events.createdAt, f.after));
  return exec
    .select()
    .from(events)
    .where(and(...where))
    .orderBy(asc(events.createdAt), asc(events.id))
    .limit(f.limit);
}
