import { and, count, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { TAuditAction } from '@verilead/contracts';
import type { TDb } from '../../platform/db/database';
import { auditLog } from '../../platform/audit/tables';

export type TAuditFilter = { orgId: string; action?: TAuditAction; actorId?: string; from?: Date; to?: Date };
export type TAuditRow = typeof auditLog.$inferSelect;

function whereOf(f: TAuditFilter): SQL | undefined {
  return and(
    eq(auditLog.orgId, f.orgId),
    f.action ? eq(auditLog.action, f.action) : undefined,
    f.actorId ? eq(auditLog.actorUserId, f.actorId) : undefined,
    f.from ? gte(auditLog.createdAt, f.from) : undefined,
    f.to ? lt(auditLog.createdAt, f.to) : undefined,
  );
}

/** A page of the organisation's entries, newest first, and how many match. */
export async function selectAuditPage(db: TDb, f: TAuditFilter, page: number, limit: number): Promise<{ rows: TAuditRow[]; total: number }> {
  const where = whereOf(f);
  const rows = await db.select().from(auditLog).where(where).orderBy(desc(auditLog.createdAt), desc(auditLog.id)).limit(limit).offset((page - 1) * limit);
  const [total] = await db.select({ n: count() }).from(auditLog).where(where);
  return { rows, total: Number(total?.n ?? 0) };
}

/** At most `max` matching entries, newest first (the CSV export). */
export async function selectAuditRows(db: TDb, f: TAuditFilter, max: number): Promise<TAuditRow[]> {
  return db.select().from(auditLog).where(whereOf(f)).orderBy(desc(auditLog.createdAt), desc(auditLog.id)).limit(max);
}

/** Lets the calling transaction delete audit entries (the append-only trigger refuses every other DELETE). */
export async function permitAuditPurge(db: TDb): Promise<void> {
  await db.execute(sql`select set_config('verilead.audit_purge', 'on', true)`);
}

/** Deletes entries older than `days` days (the append-only trigger lets this transaction's purge through). */
export async function purgeAuditLog(db: TDb, days: number): Promise<number> {
  await permitAuditPurge(db);
  const deleted = await db.delete(auditLog).where(lt(auditLog.createdAt, sql`now() - make_interval(days => ${days})`)).returning({ id: auditLog.id });
  return deleted.length;
}
