import { MIN_PURCHASE_CREDITS, type TCouponRedemption, type TCurrency } from '@verilead/contracts';
import type { TDb } from '../../platform/db/database';
import type { TDeps } from '../../platform/deps';
import { AppError } from '../../platform/errors/app-error';
import { grantCredits } from '../../platform/credits/ledger';
import type { TCallerContext } from '../../platform/tenancy/context';
import { computeQuote, invoiceNumber, toMajor } from './pricing';
import { lockCoupon, selectCouponRedemptionsPage, selectPaidPaymentsWithCoupons } from './queries';
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
  // The coupon row is locked before its claims are counted again: the redemption, the count it passed and the grant
  // commit together, and concurrent organisations are counted one after another, so `max_redemptions` holds.
  await deps.database.transaction(async (tx) => {
    await lockCoupon(tx, coupon.id);
    await checkCoupon(tx, ctx.orgId, coupon.code);
    const inserted = await tx
      .insert(couponRedemptions)
      .values({ couponId: coupon.id, orgId: ctx.orgId, userId: ctx.userId, creditsGranted: coupon.value })
      .onConflictDoNothing()
      .returning({ id: couponRedemptions.id });
    if (inserted.length === 0) throw new AppError('conflict', 'Your organisation has already used this coupon.');
    await grantCredits(tx, { orgId: ctx.orgId, userId: null, amount: coupon.value, reason: `Coupon ${coupon.code}`, objectType: 'coupon', objectId: coupon.id });
  });
  return { code: coupon.code, kind: 'credits' as const, message: `${coupon.value.toLocaleString('en-US')} free credits were added to your balance.`, credits_granted: coupon.value, quote: null };
}

/**
 * GET /coupon/history: the coupons the caller's organisation redeemed (a credits coupon when applied, a percent coupon
 * when the purchase it discounted was paid), with what each gave and who redeemed it.
 */
export async function listCouponHistory(db: TDb, ctx: TCallerContext, input: { page: number; limit: number }) {
  const page = await selectCouponRedemptionsPage(db, ctx.orgId, input.page, input.limit);
  const percentIds = page.items.filter((r) => r.kind === 'percent').map((r) => r.couponId);
  const paid = await selectPaidPaymentsWithCoupons(db, ctx.orgId, percentIds);
  const items: TCouponRedemption[] = page.items.map((r) => {
    const payment = r.kind === 'percent' ? paid.find((p) => p.couponId === r.couponId) : undefined;
    return {
      id: r.id,
      code: r.code,
      kind: r.kind,
      value: r.value,
      credits_granted: r.creditsGranted,
      invoice_number: payment ? invoiceNumber(payment.number) : null,
      discount: payment ? toMajor(payment.discountMinor) : null,
      currency: payment ? (payment.currency as TCurrency) : null,
      redeemed_at: r.createdAt.toISOString(),
      redeemed_by: r.userId && r.userName !== null && r.userEmail !== null ? { id: r.userId, name: r.userName, email: r.userEmail } : null,
    };
  });
  return { items, total: page.total, page: input.page, limit: input.limit };
}
