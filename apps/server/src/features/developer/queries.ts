import { and, count, desc, eq, ilike, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import type { TAppStatus } from '@verilead/contracts';
import type { TDb } from '../../platform/db/database';
import type { TVisibleScope } from '../../platform/tenancy/context';
import { memberships, organisations, users } from '../../platform/tenancy/tables';
import { appDailyUsage, apps } from './tables';

export type TAppRow = typeof apps.$inferSelect;
export type TAppInsert = typeof apps.$inferInsert;

export async function insertApp(exec: TDb, values: TAppInsert): Promise<TAppRow> {
  const rows = await exec.insert(apps).values(values).returning();
  return rows[0]!;
}

/** The conditions of a visible scope: the organisation, and the creator when the caller sees only their own apps. */
function scopeOf(scope: TVisibleScope) {
  return scope.userId ? [eq(apps.orgId, scope.orgId), eq(apps.userId, scope.userId)] : [eq(apps.orgId, scope.orgId)];
}

/** One app the scope sees (an Executive's scope: the apps they created). */
export async function selectApp(exec: TDb, scope: TVisibleScope, appId: string): Promise<TAppRow | null> {
  const rows = await exec
    .select()
    .from(apps)
    .where(and(eq(apps.id, appId), ...scopeOf(scope)))
    .limit(1);
  return rows[0] ?? null;
}

export async function selectDefaultApp(exec: TDb, orgId: string, userId: string): Promise<TAppRow | null> {
  const rows = await exec
    .select()
    .from(apps)
    .where(and(eq(apps.orgId, orgId), eq(apps.userId, userId), eq(apps.isDefault, 1), ne(apps.status, 'removed')))
    .limit(1);
  return rows[0] ?? null;
}

/** The ids of the apps a scope sees, removed ones included. */
export async function selectAppIds(exec: TDb, scope: TVisibleScope): Promise<string[]> {
  const rows = await exec
    .select({ id: apps.id })
    .from(apps)
    .where(and(...scopeOf(scope)));
  return rows.map((r) => r.id);
}

export async function selectApps(exec: TDb, scope: TVisibleScope, q: { page: number; limit: number; status?: TAppStatus; search?: string; form_guard?: 'true' | 'false' }) {
  const conditions = scopeOf(scope);
  if (q.status) conditions.push(eq(apps.status, q.status));
  else conditions.push(ne(apps.status, 'removed'));
  if (q.form_guard) conditions.push(q.form_guard === 'true' ? isNotNull(apps.formGuard) : isNull(apps.formGuard));
  if (q.search) conditions.push(ilike(apps.name, `%${q.search.replace(/[%_\\]/g, '\\$&')}%`));
  const where = and(...conditions);
  const [rows, totals] = await Promise.all([
    exec.select().from(apps).where(where).orderBy(desc(apps.createdAt)).limit(q.limit).offset((q.page - 1) * q.limit),
    exec.select({ n: count() }).from(apps).where(where),
  ]);
  return { rows, total: totals[0]?.n ?? 0 };
}

export async function updateApp(exec: TDb, orgId: string, appId: string, values: Partial<TAppInsert>): Promise<TAppRow | null> {
  const rows = await exec
    .update(apps)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(apps.id, appId), eq(apps.orgId, orgId)))
    .returning();
  return rows[0] ?? null;
}

/** The app of a token hash with its member's role and status, and whether an operator suspended the user or organisation. */
export async function selectAppByTokenHash(exec: TDb, hash: string) {
  const rows = await exec
    .select({
      app: apps,
      role: memberships.role,
      memberStatus: memberships.status,
      suspended: sql<boolean>`(${users.suspendedAt} is not null or ${organisations.suspendedAt} is not null)`,
    })
    .from(apps)
    .innerJoin(memberships, and(eq(memberships.userId, apps.userId), eq(memberships.orgId, apps.orgId)))
    .innerJoin(users, eq(users.id, apps.userId))
    .innerJoin(organisations, eq(organisations.id, apps.orgId))
    .where(eq(apps.tokenHash, hash))
    .limit(1);
  return rows[0] ?? null;
}

export async function selectDailyUsage(exec: TDb, appId: string, day: string): Promise<number> {
  const rows = await exec
    .select({ credits: appDailyUsage.credits })
    .from(appDailyUsage)
    .where(and(eq(appDailyUsage.appId, appId), eq(appDailyUsage.day, day)))
    .limit(1);
  return rows[0]?.credits ?? 0;
}

/**
 * Adds `credits` (> 0) an app spent, inside the caller's charging transaction, and answers which of the app's credit
 * limits that passes, if any (the caller then rolls back). The app's row is locked first, so concurrent spends of one
 * app are counted one after the other and never pass its limit together.
 */
export async function spendAppCredits(exec: TDb, appId: string, day: string, credits: number): Promise<'daily' | 'life_time' | null> {
  const [app] = await exec
    .update(apps)
    .set({ creditsUsedLifeTime: sql`${apps.creditsUsedLifeTime} + ${credits}`, lastUsedAt: new Date() })
    .where(eq(apps.id, appId))
    .returning({ creditLimit: apps.creditLimit, usedLifeTime: apps.creditsUsedLifeTime });
  const [daily] = await exec
    .insert(appDailyUsage)
    .values({ appId, day, credits })
    .onConflictDoUpdate({ target: [appDailyUsage.appId, appDailyUsage.day], set: { credits: sql`${appDailyUsage.credits} + ${credits}` } })
    .returning({ credits: appDailyUsage.credits });
  const limit = app?.creditLimit;
  if (!limit) return null;
  if (limit.type === 'life_time') return (app?.usedLifeTime ?? 0) > limit.value ? 'life_time' : null;
  return (daily?.credits ?? 0) > limit.value ? 'daily' : null;
}

/** Adds credits an app spent (today and life-time) and marks it used. */
export async function addAppUsage(exec: TDb, appId: string, day: string, credits: number): Promise<void> {
  if (credits > 0) {
    await exec
      .insert(appDailyUsage)
      .values({ appId, day, credits })
      .onConflictDoUpdate({ target: [appDailyUsage.appId, appDailyUsage.day], set: { credits: sql`${appDailyUsage.credits} + ${credits}` } });
  }
  await exec
    .update(apps)
    .set({ creditsUsedLifeTime: sql`${apps.creditsUsedLifeTime} + ${credits}`, lastUsedAt: new Date() })
    .where(eq(apps.id, appId));
}
