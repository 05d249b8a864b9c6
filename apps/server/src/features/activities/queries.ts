import { and, count, desc, eq, gte, inArray, lt, type SQL } from 'drizzle-orm';
import type { TActivityType } from '@verilead/contracts';
import type { TDb } from '../../platform/db/database';
import { activities } from './tables';

export async function insertActivity(exec: TDb, values: typeof activities.$inferInsert) {
  await exec.insert(activities).values(values);
}

export async function selectActivities(
  exec: TDb,
  f: { orgId: string; userId: string; types?: TActivityType[]; from?: Date; toExclusive?: Date; offset: number; limit: number },
) {
  const where: SQL[] = [eq(activities.orgId, f.orgId), eq(activities.userId, f.userId)];
  if (f.types && f.types.length) where.push(inArray(activities.type, f.types));
  if (f.from) where.push(gte(activities.createdAt, f.from));
  if (f.toExclusive) where.push(lt(activities.createdAt, f.toExclusive));
  const cond = and(...where);
  const [rows, totals] = await Promise.all([
    exec.select().from(activities).where(cond).orderBy(desc(activities.createdAt), desc(activities.id)).limit(f.limit).offset(f.offset),
    exec.select({ n: count() }).from(activities).where(cond),
  ]);
  return { rows, total: totals[0]?.n ?? 0 };
}

export async function deleteUserActivities(exec: TDb, userId: string) {
  await exec.delete(activities).where(eq(activities.userId, userId));
}
