import Papa from 'papaparse';
import { AUDIT_ACTIONS, type TAuditLogEntry, type ZAuditLogExportQuery, type ZAuditLogQuery } from '@verilead/contracts';
import type { z } from 'zod';
import type { TDatabase, TDb } from '../../platform/db/database';
import { parseDateEndExclusive, parseDateStart } from '../../platform/http/dates';
import type { TMaintenanceTask } from '../../platform/jobs/maintenance';
import type { TCallerContext } from '../../platform/tenancy/context';
import { selectUserTimeZone } from '../../platform/tenancy/time-zone';
import { purgeAuditLog, selectAuditPage, selectAuditRows, type TAuditFilter, type TAuditRow } from './queries';

/** The most entries one CSV export holds (narrow the dates for more). */
/** An organisation's deletion removes its audit log too, in its own transaction. */
export { permitAuditPurge } from './queries';

export const AUDIT_EXPORT_MAX_ROWS = 50_000;

async function filterOf(db: TDb, ctx: TCallerContext, q: z.output<typeof ZAuditLogExportQuery>): Promise<TAuditFilter> {
  const timeZone = q.from || q.to ? await selectUserTimeZone(db, ctx.userId) : 'UTC';
  return {
    orgId: ctx.orgId,
    action: q.action,
    actorId: q.actor_id,
    from: q.from ? parseDateStart(q.from, timeZone) : undefined,
    to: q.to ? parseDateEndExclusive(q.to, timeZone) : undefined,
  };
}

/** Target types whose id is readable as it is (a domain, a mail host, a plan's id). */
const READABLE_TARGET_IDS = new Set(['sso_domain', 'mail_host', 'plan']);

/** Who or what an entry is about, in words (contracts' `target_name`). */
function nameTarget(r: TAuditRow): string | null {
  if (r.targetPerson) return r.targetPerson;
  if (typeof r.details.name === 'string' && r.details.name !== '') return r.details.name;
  if (r.targetType && READABLE_TARGET_IDS.has(r.targetType)) return r.targetId;
  return null;
}

function toEntry(r: TAuditRow): TAuditLogEntry {
  return {
    id: r.id,
    created_at: r.createdAt.toISOString(),
    action: r.action,
    action_label: AUDIT_ACTIONS[r.action] ?? r.action,
    actor_id: r.actorUserId,
    actor_email: r.actorDeleted ? null : r.actorEmail,
    actor_name: r.actorName,
    target_type: r.targetType,
    target_id: r.targetId,
    target_name: nameTarget(r),
    details: r.details,
    ip: r.ip,
  };
}

/** A page of the caller's organisation's audit log (owners and Managers: the authorisation table). */
export async function listAuditLog(db: TDb, ctx: TCallerContext, q: z.output<typeof ZAuditLogQuery>) {
  const { rows, total } = await selectAuditPage(db, await filterOf(db, ctx, q), q.page, q.limit);
  return { items: rows.map(toEntry), total, page: q.page, limit: q.limit };
}

/** The matching entries as CSV (newest first, at most AUDIT_EXPORT_MAX_ROWS). */
export async function exportAuditLogCsv(db: TDb, ctx: TCallerContext, q: z.output<typeof ZAuditLogExportQuery>): Promise<string> {
  const rows = await selectAuditRows(db, await filterOf(db, ctx, q), AUDIT_EXPORT_MAX_ROWS);
  return Papa.unparse(
    {
      fields: ['time', 'action', 'action_label', 'actor_email', 'actor_name', 'actor_id', 'target_type', 'target_id', 'target_name', 'details', 'ip'],
      data: rows.map((r) => {
        const e = toEntry(r);
        return [e.created_at, e.action, e.action_label, e.actor_email ?? '', e.actor_name ?? '', e.actor_id ?? '', e.target_type ?? '', e.target_id ?? '', e.target_name ?? '', JSON.stringify(e.details), e.ip ?? ''];
      }),
    },
    // a cell starting with = + - @ is quoted and prefixed so a spreadsheet never runs it as a formula
    { escapeFormulae: true },
  );
}

/** The maintenance task deleting entries older than AUDIT_RETENTION_DAYS. */
export function createAuditRetentionTask(opts: { database: TDatabase; retentionDays: number }): TMaintenanceTask {
  return {
    name: 'audit-log-retention',
    run: () => opts.database.transaction((tx) => purgeAuditLog(tx, opts.retentionDays)),
  };
}
