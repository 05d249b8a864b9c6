import { MIN_PURCHASE_CREDITS, type TCurrency, type TPlan, type TPriceQuote } from '@verilead/contracts';
import type { TDb } from '../../platform/db/database';
import { AppError } from '../../platform/errors/app-error';
import type { TCallerContext } from '../../platform/tenancy/context';
import { compareAnnual, computeQuote, findSlab, microsToMajor, toMajor, type TQuoteMinor } from './pricing';
import { countOtherCouponClaims, hasRedeemedCoupon, lockCoupon, selectCouponByCode, selectPlans, selectSlabs, type TCouponRow } from './queries';
import type { TSoldPlanInterval } from './tables';

/** Prices: the slabs of a currency, quotes (coupon and tax included), one time against annual, the plans on sale. */
export async function getSlabs(db: TDb, currency: TCurrency) {
  const slabs = await selectSlabs(db, currency);
  return {
    currency,
    min_credit: slabs[0]?.minCredits ?? MIN_PURCHASE_CREDITS,
    slabs: slabs.map((s) => ({
      id: s.id,
      currency: s.currency,
      min_credits: s.minCredits,
      max_credits: s.maxCredits,
      unit_price: microsToMajor(s.unitPriceMicros),
      kind: s.kind,
      bonus_percent: s.bonusPercent,
    })),
  };
}

export function quoteToApi(q: TQuoteMinor, couponCode: string | null): TPriceQuote {
  return {
    currency: q.currency,
    credits: q.credits,
    bonus_credits: q.bonusCredits,
    kind: q.kind,
    unit_price: microsToMajor(q.unitPriceMicros),
    subtotal: toMajor(q.subtotalMinor),
    discount: toMajor(q.discountMinor),
    tax: toMajor(q.taxMinor),
    tax_percent: q.currency === 'INR' ? 18 : 0,
    total: toMajor(q.totalMinor),
    coupon_code: couponCode,
  };
}

export async function slabFor(db: TDb, currency: TCurrency, credits: number) {
  const slab = findSlab(await selectSlabs(db, currency), credits);
  if (!slab) throw new AppError('validation_failed', `No price is set for ${credits.toLocaleString('en-US')} credits in ${currency}.`);
  return slab;
}

/** A percent coupon the organisation may still use on a purchase (400 with a readable reason otherwise). */
export async function usablePercentCoupon(db: TDb, orgId: string, code: string): Promise<TCouponRow> {
  const coupon = await checkCoupon(db, orgId, code);
  if (coupon.kind !== 'percent') throw new AppError('validation_failed', 'This coupon gives free credits: apply it on the coupons page.');
  return coupon;
}

/**
 * A coupon the organisation may use (400 or 409 with a readable reason otherwise). The maximum counts the other
 * organisations that redeemed it or hold an open payment quoted with it; whoever then redeems or reserves it
 * calls this again inside a transaction that locked the coupon row first (`lockCoupon`), so concurrent callers
 * are counted one after another and the maximum holds.
 */
export async function checkCoupon(db: TDb, orgId: string, code: string): Promise<TCouponRow> {
  const coupon = await selectCouponByCode(db, code);
  if (!coupon || !coupon.active) throw new AppError('validation_failed', 'This coupon code is not valid.');
  if (coupon.expiresAt && coupon.expiresAt.getTime() < Date.now()) throw new AppError('validation_failed', 'This coupon has expired.');
  if (await hasRedeemedCoupon(db, coupon.id, orgId)) throw new AppError('conflict', 'Your organisation has already used this coupon.');
  if (coupon.maxRedemptions !== null && (await countOtherCouponClaims(db, coupon.id, orgId)) >= coupon.maxRedemptions) {
    throw new AppError('validation_failed', 'This coupon has been fully used.');
  }
  return coupon;
}

/** Locks a coupon named by `code` (when it exists) in the caller's transaction, before `checkCoupon` counts its claims. */
export async function lockCouponByCode(tx: TDb, code: string): Promise<void> {
  const coupon = await selectCouponByCode(tx, code);
  if (coupon) await lockCoupon(tx, coupon.id);
}

export async function quotePrice(db: TDb, orgId: string, input: { credits: number; currency: TCurrency; coupon_code?: string }) {
  const slab = await slabFor(db, input.currency, input.credits);
  const coupon = input.coupon_code ? await usablePercentCoupon(db, orgId, input.coupon_code) : null;
  return { quote: computeQuote(slab, input.credits, coupon?.value ?? 0), coupon };
}

export async function getPrice(db: TDb, ctx: TCallerContext, input: { credits: number; currency: TCurrency; coupon_code?: string }): Promise<TPriceQuote> {
  const { quote, coupon } = await quotePrice(db, ctx.orgId, input);
  return quoteToApi(quote, coupon?.code ?? null);
}

/** GET /public/price: what a visitor would pay for `credits` (the billing slabs, tax included; no coupon). */
export async function getPublicPrice(db: TDb, input: { credits: number; currency: TCurrency }): Promise<TPriceQuote> {
  const slab = await slabFor(db, input.currency, input.credits);
  return quoteToApi(computeQuote(slab, input.credits, 0), null);
}

export async function comparePrices(db: TDb, input: { credits: number; currency: TCurrency }) {
  const slab = await slabFor(db, input.currency, input.credits);
  const c = compareAnnual(slab, input.credits);
  return {
    currency: input.currency,
    credits: input.credits,
    one_time: { total: toMajor(c.oneTimeMinor), unit_price: microsToMajor(slab.unitPriceMicros) },
    annual: {
      total: toMajor(c.annualMinor),
      unit_price: c.annualMinor / 100 / input.credits,
      per_month: toMajor(c.perMonthMinor),
      saving_percent: Math.round(((c.oneTimeMinor - c.annualMinor) / c.oneTimeMinor) * 100),
    },
  };
}

export async function listPlans(db: TDb, input: { currency: TCurrency; interval?: TSoldPlanInterval }): Promise<{ items: TPlan[] }> {
  const rows = await selectPlans(db, input.currency, input.interval);
  return {
    items: rows.map((p) => ({ id: p.id, name: p.name, interval: p.interval, currency: p.currency as TCurrency, price: toMajor(p.priceMinor), credits: p.credits, seats: p.seats })),
  };
}
