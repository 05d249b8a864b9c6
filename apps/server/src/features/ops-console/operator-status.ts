import type { TOperator } from '@verilead/contracts';
import type { TDatabase } from '../../platform/db/database';
import { AppError } from '../../platform/errors/app-error';
import { toOperator } from './operator-auth';
import { lockOperators, revokeOperatorAccess, setOperatorDisabled } from './queries';
import { recordOperatorAction, type TOperatorActor } from './record-action';

/** Which operator: by id (the console) or by e-mail (the ops command). */
type TTarget = { id: string } | { email: string };

/**
 * Disables or enables an operator. Disabling ends every session and voids every pending link of theirs at once (same
 * transaction), and they can no longer sign in; an operator may not disable themself, and the last enabled operator
 * who can sign in cannot be disabled (the operators are locked while counted). Recorded in the operator-side log.
 */
export async function setOperatorStatus(
  deps: { database: TDatabase },
  actor: TOperatorActor,
  target: TTarget,
  disabled: boolean,
): Promise<{ operator: TOperator; message: string }> {
  return deps.database.transaction(async (tx) => {
    const all = await lockOperators(tx);
    const row = all.find((o) => ('id' in target ? o.id === target.id : o.email === target.email.trim().toLowerCase()));
    if (!row) throw new AppError('not_found', 'Operator not found');
    if (disabled === (row.disabledAt !== null)) {
      return { operator: toOperator(row), message: `${row.email} is ${disabled ? 'disabled' : 'enabled'} already.` };
    }
    if (disabled && actor.operatorId === row.id) throw new AppError('forbidden', 'You cannot disable yourself: ask another operator.');
    if (disabled && !all.some((o) => o.id !== row.id && o.disabledAt === null && o.passwordHash !== null)) {
      throw new AppError('conflict', `${row.email} is the last enabled operator: enable or invite another one first.`);
    }
    await setOperatorDisabled(tx, row.id, disabled);
    const revoked = disabled ? await revokeOperatorAccess(tx, row.id) : null;
    await recordOperatorAction(tx, actor, {
      action: disabled ? 'operator.operator_disabled' : 'operator.operator_enabled',
      orgId: null,
      targetType: 'operator',
      targetId: row.id,
      details: { email: row.email, ...(revoked ? { sessions_revoked: revoked.sessions, links_revoked: revoked.links } : {}) },
    });
    const updated = toOperator({ ...row, disabledAt: disabled ? new Date() : null });
    return {
      operator: updated,
      message: disabled
        ? `${row.email} is disabled: signed out of ${revoked!.sessions} session${revoked!.sessions === 1 ? '' : 's'}, cannot sign in or use a link.`
        : `${row.email} can sign in again.`,
    };
  });
}
