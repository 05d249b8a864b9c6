import { and, asc, count, eq, ilike, inArray, type SQL } from 'drizzle-orm';
import type { TWbListType } from '@verilead/contracts';
import type { TDb } from '../../platform/db/database';
import { userSettings, wbListEntries } from './tables';

export type TSettingsSection = 'ev' | 'ef' | 'prospect' | 'notifications';

export async function selectUserSettings(exec: TDb, userId: string) {
  const rows = await exec.select().from(userSettings).where(eq(userSettings.userId, userId)).limit(1);
  return rows[0] ?? null;
}

/** Writes one section of the user's settings (insert or update). */
export async function upsertSettingsSection(exec: TDb, f: { userId: string; orgId: string; section: TSettingsSection; value: Record<string, unknown> }) {
  await exec
    .insert(userSettings)
    .values({ userId: f.userId, orgId: f.orgId, [f.section]: f.value, updatedAt: new Date() })
    .onConflictDoUpdate({ target: userSettings.userId, set: { [f.section]: f.value, updatedAt: new Date() } });
}

export async function touchWbList(exec: TDb, f: { userId: string; orgId: string }) {
  const now = new Date();
  await exec
    .insert(userSettings)
    .values({ userId: f.userId, orgId: f.orgId, wbListModifiedAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: userSettings.userId, set: { wbListModifiedAt: now, updatedAt: now } });
}

export async function insertWbEntries(exec: TDb, f: { userId: string; orgId: string; listType: TWbListType; values: string[] }) {
  if (f.values.length === 0) return;
  await exec
    .insert(wbListEntries)
    .values(f.values.map((value) => ({ userId: f.userId, orgId: f.orgId, listType: f.listType, value })))
    .onConflictDoNothing();
}

export async function deleteWbEntries(exec: TDb, f: { userId: string; orgId: string; listType: TWbListType; values: string[] }) {
  await exec
    .delete(wbListEntries)
    .where(
      and(eq(wbListEntries.userId, f.userId), eq(wbListEntries.orgId, f.orgId), eq(wbListEntries.listType, f.listType), inArray(wbListEntries.value, f.values)),
    );
}

export async function countWbEntries(exec: TDb, f: { userId: string; orgId: string }) {
  const rows = await exec
    .select({ listType: wbListEntries.listType, n: count() })
    .from(wbListEntries)
    .where(and(eq(wbListEntries.userId, f.userId), eq(wbListEntries.orgId, f.orgId)))
    .groupBy(wbListEntries.listType);
  return { allow: rows.find((r) => r.listType === 'allow')?.n ?? 0, block: rows.find((r) => r.listType === 'block')?.n ?? 0 };
}

export async function selectWbEntries(exec: TDb, f: { userId: string; orgId: string; listType?: TWbListType; search?: string; offset: number; limit: number }) {
  const where: SQL[] = [eq(wbListEntries.userId, f.userId), eq(wbListEntries.orgId, f.orgId)];
  if (f.listType) where.push(eq(wbListEntries.listType, f.listType));
  if (f.search) where.push(ilike(wbListEntries.value, `%${f.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`));
  const cond = and(...where);
  const [rows, totals] = await Promise.all([
    exec.select().from(wbListEntries).where(cond).orderBy(asc(wbListEntries.listType), asc(wbListEntries.value)).limit(f.limit).offset(f.offset),
    exec.select({ n: count() }).from(wbListEntries).where(cond),
  ]);
  return { rows, total: totals[0]?.n ?? 0 };
}

/** Every entry of the user's lists (for the verifier). */
export async function selectAllWbEntries(exec: TDb, f: { userId: string; orgId: string }) {
  return exec
    .select({ listType: wbListEntries.listType, value: wbListEntries.value })
    .from(wbListEntries)
    .where(and(eq(wbListEntries.userId, f.userId), eq(wbListEntries.orgId, f.orgId)));
}
