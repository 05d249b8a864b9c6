import { and, count, desc, eq, getTableColumns, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { TAuditAction } from '@verilead/contracts';
import type { TDb } from '../../platform/db/database';
import { auditLog } from '../../platform/audit/tables';

export type TAuditFilter = { orgId: string; action?: TAuditAction; actorId?: string; from?: Date; to?: Date };
export type TAuditRow = typeof auditLog.$inferSelect & {
  /** The target person in words when the entry is about a member of the entry's own organisation (else null). */
  targetPerson: string | null;
  /** The actor's name today when they are a member of the entry's own organisation with a name (else null). */
  actorName: string | null;
  /** Whether the actor, a member of the entry's own organisation, has deleted their account. */
  actorDeleted: boolean;
};

/** Target types whose id is a user's id. */
const PERSON_TARGETS = ['member', 'user'];

/**
 * The target person, read when the entry is read (so a renamed member shows today's name and a deleted account shows
 * "Deleted user", never the erased address): found through the memberships of the entry's organisation only, so an
 * id of another organisation's user is never resolved. The outer columns are named with their table: drizzle writes a
 * column of a one-table select without it, which inside this subquery would name the membership's own org_id.
 */
const targetPerson = sql<string | null>`case when ${auditLog.targetType} in (${sql.join(
  PERSON_TARGETS.map((t) => sql`${t}`),
  sql`, `,
)}) then (
  select case when u.deleted_at is not null then 'Deleted user' when u.name <> '' then u.name || ' (' || u.email || ')' else u.email end
  from memberships m join users u on u.id = m.user_id
  where m.org_id = audit_log.org_id and m.user_id::text = audit_log.target_id
  limit 1
) end`;

/** The actor, read as the target person is (through the memberships of the entry's own organisation only). */
const actorOf = (column: SQL) => sql`(
  select ${column} from memberships m join users u on u.id = m.user_id
  where m.org_id = audit_log.org_id and m.user_id = audit_log.actor_user_id
  limit 1
)`;
const actorName = sql<string | null>`${actorOf(sql`case when u.deleted_at is not null then 'Deleted user' when u.name <> '' then u.name end`)}`;
const actorDeleted = sql<boolean>`coalesce(${actorOf(sql`u.deleted_at is not null`)}, false)`;

const COLUMNS = { ...getTableColumns(auditLog), targetPerson, actorName, actorDeleted };

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
  const rows = await db.select(COLUMNS).from(auditLog).where(where).orderBy(desc(auditLog.createdAt), desc(auditLog.id)).limit(limit).offset((page - 1) * limit);
  const [total] = await db.select({ n: count() }).from(auditLog).where(where);
  return { rows, total: Number(total?.n ?? 0) };
}

/** At most `max` matching entries, newest first (the CSV export). */
export async function selectAuditRows(db: TDb, f: TAuditFilter, max: number): Promise<TAuditRow[]> {
  return db.select(COLUMNS).from(auditLog).where(whereOf(f)).orderBy(desc(auditLog.createdAt), desc(auditLog.id)).limit(max);
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
