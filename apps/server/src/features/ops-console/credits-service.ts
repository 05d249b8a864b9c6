import { OPERATOR_ADJUSTMENT_LABEL, OPERATOR_ADJUSTMENT_OBJECT, type TOpsCreditAdjustment } from '@verilead/contracts';
import { chargeCredits, grantCredits } from '../../platform/credits/ledger';
import type { TDatabase } from '../../platform/db/database';
import { AppError } from '../../platform/errors/app-error';
import type { TOperatorCaller } from './guard';
import { recordOperatorAction } from './record-action';
import { claimAdjustmentKey, lockOrgBalance, selectAdjustmentByKey, setAdjustmentResult } from './credit-queries';

export type TCreditAdjustmentInput = { direction: 'grant' | 'remove'; amount: number; reason: string; idempotency_key: string };

/**
 * Grants or removes credits for an organisation through the ledger, in one transaction: the idempotency key is claimed
 * first (unique per organisation), so a retried or concurrent request with the same key answers the first result and
 * never adjusts twice. The ledger row reads "Adjustment by Verilead support: <reason>" (object type
 * `operator_adjustment`, one line of its own in the customer's ledger). A removal never takes the balance below zero:
 * asking for more than the balance is refused with the balance in the message (the ledger's CHECK backs it).
 */
export async function adjustCredits(deps: { database: TDatabase }, operator: TOperatorCaller, orgId: string, input: TCreditAdjustmentInput): Promise<TOpsCreditAdjustment> {
  const signed = input.direction === 'grant' ? input.amount : -input.amount;
  return deps.database.transaction(async (tx) => {
    const org = await lockOrgBalance(tx, orgId);
    if (!org[0]) throw new AppError('not_found', 'Organisation not found');
    const id = await claimAdjustmentKey(tx, { orgId, idempotencyKey: input.idempotency_key, operatorId: operator.operatorId, amount: signed, reason: input.reason });
    if (!id) {
      const first = (await selectAdjustmentByKey(tx, orgId, input.idempotency_key))!;
      if (first.amount !== signed) throw new AppError('conflict', 'This request key was used for another adjustment. Close the dialog and start again.');
      return { id: first.id, amount: first.amount, balance_after: first.balanceAfter, replayed: true };
    }
    const balance = org[0].credits_balance;
    if (signed < 0 && input.amount > balance) {
      throw new AppError('validation_failed', `The organisation has ${balance} credits: you can remove at most ${balance}.`, {
        reasons: [{ field: 'amount', location: 'body', messages: [`At most ${balance} (the balance)`] }],
      });
    }
    const entry = { orgId, amount: input.amount, reason: `${OPERATOR_ADJUSTMENT_LABEL}: ${input.reason}`, objectType: OPERATOR_ADJUSTMENT_OBJECT, objectId: id, whileSuspended: true };
    const result = signed > 0 ? await grantCredits(tx, entry) : await chargeCredits(tx, entry);
    await setAdjustmentResult(tx, id, result);
    await recordOperatorAction(tx, operator, {
      action: 'operator.credits_adjusted',
      orgId,
      targetType: 'credits',
      targetId: id,
      details: { amount: signed, reason: input.reason, balance_after: result.balanceAfter },
    });
    return { id, amount: signed, balance_after: result.balanceAfter, replayed: false };
  });
}
