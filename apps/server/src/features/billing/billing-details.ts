import type { TBillingDetails } from '@verilead/contracts';
import type { TDb } from '../../platform/db/database';
import type { TCallerContext } from '../../platform/tenancy/context';
import { selectBillingProfile, upsertBillingProfile } from './queries';

/** The buyer's billing details an invoice prints (name, address, tax id), edited by the owner on the billing screen. */
export async function getBillingDetails(db: TDb, ctx: TCallerContext): Promise<{ details: TBillingDetails | null }> {
  const row = await selectBillingProfile(db, ctx.orgId);
  return { details: row ? { name: row.name, address: row.address, tax_id: row.taxId } : null };
}

export async function saveBillingDetails(db: TDb, ctx: TCallerContext, input: TBillingDetails): Promise<{ details: TBillingDetails }> {
  const row = await upsertBillingProfile(db, ctx.orgId, { name: input.name, address: input.address, taxId: input.tax_id });
  return { details: { name: row.name, address: row.address, tax_id: row.taxId } };
}
