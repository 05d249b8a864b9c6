import { count, eq } from 'drizzle-orm';
import { MIN_PURCHASE_CREDITS, type TCurrency } from '@verilead/contracts';
import type { TDeps } from '../../platform/deps';
import { AppError } from '../../platform/errors/app-error';
import { grantCredits } from '../../platform/credits/ledger';
import type { TCallerContext } from '../../platform/tenancy/context';
import { computeQuote } from './pricing';
import { couponRedemptions } from './tables';
import { checkCoupon, quoteToApi, slabFor } from './pricing-service';

/** Coupons: a percent coupon quotes a purchase; a credits coupon adds its credits once per organisation. */
export async function applyCoupon(deps: TDeps, ctx: TCallerContext, input: { code: string; credits?: number; currency: TCurrency }) {
  const db = deps.database.db;
  const coupon = await checkCoupon(db, ctx.orgId, input.code);
  if (coupon.kind === 'percent') {
    const credits = input.credits ?? MIN_PURCHASE_CREDITS;
    const slab = await slabFor(db, input.currency, credits);
    return {
      code: coupon.code,
      kind: 'percent' as const,
      message: `${coupon.value}% off your next purchase of credits.`,
      credits_granted: 0,
      quote: quoteToApi(computeQuote(slab, credits, coupon.value), coupon.code),
    };
  }
  await deps.database.transaction(async (tx) => {
    const inserted = await tx
      .insert(couponRedemptions)
      .values({ couponId: coupon.id, orgId: ctx.orgId, userId: ctx.userId, creditsGranted: coupon.value })
      .onConflictDoNothing()
      .returning({ id: couponRedemptions.id });
    if (inserted.length === 0) throw new AppError(409, 'conflict', 'Your organisation has already used this coupon.');
    if (coupon.maxRedemptions !== null) {
      const used = await tx.select({ n: count() }).from(couponRedemptions).where(eq(couponRedemptions.couponId, coupon.id));
      if ((used[0]?.n ?? 0) > coupon.maxRedemptions) throw new AppError(400, 'validation_failed', 'This coupon has been fully used.');
    }
    await grantCredits(tx, { orgId: ctx.orgId, userId: null, amount: coupon.value, reason: `Coupon ${coupon.code}`, objectType: 'coupon', objectId: coupon.id });
  });
  return { code: coupon.code, kind: 'credits' as const, message: `${coupon.value.toLocaleString('en-US')} free credits were added to your balance.`, credits_granted: coupon.value, quote: null };
}
