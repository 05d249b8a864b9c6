import { and, eq, sql } from 'drizzle-orm';
import { selectRows, type TDb } from '../../platform/db/database';
import { operatorCreditAdjustments } from './tables';

/** The organisation's balance, its row locked until the transaction ends (none when the organisation is unknown). */
export async function lockOrgBalance(tx: TDb, orgId: string) {
  return selectRows<{ credits_balance: number }>(tx, sql`select credits_balance from organisations where id = ${orgId}::uuid for update`);
}

/** Claims an adjustment's idempotency key (unique per organisation): its new id, or null when the key was used before. */
export async function claimAdjustmentKey(
  tx: TDb,
  row: { orgId: string; idempotencyKey: string; operatorId: string; amount: number; reason: string },
): Promise<string | null> {
  const rows = await tx
    .insert(operatorCreditAdjustments)
    .values({ ...row, balanceAfter: 0 })
    .onConflictDoNothing()
    .returning({ id: operatorCreditAdjustments.id });
  return rows[0]?.id ?? null;
}

export async function selectAdjustmentByKey(tx: TDb, orgId: string, idempotencyKey: string) {
  const rows = await tx
    .select()
    .from(operatorCreditAdjustments)
    .where(and(eq(operatorCreditAdjustments.orgId, orgId), eq(operatorCreditAdjustments.idempotencyKey, idempotencyKey)))
    .limit(1);
  return rows[0];
}

export async function setAdjustmentResult(tx: TDb, id: string, result: { transactionId: string; balanceAfter: number }): Promise<void> {
  await tx
    .update(operatorCreditAdjustments)
    .set({ transactionId: result.transactionId, balanceAfter: result.balanceAfter })
    .where(eq(operatorCreditAdjustments.id, id));
}
