import type { TAuditAction } from '@verilead/contracts';
import { recordAudit } from '../../platform/audit/record';
import type { TDb } from '../../platform/db/database';
import { insertOperatorAction } from './queries';

/**
 * Who acted: a signed-in operator (the guard's TOperatorCaller), the ops command (no operator id: OPS_COMMAND_ACTOR),
 * or, for sign-ins, the e-mail that was tried (an operator's id when it is one).
 */
export type TOperatorActor = { operatorId: string | null; email: string };
/** The ops command (`npm run ops -- …`) as the operator-side log names it. */
export const OPS_COMMAND_ACTOR: TOperatorActor = { operatorId: null, email: 'ops command (APP_SECRET)' };

export type TOperatorAction = {
  /** The audit log's action (contracts AUDIT_ACTIONS, `operator.*`); also the operator-side log's action. */
  action: TAuditAction;
  /** The organisation it touched; its audit log gets the entry too. Null for console-wide actions (an invitation). */
  orgId: string | null;
  targetType?: string;
  targetId?: string | null;
  /** What changed, for people: never secrets. */
  details?: Record<string, unknown>;
};

/**
 * Records an operator action in the operator-side log and, when it touched an organisation, in that organisation's
 * audit log (actor "Verilead support (<operator e-mail>)", no user id). Pass the transaction of the change.
 */
export async function recordOperatorAction(tx: TDb, operator: TOperatorActor, entry: TOperatorAction): Promise<void> {
  await insertOperatorAction(tx, {
    operatorId: operator.operatorId,
    operatorEmail: operator.email,
    action: entry.action,
    orgId: entry.orgId,
    targetType: entry.targetType ?? null,
    targetId: entry.targetId ?? null,
    details: entry.details ?? {},
  });
  if (entry.orgId) {
    await recordAudit(
      tx,
      { orgId: entry.orgId, userId: null, email: `Verilead support (${operator.email})` },
      { action: entry.action, targetType: entry.targetType, targetId: entry.targetId ?? null, details: entry.details ?? {} },
    );
  }
}
