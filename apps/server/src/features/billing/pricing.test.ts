import { describe, expect, it } from 'vitest';
import { compareAnnual, computeQuote, computeTaxMinor, findSlab, type TSlabRow } from './pricing';

const usd: TSlabRow[] = [
  { currency: 'USD', minCredits: 1000, maxCredits: 9999, unitPriceMicros: 8000, kind: 'standard', bonusPercent: 0 },
  { currency: 'USD', minCredits: 10000, maxCredits: 99999, unitPriceMicros: 6000, kind: 'discount', bonusPercent: 0 },
  { currency: 'USD', minCredits: 100000, maxCredits: null, unitPriceMicros: 4000, kind: 'bonus', bonusPercent: 10 },
];

describe('pricing rules', () => {
  it('finds the slab for a number of credits', () => {
    expect(findSlab(usd, 999)).toBeNull();
    expect(findSlab(usd, 1000)?.unitPriceMicros).toBe(8000);
    expect(findSlab(usd, 9999)?.unitPriceMicros).toBe(8000);
    expect(findSlab(usd, 10000)?.kind).toBe('discount');
    expect(findSlab(usd, 5_000_000)?.kind).toBe('bonus');
  });

  it('adds 18% tax for INR, rounded down to 2 decimals, and none for USD', () => {
    expect(computeTaxMinor('USD', 12345)).toBe(0);
    // 123.45 × 18% = 22.221 → 22.22
    expect(computeTaxMinor('INR', 12345)).toBe(2222);
    // 0.99 × 18% = 0.1782 → 0.17 (never rounded up)
    expect(computeTaxMinor('INR', 99)).toBe(17);
    // 555.55 × 18% = 99.999 → 99.99
    expect(computeTaxMinor('INR', 55555)).toBe(9999);
  });

  it('quotes subtotal, coupon discount, tax and bonus credits', () => {
    const q = computeQuote(usd[0]!, 5000, 10);
    expect(q).toMatchObject({ subtotalMinor: 4000, discountMinor: 400, taxMinor: 0, totalMinor: 3600, bonusCredits: 0 });
    const b = computeQuote(usd[2]!, 200_000);
    expect(b).toMatchObject({ subtotalMinor: 80_000, bonusCredits: 20_000, totalMinor: 80_000 });
    const inr = computeQuote({ currency: 'INR', minCredits: 1000, maxCredits: null, unitPriceMicros: 617_300, kind: 'standard', bonusPercent: 0 }, 1000);
    // 617.30 + 18% (111.114 → 111.11) = 728.41
    expect(inr).toMatchObject({ subtotalMinor: 61_730, taxMinor: 11_111, totalMinor: 72_841 });
  });

  it('makes annual 20% cheaper than one time', () => {
    const c = compareAnnual(usd[1]!, 50_000);
    expect(c.oneTimeMinor).toBe(30_000);
    expect(c.annualMinor).toBe(24_000);
    expect(c.perMonthMinor).toBe(2_000);
  });
});
