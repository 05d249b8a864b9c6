import { z } from 'zod';
import { ZCurrency, ZPriceKind } from '@verilead/contracts';
import type { TDatabase, TDb } from '../../platform/db/database';
import { billingPlans, billingSeller, coupons, priceSlabs } from './tables';

/**
 * The operator's price file (`npm run ops -- pricing --file prices.json`): slabs and plans replace the current ones;
 * coupons are added or updated by code; `seller` (name, address, tax id) is who the invoices name as the seller.
 */
export const ZPriceConfig = z.object({
  slabs: z
    .array(
      z.object({
        currency: ZCurrency,
        min_credits: z.number().int().min(1),
        max_credits: z.number().int().min(1).nullable().default(null),
        /** Price of one credit in the currency, e.g. 0.008 (kept to millionths). */
        unit_price: z.number().positive(),
        kind: ZPriceKind.default('standard'),
        bonus_percent: z.number().int().min(0).max(100).default(0),
      }),
    )
    .optional(),
  plans: z
    .array(
      z.object({
        id: z.string().min(1),
        name: z.string().min(1),
        interval: z.enum(['monthly', 'annual', 'one_time']),
        currency: ZCurrency,
        price: z.number().nonnegative(),
        credits: z.number().int().min(1),
        seats: z.number().int().min(1).max(50).default(1),
        active: z.boolean().default(true),
      }),
    )
    .optional(),
  coupons: z
    .array(
      z.object({
        code: z.string().min(1).max(64),
        kind: z.enum(['percent', 'credits']),
        value: z.number().int().min(1),
        max_redemptions: z.number().int().min(1).nullable().default(null),
        expires_at: z.iso.datetime().nullable().default(null),
        active: z.boolean().default(true),
      }),
    )
    .optional(),
  seller: z
    .object({
      name: z.string().trim().min(1).max(200),
      address: z.string().trim().max(500).default(''),
      tax_id: z.string().trim().max(64).default(''),
    })
    .optional(),
});
export type TPriceConfig = z.infer<typeof ZPriceConfig>;

export type TAppliedPrices = { seller: boolean; slabs: number | null; plans: number | null; coupons: number };

/**
 * Applies a price file in one transaction. `alsoInTransaction` runs inside it once the prices are written (the operator
 * console logs the change there: both or neither).
 */
export async function applyPriceConfig(database: TDatabase, input: TPriceConfig, alsoInTransaction?: (tx: TDb, applied: TAppliedPrices) => Promise<void>): Promise<TAppliedPrices> {
  return database.transaction(async (tx) => {
    if (input.slabs) {
      await tx.delete(priceSlabs);
      if (input.slabs.length) {
        await tx.insert(priceSlabs).values(
          input.slabs.map((s) => ({
            currency: s.currency,
            minCredits: s.min_credits,
            maxCredits: s.max_credits,
            unitPriceMicros: Math.round(s.unit_price * 1_000_000),
            kind: s.kind,
            bonusPercent: s.bonus_percent,
          })),
        );
      }
    }
    if (input.plans) {
      await tx.update(billingPlans).set({ active: false });
      for (const p of input.plans) {
        const values = { name: p.name, interval: p.interval, currency: p.currency, priceMinor: Math.round(p.price * 100), credits: p.credits, seats: p.seats, active: p.active };
        await tx.insert(billingPlans).values({ id: p.id, ...values }).onConflictDoUpdate({ target: billingPlans.id, set: values });
      }
    }
    for (const c of input.coupons ?? []) {
      const values = { kind: c.kind, value: c.value, maxRedemptions: c.max_redemptions, expiresAt: c.expires_at ? new Date(c.expires_at) : null, active: c.active };
      await tx.insert(coupons).values({ code: c.code, ...values }).onConflictDoUpdate({ target: coupons.code, set: values });
    }
    if (input.seller) {
      const values = { name: input.seller.name, address: input.seller.address, taxId: input.seller.tax_id };
      await tx.insert(billingSeller).values({ id: 1, ...values }).onConflictDoUpdate({ target: billingSeller.id, set: values });
    }
    const applied = { seller: Boolean(input.seller), slabs: input.slabs?.length ?? null, plans: input.plans?.length ?? null, coupons: input.coupons?.length ?? 0 };
    await alsoInTransaction?.(tx, applied);
    return applied;
  });
}

/** The prices in force, in the price file's shape (what the operator console's editor starts from). */
export async function readPriceConfig(database: TDatabase): Promise<TPriceConfig> {
  const db = database.db;
  const [slabs, plans, couponRows, sellerRows] = await Promise.all([
    db.select().from(priceSlabs).orderBy(priceSlabs.currency, priceSlabs.minCredits),
    db.select().from(billingPlans).orderBy(billingPlans.id),
    db.select().from(coupons).orderBy(coupons.code),
    db.select().from(billingSeller).limit(1),
  ]);
  const seller = sellerRows[0];
  return {
    slabs: slabs.map((s) => ({
      currency: s.currency as z.infer<typeof ZCurrency>,
      min_credits: s.minCredits,
      max_credits: s.maxCredits,
      unit_price: s.unitPriceMicros / 1_000_000,
      kind: s.kind,
      bonus_percent: s.bonusPercent,
    })),
    plans: plans.map((p) => ({
      id: p.id,
      name: p.name,
      interval: p.interval,
      currency: p.currency as z.infer<typeof ZCurrency>,
      price: p.priceMinor / 100,
      credits: p.credits,
      seats: p.seats,
      active: p.active,
    })),
    coupons: couponRows.map((c) => ({
      code: c.code,
      kind: c.kind,
      value: c.value,
      max_redemptions: c.maxRedemptions,
      expires_at: c.expiresAt ? c.expiresAt.toISOString() : null,
      active: c.active,
    })),
    ...(seller ? { seller: { name: seller.name, address: seller.address, tax_id: seller.taxId } } : {}),
  };
}
