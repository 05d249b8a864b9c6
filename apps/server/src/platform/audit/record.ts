import type { TAuditAction } from '@verilead/contracts';
import type { TDb } from '../db/database';
import { insertAuditEntry } from './record-queries';

/** Who acted: a member (their id; the e-mail is looked up when not given), or nobody known (a failed sign-in). */
export type TAuditActor = { orgId: string; userId?: string | null; email?: string | null; ip?: string | null };

export type TAuditEntry = {
  action: TAuditAction;
  targetType?: string;
  targetId?: string | null;
  /** What changed, for people: never secrets (tokens, passwords, certificates' keys). */
  details?: Record<string, unknown>;
};

/**
 * Appends one entry to the organisation's audit log. Pass the transaction of the change when there is one, so the
 * entry exists exactly when the change committed.
 */
export async function recordAudit(db: TDb, actor: TAuditActor, entry: TAuditEntry): Promise<void> {
  await insertAuditEntry(db, {
    orgId: actor.orgId,
    actorUserId: actor.userId ?? null,
    actorEmail: actor.email ?? null,
    action: entry.action,
    targetType: entry.targetType ?? null,
    targetId: entry.targetId ?? null,
    details: entry.details ?? {},
    ip: actor.ip ?? null,
  });
}
